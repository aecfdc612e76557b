#pragma once
// The vocabulary of PyTensor's debugprint, shared by the printer (DPrint.h) and
// the dprint importer: tree glyphs, [id X] letters, destroy/view map text, and
// the Scan op-info tags (ScanArgs field names) with the inner -> outer input map.
#include "ir/Op.h"
#include "ops/ScanInfo.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tl::debugprint {

// A child line is prefixChild + kBranch (or kLastBranch for the last input); its
// own children get prefixChild + kPipe (or kBlank). Note kPipe is 3 characters
// and kBranch 4, exactly as PyTensor writes them.
inline constexpr std::string_view kBranch = " \u251c\u2500 ";      // " ├─ "
inline constexpr std::string_view kLastBranch = " \u2514\u2500 ";  // " └─ "
inline constexpr std::string_view kPipe = " \u2502 ";              // " │ "
inline constexpr std::string_view kBlank = "   ";
/// The single child line of a node printed before: prefixChild + kRepeat.
inline constexpr std::string_view kRepeat = " \u2514\u2500 \u00b7\u00b7\u00b7";  // " └─ ···"
/// Inner-graph outputs: " ← " then children indented by kInnerChild.
inline constexpr std::string_view kInnerOutput = " \u2190 ";  // " ← "
inline constexpr std::string_view kInnerChild = "   ";
inline constexpr std::string_view kInnerGraphsTitle = "Inner graphs:";
/// " -> " between an inner input and the [id X] of the outer input it stands for.
inline constexpr std::string_view kInnerToOuter = " -> ";

/// Base-26 capital letters, A = 0: 0 -> "A", 25 -> "Z", 26 -> "BA", 27 -> "BB".
std::string idLetters(int64_t n);
/// Inverse of idLetters; nullopt for anything that is not a letter string (or overflows).
std::optional<int64_t> parseIdLetters(std::string_view s);
/// "[id BA]".
std::string idText(int64_t n);

/// Python's str of a destroy/view map: "{0: [1], 1: [2]}".
std::string aliasMapText(const AliasMap& m);

/// Op-info tags of a Scan's variables as PyTensor's ScanArgs names them, one per
/// position ("" where none: the while condition). When one variable sits at two
/// positions, PyTensor keeps the tag of the later one.
struct ScanTags {
    std::vector<std::string> outerInputs;   // "n_steps", "outer_in_seqs-0", ..., "outer_in_nit_sot-0", ...
    std::vector<std::string> outerOutputs;  // "outer_out_mit_mot-0", ..., "outer_out_shared-0"
    std::vector<std::string> innerInputs;   // "inner_in_seqs-0", "inner_in_mit_sot-0-1", ...
    std::vector<std::string> innerOutputs;  // "inner_out_mit_mot-0-0", ..., "" for the condition
};
ScanTags scanTags(const ScanInfo& info);

/// For each inner input of a Scan, the index of the outer input it stands for
/// (PyTensor's outer_inp_from_inner_inp: taps of one state share its outer buffer).
std::vector<int> scanInnerToOuterInput(const ScanInfo& info);

} // namespace tl::debugprint
