// A Scan's layout (ops/ScanInfo.h) from what its listing shows. dprint prints no
// ScanInfo, only: the outer inputs in order (n_steps first), the inner outputs in
// order, the inner inputs that the body uses with their `*k` position and `-> [id X]`
// outer input, the outer outputs that are used (`.k`), their types, and, with
// print_op_info, each variable's ScanArgs tag. Every layout of the categories
//   n_steps | seqs | mit_sot | sit_sot | untraced | nit_sot | non_seqs
// that fits the counts is checked against all of that; the tags, when printed,
// decide. Taps are never printed: a mit_sot state with k tap inputs is taken to
// read taps -k..-1 (the caller says so in a note). mit_mot loops (gradients) are
// not inferred.
#include "io/DPrintImportInternal.h"
#include "io/DPrintVocab.h"

#include <algorithm>

namespace tl::dpimport {

namespace {

bool isIntScalarType(const Type& t) { return (t.isScalarType() || t.ndim() == 0) && (isInteger(t.dtype)); }

class LayoutCheck {
public:
    explicit LayoutCheck(const ScanEvidence& ev) : m_ev(ev) {}

    // "" when `info` fits the evidence, else the first mismatch.
    std::string check(const ScanInfo& info) const {
        if (!info.validate().empty()) return info.validate().front();
        const int n = static_cast<int>(m_ev.outerInputs.size());
        if (info.numOuterInputs() != n) return "outer input count";
        const int numOut = info.numOuterOutputs();
        if (m_ev.multiOutput ? numOut < 2 : numOut != 1)
            return "the listing prints " + std::string(m_ev.multiOutput ? "several outputs" : "one output") + ", the layout has " +
                   std::to_string(numOut);
        const debugprint::ScanTags tags = debugprint::scanTags(info);
        const std::vector<int> innerToOuter = debugprint::scanInnerToOuterInput(info);
        const int k = info.numInnerInputs();
        // Outer inputs.
        if (!isIntScalarType(m_ev.outerInputs[0]->type())) return "n_steps is no integer scalar";
        for (int p = 1; p < n; ++p) {
            const Type& t = m_ev.outerInputs[static_cast<size_t>(p)]->type();
            const bool traced = p < info.outerInUntraced();  // seqs and traced states
            if (traced && (t.isScalarType() || t.ndim() < 1)) return "outer input " + std::to_string(p) + " has no rows";
            if (p >= info.outerInNitSot() && p < info.outerInNonSeqs() && !isIntScalarType(t))
                return "nit_sot input " + std::to_string(p) + " is no integer scalar";
        }
        for (int p = 0; p < n; ++p)
            if (!tagFits(m_ev.outerInputTags[static_cast<size_t>(p)], p, tags.outerInputs)) return "outer input tag";
        // Inner inputs.
        for (const auto& in : m_ev.innerInputs) {
            if (in.k >= k) return "inner input *" + std::to_string(in.k) + " beyond the layout's " + std::to_string(k);
            const int outer = innerToOuter[static_cast<size_t>(in.k)];
            if (!in.outer.empty() && std::find(in.outer.begin(), in.outer.end(), outer) == in.outer.end())
                return "inner input *" + std::to_string(in.k) + " links elsewhere";
            if (!in.tag.empty() && in.tag != tags.innerInputs[static_cast<size_t>(in.k)]) return "inner input tag";
            const Type& o = m_ev.outerInputs[static_cast<size_t>(outer)]->type();
            if (in.type) {
                const bool row = in.k < info.innerInUntraced();
                if (in.type->ndim() != o.ndim() - (row ? 1 : 0)) return "inner input *" + std::to_string(in.k) + " rank";
                if (in.type->dtype != o.dtype) return "inner input *" + std::to_string(in.k) + " dtype";
            }
        }
        // Inner outputs (mit_sot | sit_sot | nit_sot | untraced | [cond]).
        const int m = static_cast<int>(m_ev.innerOutputs.size());
        if (m != info.numInnerOutputs()) return "inner output count";
        for (int j = 0; j < m; ++j) {
            const auto& out = m_ev.innerOutputs[static_cast<size_t>(j)];
            if (out.tag != tags.innerOutputs[static_cast<size_t>(j)] && !(out.tag.empty() && !anyTags())) return "inner output tag";
            if (!out.ndim) continue;
            if (j < info.innerOutNitSot()) {
                const Type& buf = m_ev.outerInputs[static_cast<size_t>(info.outerInMitSot() + j)]->type();
                if (*out.ndim != buf.ndim() - 1) return "state output rank";
            } else if (j >= info.innerOutUntraced() && j < info.innerOutUntraced() + info.nUntraced) {
                const Type& o = m_ev.outerInputs[static_cast<size_t>(info.outerInUntraced() + j - info.innerOutUntraced())]->type();
                if (*out.ndim != o.ndim()) return "untraced output rank";
            }
        }
        // Outer outputs (mit_sot | sit_sot | nit_sot | untraced).
        for (const auto& [idx, out] : m_ev.outerOutputs) {
            if (idx >= numOut) return "output ." + std::to_string(idx) + " beyond the layout's " + std::to_string(numOut);
            if (!out.tag.empty() && out.tag != tags.outerOutputs[static_cast<size_t>(idx)]) return "outer output tag";
            if (!out.ndim) continue;
            const int innerOut = idx;  // outer output i <-> inner output i for these categories
            const auto& io = m_ev.innerOutputs[static_cast<size_t>(innerOut)];
            const bool untraced = idx >= info.outerOutUntraced();
            if (io.ndim && *out.ndim != *io.ndim + (untraced ? 0 : 1)) return "output ." + std::to_string(idx) + " rank";
        }
        return {};
    }

