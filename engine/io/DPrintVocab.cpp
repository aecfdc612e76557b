#include "io/DPrintVocab.h"

#include <algorithm>
#include <limits>

namespace tl::debugprint {

std::string idLetters(int64_t n) {
    if (n <= 0) return "A";
    std::string out;
    while (n > 0) {
        out += static_cast<char>('A' + n % 26);
        n /= 26;
    }
    std::reverse(out.begin(), out.end());
    return out;
}

std::optional<int64_t> parseIdLetters(std::string_view s) {
    if (s.empty()) return std::nullopt;
    int64_t n = 0;
    for (char c : s) {
        if (c < 'A' || c > 'Z') return std::nullopt;
        if (n > (std::numeric_limits<int64_t>::max() - 25) / 26) return std::nullopt;
        n = n * 26 + (c - 'A');
    }
    // PyTensor never writes a leading 'A' except for zero itself ("A", then "BA" for 26).
    if (s.size() > 1 && s[0] == 'A') return std::nullopt;
    return n;
}

std::string idText(int64_t n) { return "[id " + idLetters(n) + "]"; }

std::string aliasMapText(const AliasMap& m) {
    std::string out = "{";
    bool first = true;
    for (const auto& [o, ins] : m) {
        if (!first) out += ", ";
        first = false;
        out += std::to_string(o) + ": [";
        for (size_t i = 0; i < ins.size(); ++i) {
            if (i) out += ", ";
            out += std::to_string(ins[i]);
        }
        out += "]";
    }
    return out + "}";
}

ScanTags scanTags(const ScanInfo& info) {
    ScanTags t;
    auto idx = [](const char* field, int i) { return std::string(field) + "-" + std::to_string(i); };
    auto idx2 = [](const char* field, int i, int j) {
        return std::string(field) + "-" + std::to_string(i) + "-" + std::to_string(j);
    };
    // Outer inputs: n_steps | seqs | mit_mot | mit_sot | sit_sot | shared | nit_sot | non_seqs.
    t.outerInputs.push_back("n_steps");
    for (int i = 0; i < info.nSeqs; ++i) t.outerInputs.push_back(idx("outer_in_seqs", i));
    for (int i = 0; i < info.nMitMot(); ++i) t.outerInputs.push_back(idx("outer_in_mit_mot", i));
    for (int i = 0; i < info.nMitSot(); ++i) t.outerInputs.push_back(idx("outer_in_mit_sot", i));
    for (int i = 0; i < info.nSitSot; ++i) t.outerInputs.push_back(idx("outer_in_sit_sot", i));
    for (int i = 0; i < info.nUntraced; ++i) t.outerInputs.push_back(idx("outer_in_shared", i));
    for (int i = 0; i < info.nNitSot; ++i) t.outerInputs.push_back(idx("outer_in_nit_sot", i));
    for (int i = 0; i < info.nNonSeqs; ++i) t.outerInputs.push_back(idx("outer_in_non_seqs", i));
    // Outer outputs: mit_mot | mit_sot | sit_sot | nit_sot | shared.
    for (int i = 0; i < info.nMitMot(); ++i) t.outerOutputs.push_back(idx("outer_out_mit_mot", i));
    for (int i = 0; i < info.nMitSot(); ++i) t.outerOutputs.push_back(idx("outer_out_mit_sot", i));
    for (int i = 0; i < info.nSitSot; ++i) t.outerOutputs.push_back(idx("outer_out_sit_sot", i));
    for (int i = 0; i < info.nNitSot; ++i) t.outerOutputs.push_back(idx("outer_out_nit_sot", i));
    for (int i = 0; i < info.nUntraced; ++i) t.outerOutputs.push_back(idx("outer_out_shared", i));
    // Inner inputs: seqs | mit_mot taps | mit_sot taps | sit_sot | shared | non_seqs.
    for (int i = 0; i < info.nSeqs; ++i) t.innerInputs.push_back(idx("inner_in_seqs", i));
    for (int i = 0; i < info.nMitMot(); ++i)
        for (size_t j = 0; j < info.mitMotInTaps[i].size(); ++j)
            t.innerInputs.push_back(idx2("inner_in_mit_mot", i, static_cast<int>(j)));
    for (int i = 0; i < info.nMitSot(); ++i)
        for (size_t j = 0; j < info.mitSotTaps[i].size(); ++j)
            t.innerInputs.push_back(idx2("inner_in_mit_sot", i, static_cast<int>(j)));
    for (int i = 0; i < info.nSitSot; ++i) t.innerInputs.push_back(idx("inner_in_sit_sot", i));
    for (int i = 0; i < info.nUntraced; ++i) t.innerInputs.push_back(idx("inner_in_shared", i));
    for (int i = 0; i < info.nNonSeqs; ++i) t.innerInputs.push_back(idx("inner_in_non_seqs", i));
    // Inner outputs: mit_mot outs | mit_sot | sit_sot | nit_sot | shared | [cond].
    for (int i = 0; i < info.nMitMot(); ++i)
        for (size_t j = 0; j < info.mitMotOutTaps[i].size(); ++j)
            t.innerOutputs.push_back(idx2("inner_out_mit_mot", i, static_cast<int>(j)));
    for (int i = 0; i < info.nMitSot(); ++i) t.innerOutputs.push_back(idx("inner_out_mit_sot", i));
    for (int i = 0; i < info.nSitSot; ++i) t.innerOutputs.push_back(idx("inner_out_sit_sot", i));
    for (int i = 0; i < info.nNitSot; ++i) t.innerOutputs.push_back(idx("inner_out_nit_sot", i));
    for (int i = 0; i < info.nUntraced; ++i) t.innerOutputs.push_back(idx("inner_out_shared", i));
    if (info.asWhile) t.innerOutputs.push_back("");
    return t;
}

std::vector<int> scanInnerToOuterInput(const ScanInfo& info) {
    std::vector<int> map;
    for (int i = 0; i < info.nSeqs; ++i) map.push_back(info.outerInSeqs() + i);
    for (int i = 0; i < info.nMitMot(); ++i)
        for (size_t j = 0; j < info.mitMotInTaps[i].size(); ++j) map.push_back(info.outerInMitMot() + i);
    for (int i = 0; i < info.nMitSot(); ++i)
        for (size_t j = 0; j < info.mitSotTaps[i].size(); ++j) map.push_back(info.outerInMitSot() + i);
    for (int i = 0; i < info.nSitSot; ++i) map.push_back(info.outerInSitSot() + i);
    for (int i = 0; i < info.nUntraced; ++i) map.push_back(info.outerInUntraced() + i);
    for (int i = 0; i < info.nNonSeqs; ++i) map.push_back(info.outerInNonSeqs() + i);
    return map;
}

} // namespace tl::debugprint
