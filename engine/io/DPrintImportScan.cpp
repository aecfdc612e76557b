// A Scan's layout (ops/ScanInfo.h) from what its listing shows. dprint prints no
// ScanInfo, only: the outer inputs in order (n_steps first), the inner outputs in
// order, the inner inputs that the body uses with their `*k` position and `-> [id X]`
// outer input, the outer outputs that are used (`.k`), their types, and, with
// print_op_info, each variable's ScanArgs tag. Every layout of the categories
//   n_steps | seqs | mit_mot | mit_sot | sit_sot | untraced | nit_sot | non_seqs
// that fits the counts is checked against all of that; the tags, when printed,
// decide. Taps are never printed: a mit_sot state with k tap inputs is taken to
// read taps -k..-1, and a mit_mot (only PyTensor's gradient loops, named `grad_of_`,
// have them) to be the gradient PyTensor builds of such a state (mitMotTaps below;
// the caller says so in a note).
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
        // Inner outputs (mit_mot outs | mit_sot | sit_sot | nit_sot | untraced | [cond]).
        const int m = static_cast<int>(m_ev.innerOutputs.size());
        if (m != info.numInnerOutputs()) return "inner output count";
        for (int j = 0; j < m; ++j) {
            const auto& out = m_ev.innerOutputs[static_cast<size_t>(j)];
            if (out.tag != tags.innerOutputs[static_cast<size_t>(j)] && !(out.tag.empty() && !anyTags())) return "inner output tag";
            if (!out.ndim) continue;
            if (j < info.innerOutNitSot()) {
                const Type& buf = m_ev.outerInputs[static_cast<size_t>(info.outerInMitMot() + stateOfInnerOutput(info, j))]->type();
                if (*out.ndim != buf.ndim() - 1) return "state output rank";
            } else if (j >= info.innerOutUntraced() && j < info.innerOutUntraced() + info.nUntraced) {
                const Type& o = m_ev.outerInputs[static_cast<size_t>(info.outerInUntraced() + j - info.innerOutUntraced())]->type();
                if (*out.ndim != o.ndim()) return "untraced output rank";
            }
        }
        // Outer outputs (mit_mot | mit_sot | sit_sot | nit_sot | untraced).
        for (const auto& [idx, out] : m_ev.outerOutputs) {
            if (idx >= numOut) return "output ." + std::to_string(idx) + " beyond the layout's " + std::to_string(numOut);
            if (!out.tag.empty() && out.tag != tags.outerOutputs[static_cast<size_t>(idx)]) return "outer output tag";
            if (!out.ndim) continue;
            // Traced states' outer outputs are in state order; nit_sot and untraced ones follow
            // their inner outputs' order.
            const int innerOut = idx < info.nTracedStates() ? info.innerOutState(idx) : info.innerOutNitSot() + idx - info.outerOutNitSot();
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
    static int stateOfInnerOutput(const ScanInfo& info, int j) {
        int s = 0;
        while (s + 1 < info.nTracedStates() && info.innerOutState(s + 1) <= j) ++s;
        return s;
    }

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

// The number after `prefix` in `tag` ("inner_out_mit_mot-3" -> 3 for prefix
// "inner_out_mit_mot-"); nullopt when the tag has another prefix or no small number there.
std::optional<int> tagIndex(const std::string& tag, const std::string& prefix) {
    if (tag.rfind(prefix, 0) != 0) return std::nullopt;
    int v = 0;
    size_t p = prefix.size();
    for (; p < tag.size() && tag[p] >= '0' && tag[p] <= '9'; ++p) {
        v = v * 10 + (tag[p] - '0');
        if (v > 100000) return std::nullopt;
    }
    if (p == prefix.size()) return std::nullopt;
    return v;
}

// How many `<prefix>-i-j` tags state i shows (the highest j + 1), 0 when none.
int taggedCount(const std::string& prefix, int state, const std::vector<std::string>& tags) {
    int n = 0;
    const std::string pre = prefix + "-" + std::to_string(state) + "-";
    for (const auto& t : tags)
        if (auto j = tagIndex(t, pre)) n = std::max(n, *j + 1);
    return n;
}

// Tap counts of multi-tap state i (`category` "mit_sot" or "mit_mot"): from its
// `inner_in_<category>-i-j` tags, else from the inner inputs linked to its outer input.
int tapCount(const ScanEvidence& ev, const std::string& category, int state, int outerPos) {
    int linked = 0, tagged = 0;
    const std::string pre = "inner_in_" + category + "-" + std::to_string(state) + "-";
    for (const auto& in : ev.innerInputs) {
        if (std::find(in.outer.begin(), in.outer.end(), outerPos) != in.outer.end()) ++linked;
        if (auto j = tagIndex(in.tag, pre)) tagged = std::max(tagged, *j + 1);
    }
    return std::max({tagged, linked, 1});
}

// The taps of a mit_sot with k inner inputs whose outer input keeps `init` initial
// rows: the oldest tap is -init (pytensor.scan keeps exactly those rows), the others the
// nearest steps; without `init`, -k..-1.
std::vector<int> mitSotTaps(int k, std::optional<int> init) {
    std::vector<int> taps;
    if (init && *init > k && k >= 2) taps.push_back(-*init);
    for (int t = static_cast<int>(k - taps.size()); t >= 1; --t) taps.push_back(-t);
    return taps;
}

// The taps of a mit_mot with `in` inner inputs and `out` inner outputs, as PyTensor's
// Scan.L_op builds them: the gradient of a sit_sot reads taps [0, 1] and writes [1];
// of a mit_sot reading taps -k..-1 reads [0, k, ..., 1] and writes [k, ..., 1]; of the
// sit_sot gradient's own mit_mot ([0, 1] / [1]) reads [-1, 0] and writes [0, -1].
// nullopt for any other count.
std::optional<std::pair<std::vector<int>, std::vector<int>>> mitMotTaps(int in, int out) {
    if (in >= 2 && out == in - 1) {
        std::vector<int> ins{0}, outs;
        for (int k = out; k >= 1; --k) {
            ins.push_back(k);
            outs.push_back(k);
        }
        return std::make_pair(ins, outs);
    }
    if (in == 2 && out == 2) return std::make_pair(std::vector<int>{-1, 0}, std::vector<int>{0, -1});
    return std::nullopt;
}

// Whether the printed inner inputs' links allow `s` sequences followed by states read
// by `ins[i]` inner inputs each: an inner input k the layout places among those (a
// sequence's or a state's) must link to the outer input it places it at. A cheap test
// before the full check (LayoutCheck tests the same and everything else), which the
// search of an untagged gradient loop (many states, many tap layouts) needs.
bool prefixFits(const ScanEvidence& ev, int s, const std::vector<int>& ins) {
    int end = s;
    for (int n : ins) end += n;
    for (const auto& in : ev.innerInputs) {
        if (in.k >= end || in.outer.empty()) continue;
        int p = in.k + 1;  // a sequence
        if (in.k >= s) {
            int k = s;
            size_t i = 0;
            while (k + ins[i] <= in.k) k += ins[i++];
            p = s + 1 + static_cast<int>(i);
        }
        if (std::find(in.outer.begin(), in.outer.end(), p) == in.outer.end()) return false;
    }
    return true;
}

// Among layouts that fit, the one that reads the loop as PyTensor builds it: a body
// uses its inputs (dprint prints the used ones), and an outer input that is n_steps
// itself is a nit_sot's length (pytensor.scan passes n_steps there).
int plausibility(const ScanEvidence& ev, const ScanInfo& info) {
    int score = -info.numInnerInputs();
    for (const auto& in : ev.innerInputs) score += in.k < info.numInnerInputs();
    for (int p = info.outerInNitSot(); p < info.outerInNonSeqs(); ++p) score += ev.outerInputs[static_cast<size_t>(p)] == ev.outerInputs[0];
    for (int p = info.outerInNonSeqs(); p < info.numOuterInputs(); ++p) score -= ev.outerInputs[static_cast<size_t>(p)] == ev.outerInputs[0];
    return score;
}

} // namespace