    bool anyTags() const {
        for (const auto& t : m_ev.outerInputTags)
            if (!t.empty()) return true;
        for (const auto& i : m_ev.innerInputs)
            if (!i.tag.empty()) return true;
        for (const auto& o : m_ev.innerOutputs)
            if (!o.tag.empty()) return true;
        for (const auto& [i, o] : m_ev.outerOutputs)
            if (!o.tag.empty()) return true;
        return false;
    }

private:
    // PyTensor keeps one tag per variable: a variable at two positions shows the
    // later position's tag at both.
    bool tagFits(const std::string& tag, int p, const std::vector<std::string>& expected) const {
        if (tag.empty()) return true;
        for (size_t q = static_cast<size_t>(p); q < expected.size(); ++q)
            if (m_ev.outerInputs[q] == m_ev.outerInputs[static_cast<size_t>(p)] && expected[q] == tag) return true;
        return false;
    }

    const ScanEvidence& m_ev;
};

// Tap counts of mit_sot state i: from `inner_in_mit_sot-i-j` tags, else from the
// inner inputs linked to its outer input.
int tapCount(const ScanEvidence& ev, int state, int outerPos) {
    int fromTags = 0, linked = 0;
    const std::string pre = "inner_in_mit_sot-" + std::to_string(state) + "-";
    for (const auto& in : ev.innerInputs) {
        if (in.tag.rfind(pre, 0) == 0) {
            try {
                fromTags = std::max(fromTags, std::stoi(in.tag.substr(pre.size())) + 1);
            } catch (const std::exception&) {
            }
        }
        if (std::find(in.outer.begin(), in.outer.end(), outerPos) != in.outer.end()) ++linked;
    }
    return std::max({fromTags, linked, 1});
}

} // namespace

std::string describeLayout(const ScanInfo& info) {
    std::string s;
    auto add = [&](int n, const std::string& what) {
        if (n) s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + what;
    };
    add(info.nSeqs, info.nSeqs == 1 ? "sequence" : "sequences");
    for (int i = 0; i < info.nMitSot(); ++i) {
        std::string taps;
        for (int t : info.mitSotTaps[static_cast<size_t>(i)]) taps += (taps.empty() ? "" : ", ") + std::to_string(t);
        add(1, "mit_sot (taps [" + taps + "])");
    }
    add(info.nSitSot, "sit_sot");
    add(info.nUntraced, "untraced");
    add(info.nNitSot, "nit_sot");
    add(info.nNonSeqs, info.nNonSeqs == 1 ? "non_sequence" : "non_sequences");
    if (info.asWhile) s += (s.empty() ? "" : ", ") + std::string("a while condition");
    return s.empty() ? "no inputs" : s;
}

std::optional<ScanLayout> inferScanLayout(const ScanEvidence& ev, std::string* why) {
    const int n = static_cast<int>(ev.outerInputs.size());
    const int m = static_cast<int>(ev.innerOutputs.size()) - (ev.asWhile ? 1 : 0);
    if (n < 1 || m < 0) {
        *why = "a Scan needs n_steps and its inner outputs";
        return std::nullopt;
    }
    for (const auto& o : ev.innerOutputs)
        if (o.tag.rfind("inner_out_mit_mot", 0) == 0) {
            *why = "mit_mot loops cannot be read back from a listing (their taps are not printed)";
            return std::nullopt;
        }
    LayoutCheck checker(ev);
    const bool tags = checker.anyTags();
    // With op-info tags the layout can be read off directly.
    if (tags) {
        ScanInfo info;
        info.asWhile = ev.asWhile;
        for (const auto& t : ev.outerInputTags) {
            info.nSeqs += t.rfind("outer_in_seqs-", 0) == 0;
            info.nNonSeqs += t.rfind("outer_in_non_seqs-", 0) == 0;
        }
        int mitSot = 0;
        for (const auto& o : ev.innerOutputs) {
            mitSot += o.tag.rfind("inner_out_mit_sot-", 0) == 0;
            info.nSitSot += o.tag.rfind("inner_out_sit_sot-", 0) == 0;
            info.nNitSot += o.tag.rfind("inner_out_nit_sot-", 0) == 0;
            info.nUntraced += o.tag.rfind("inner_out_shared-", 0) == 0;
        }
        for (int i = 0; i < mitSot; ++i) {
            std::vector<int> tv;
            for (int k = tapCount(ev, i, 1 + info.nSeqs + i); k >= 1; --k) tv.push_back(-k);
            info.mitSotTaps.push_back(tv);
        }
        if (checker.check(info).empty()) return ScanLayout{info, true, 1};
    }
    if (n > 33 || m > 32) {
        *why = "too many inputs to infer its layout without op-info tags";
        return std::nullopt;
    }
    // Positions 1..k have rows (seqs and traced states need them).
    int rowsPrefix = 0;
    while (rowsPrefix + 1 < n) {
        const Type& t = ev.outerInputs[static_cast<size_t>(rowsPrefix + 1)]->type();
        if (t.isScalarType() || t.ndim() < 1) break;
        ++rowsPrefix;
    }
    std::optional<ScanLayout> best;
    std::string firstMismatch;
    int fits = 0;
    const int rest = n - 1 - m;  // seqs + non_seqs
    for (int s = 0; s <= std::max(rest, 0) && rest >= 0; ++s) {
        const int q = rest - s;
        for (int t = 0; t <= m; ++t)
            for (int u = 0; u <= m - t; ++u) {
                if (s + t + u > rowsPrefix) continue;
                for (int h = 0; h <= m - t - u; ++h) {
                    const int nit = m - t - u - h;
                    ScanInfo info;
                    info.nSeqs = s;
                    info.nSitSot = u;
                    info.nUntraced = h;
                    info.nNitSot = nit;
                    info.nNonSeqs = q;
                    info.asWhile = ev.asWhile;
                    bool single = false;
                    for (int i = 0; i < t; ++i) {
                        const int taps = tapCount(ev, i, 1 + s + i);
                        single |= taps == 1;
                        std::vector<int> tv;
                        for (int k = taps; k >= 1; --k) tv.push_back(-k);
                        info.mitSotTaps.push_back(tv);
                    }
                    // Without tags a single-tap state reads as a sit_sot (PyTensor's usual case).
                    if (single && !tags) continue;
                    std::string mismatch = checker.check(info);
                    if (!mismatch.empty()) {
                        if (firstMismatch.empty()) firstMismatch = describeLayout(info) + ": " + mismatch;
                        continue;
                    }
                    ++fits;
                    if (!best) best = ScanLayout{info, tags, 0};
                }
            }
    }
    if (!best) {
        *why = "no layout fits its " + std::to_string(n) + " outer inputs and " + std::to_string(m) + " inner outputs" +
               (firstMismatch.empty() ? std::string() : " (e.g. " + firstMismatch + ")");
        return std::nullopt;
    }
    best->alternatives = fits;
    return best;
}

} // namespace tl::dpimport
