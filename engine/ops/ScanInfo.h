#pragma once
// The layout of a Scan's inputs and outputs, as PyTensor's ScanInfo. Shared by
// the Scan op, its builder, the printer (op-info tags) and the scan rewrites.
#include <cstdint>
#include <string>
#include <vector>

namespace tl {

/// State categories, in the order they appear among outer outputs.
enum class ScanCategory : uint8_t { Sequence, MitMot, MitSot, SitSot, NitSot, Untraced, NonSequence };

/// "sit_sot", "mit_sot", ... as PyTensor's ScanArgs names them ("shared" is printed for Untraced).
const char* scanCategoryName(ScanCategory c);

struct ScanInfo {
    int nSeqs = 0;
    std::vector<std::vector<int>> mitMotInTaps;   // per mit_mot state: input taps
    std::vector<std::vector<int>> mitMotOutTaps;  // per mit_mot state: output taps
    std::vector<std::vector<int>> mitSotTaps;     // per mit_sot state: distinct negative taps, in inner-input order
    int nSitSot = 0;                              // taps are always {-1}
    int nNitSot = 0;
    int nUntraced = 0;
    int nNonSeqs = 0;
    bool asWhile = false;

    int nMitMot() const { return static_cast<int>(mitMotInTaps.size()); }
    int nMitSot() const { return static_cast<int>(mitSotTaps.size()); }
    /// Traced recurrent states (mit_mot + mit_sot + sit_sot).
    int nTracedStates() const { return nMitMot() + nMitSot() + nSitSot; }

    // ---- outer inputs: n_steps | seqs | mit_mot | mit_sot | sit_sot | untraced | nit_sot | non_seqs
    int outerInSeqs() const { return 1; }
    int outerInMitMot() const { return outerInSeqs() + nSeqs; }
    int outerInMitSot() const { return outerInMitMot() + nMitMot(); }
    int outerInSitSot() const { return outerInMitSot() + nMitSot(); }
    int outerInUntraced() const { return outerInSitSot() + nSitSot; }
    int outerInNitSot() const { return outerInUntraced() + nUntraced; }
    int outerInNonSeqs() const { return outerInNitSot() + nNitSot; }
    int numOuterInputs() const { return outerInNonSeqs() + nNonSeqs; }

    // ---- outer outputs: mit_mot | mit_sot | sit_sot | nit_sot | untraced
    int outerOutMitSot() const { return nMitMot(); }
    int outerOutSitSot() const { return outerOutMitSot() + nMitSot(); }
    int outerOutNitSot() const { return outerOutSitSot() + nSitSot; }
    int outerOutUntraced() const { return outerOutNitSot() + nNitSot; }
    int numOuterOutputs() const { return outerOutUntraced() + nUntraced; }

    // ---- inner inputs: seqs | mit_mot taps | mit_sot taps | sit_sot | untraced | non_seqs
    int innerInMitMot() const { return nSeqs; }
    int innerInMitSot() const;
    int innerInSitSot() const;
    int innerInUntraced() const { return innerInSitSot() + nSitSot; }
    int innerInNonSeqs() const { return innerInUntraced() + nUntraced; }
    int numInnerInputs() const { return innerInNonSeqs() + nNonSeqs; }

    // ---- inner outputs: mit_mot outs | mit_sot | sit_sot | nit_sot | untraced | [cond]
    int innerOutMitSot() const;
    int innerOutSitSot() const { return innerOutMitSot() + nMitSot(); }
    int innerOutNitSot() const { return innerOutSitSot() + nSitSot; }
    int innerOutUntraced() const { return innerOutNitSot() + nNitSot; }
    int numInnerOutputs() const { return innerOutUntraced() + nUntraced + (asWhile ? 1 : 0); }

    /// Inner input index of tap k of traced state s.
    int innerInTap(int s, int k) const;
    /// Inner output index of traced state s (mit_mot: of its first output tap).
    int innerOutState(int s) const;
    /// Input taps of traced state s (0-based over mit_mot, mit_sot, sit_sot in that order).
    std::vector<int> stateTaps(int s) const;
    /// Rows before the first new one in a traced state's buffer: -min(taps) (mit_mot: see impl).
    int initRows(int s) const;
    /// Position (k of innerInTap(s, k)) of traced state s's oldest tap, the lowest one:
    /// the row a new state may overwrite. Taps come in any order, as PyTensor keeps them.
    int oldestTapIndex(int s) const;
    /// Category of traced state s.
    ScanCategory stateCategory(int s) const;
    /// Index of state s within its category (sit_sot-0 ...).
    int indexInCategory(int s) const;

    /// Checks internal consistency (mit_sot taps negative and distinct, counts >= 0); returns problems.
    std::vector<std::string> validate() const;

    friend bool operator==(const ScanInfo&, const ScanInfo&) = default;
};

} // namespace tl