std::string describeLayout(const ScanInfo& info) {
    std::string s;
    auto add = [&](int n, const std::string& what) {
        if (n) s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + what;
    };
    add(info.nSeqs, info.nSeqs == 1 ? "sequence" : "sequences");
    auto list = [](const std::vector<int>& v) {
        std::string t;
        for (int x : v) t += (t.empty() ? "" : ", ") + std::to_string(x);
        return "[" + t + "]";
    };
    for (int i = 0; i < info.nMitMot(); ++i)
        add(1, "mit_mot (taps " + list(info.mitMotInTaps[static_cast<size_t>(i)]) + " -> " + list(info.mitMotOutTaps[static_cast<size_t>(i)]) +
                   ")");
    for (int i = 0; i < info.nMitSot(); ++i) add(1, "mit_sot (taps " + list(info.mitSotTaps[static_cast<size_t>(i)]) + ")");
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
    LayoutCheck checker(ev);
    const bool tags = checker.anyTags();
    // With op-info tags the layout can be read off directly.
    if (tags) {
        ScanInfo info;
        info.asWhile = ev.asWhile;
        int mitMot = 0, mitSot = 0;
        for (const auto& t : ev.outerInputTags) {
            info.nSeqs += t.rfind("outer_in_seqs-", 0) == 0;
            info.nNonSeqs += t.rfind("outer_in_non_seqs-", 0) == 0;
        }
        std::vector<std::string> outTags;
        for (const auto& o : ev.innerOutputs) {
            outTags.push_back(o.tag);
            if (auto i = tagIndex(o.tag, "inner_out_mit_mot-")) mitMot = std::max(mitMot, *i + 1);
            mitSot += o.tag.rfind("inner_out_mit_sot-", 0) == 0;
            info.nSitSot += o.tag.rfind("inner_out_sit_sot-", 0) == 0;
            info.nNitSot += o.tag.rfind("inner_out_nit_sot-", 0) == 0;
            info.nUntraced += o.tag.rfind("inner_out_shared-", 0) == 0;
        }
        if (1 + info.nSeqs + mitMot + mitSot > n) {
            *why = "its op-info tags name more states than it has outer inputs";
            return std::nullopt;
        }
        for (int i = 0; i < mitMot; ++i) {
            const int in = tapCount(ev, "mit_mot", i, 1 + info.nSeqs + i), out = taggedCount("inner_out_mit_mot", i, outTags);
            // The tap-0 input may be unused, and then neither printed nor tagged.
            auto taps = mitMotTaps(in, out);
            if (!taps) taps = mitMotTaps(out + 1, out);
            if (!taps) {
                *why = "its mit_mot " + std::to_string(i) + " has " + std::to_string(in) + " inner inputs and " + std::to_string(out) +
                       " inner outputs, and dprint does not print which taps they are";
                return std::nullopt;
            }
            info.mitMotInTaps.push_back(taps->first);
            info.mitMotOutTaps.push_back(taps->second);
        }
        for (int i = 0; i < mitSot; ++i) {
            const int pos = 1 + info.nSeqs + mitMot + i;
            info.mitSotTaps.push_back(mitSotTaps(tapCount(ev, "mit_sot", i, pos), ev.initRows[static_cast<size_t>(pos)]));
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
    int bestScore = 0;
    std::string firstMismatch;
    int fits = 0;
    // A bound on the layouts checked: a gradient loop with many states and no tags has
    // many tap combinations, each check walks the evidence.
    constexpr int kMaxChecks = 20000;
    int checks = 0;
    auto consider = [&](const ScanInfo& info) {
        if (++checks > kMaxChecks) return;
        std::string mismatch = checker.check(info);
        if (!mismatch.empty()) {
            if (firstMismatch.empty()) firstMismatch = describeLayout(info) + ": " + mismatch;
            return;
        }
        ++fits;
        const int score = plausibility(ev, info);
        if (!best || score > bestScore) {
            best = ScanLayout{info, tags, 0};
            bestScore = score;
        }
    };
    // Categories in outer-input order: n_steps | seqs s | multi-tap states t (the first
    // g of them mit_mots) | sit_sot u | untraced h | nit_sot | non_seqs. A mit_mot has
    // as many inner outputs as taps it writes, so the counts are checked per layout.
    for (int s = 0; s + 1 <= n; ++s) {
        if (!prefixFits(ev, s, {})) continue;
        for (int t = 0; s + t <= rowsPrefix && t <= m; ++t)
            // A name with a gradient part reads its multi-tap states as mit_mots first: they
            // lead the loop (PyTensor orders mit_mots first) and are the common case there.
            for (int gi = 0, lo = ev.forward ? 0 : t, hi = ev.gradient ? t : 0; gi <= hi - lo; ++gi) {
                const int g = hi - gi;
                // Each mit_mot reads as one of PyTensor's gradient layouts (mitMotTaps): with the
                // inner inputs linked to it, or one more (its tap-0 input unused, so not printed);
                // a two-input one may also be the gradient of a gradient ([-1, 0] / [0, -1]).
                std::vector<int> linked(static_cast<size_t>(t));
                bool single = false;
                std::vector<std::vector<std::pair<int, int>>> options(static_cast<size_t>(g));
                size_t combos = 1;
                for (int i = 0; i < t; ++i) {
                    const int c = tapCount(ev, i < g ? "mit_mot" : "mit_sot", i < g ? i : i - g, 1 + s + i);
                    linked[static_cast<size_t>(i)] = c;
                    if (i >= g) {
                        single |= c == 1;
                        continue;
                    }
                    auto& opt = options[static_cast<size_t>(i)];
                    for (int in : {std::max(c, 2), c + 1}) {
                        if (!opt.empty() && opt.front().first == in) continue;
                        opt.emplace_back(in, in - 1);
                        if (in == 2) opt.emplace_back(2, 2);
                    }
                    combos *= opt.size();
                }
                // Without tags a single-tap state reads as a sit_sot (PyTensor's usual case).
                if ((single && !tags) || combos > 4096) continue;
                for (size_t v = 0; v < combos; ++v) {
                    ScanInfo base;
                    base.nSeqs = s;
                    base.asWhile = ev.asWhile;
                    bool ok = true;
                    int stateOuts = 0;
                    size_t rest = v;
                    for (int i = 0; i < t && ok; ++i) {
                        if (i >= g) {
                            base.mitSotTaps.push_back(mitSotTaps(linked[static_cast<size_t>(i)], ev.initRows[static_cast<size_t>(1 + s + i)]));
                            ++stateOuts;
                            continue;
                        }
                        const auto& opt = options[static_cast<size_t>(i)];
                        const auto [in, out] = opt[rest % opt.size()];
                        rest /= opt.size();
                        auto taps = mitMotTaps(in, out);
                        ok = taps.has_value();
                        if (!ok) break;
                        base.mitMotInTaps.push_back(taps->first);
                        base.mitMotOutTaps.push_back(taps->second);
                        stateOuts += static_cast<int>(taps->second.size());
                    }
                    if (!ok) continue;
                    std::vector<int> ins;
                    for (const auto& taps : base.mitMotInTaps) ins.push_back(static_cast<int>(taps.size()));
                    for (const auto& taps : base.mitSotTaps) ins.push_back(static_cast<int>(taps.size()));
                    if (!prefixFits(ev, s, ins)) continue;
                    for (int u = 0; s + t + u <= rowsPrefix && stateOuts + u <= m; ++u)
                        for (int h = 0; stateOuts + u + h <= m; ++h) {
                            ScanInfo info = base;
                            info.nSitSot = u;
                            info.nUntraced = h;
                            info.nNitSot = m - stateOuts - u - h;
                            info.nNonSeqs = n - 1 - s - t - u - h - info.nNitSot;
                            if (info.nNonSeqs < 0) continue;
                            consider(info);
                        }
                }
            }
    }
    if (checks > kMaxChecks) {
        *why = "too many layouts fit its counts to try them all (print it with print_op_info=True)";
        return std::nullopt;
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
