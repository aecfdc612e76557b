#include "ops/ScanInfo.h"

#include <algorithm>

namespace tl {

const char* scanCategoryName(ScanCategory c) {
    switch (c) {
    case ScanCategory::Sequence: return "seqs";
    case ScanCategory::MitMot: return "mit_mot";
    case ScanCategory::MitSot: return "mit_sot";
    case ScanCategory::SitSot: return "sit_sot";
    case ScanCategory::NitSot: return "nit_sot";
    case ScanCategory::Untraced: return "shared";
    case ScanCategory::NonSequence: return "non_seqs";
    }
    return "?";
}

int ScanInfo::innerInMitSot() const {
    int n = innerInMitMot();
    for (auto& t : mitMotInTaps) n += static_cast<int>(t.size());
    return n;
}

int ScanInfo::innerInSitSot() const {
    int n = innerInMitSot();
    for (auto& t : mitSotTaps) n += static_cast<int>(t.size());
    return n;
}

int ScanInfo::innerOutMitSot() const {
    int n = 0;
    for (auto& t : mitMotOutTaps) n += static_cast<int>(t.size());
    return n;
}

int ScanInfo::innerInTap(int s, int k) const {
    if (s < nMitMot()) {
        int n = innerInMitMot();
        for (int m = 0; m < s; ++m) n += static_cast<int>(mitMotInTaps[m].size());
        return n + k;
    }
    s -= nMitMot();
    if (s < nMitSot()) {
        int n = innerInMitSot();
        for (int m = 0; m < s; ++m) n += static_cast<int>(mitSotTaps[m].size());
        return n + k;
    }
    return innerInSitSot() + (s - nMitSot()) + k;
}

int ScanInfo::innerOutState(int s) const {
    if (s < nMitMot()) {
        int n = 0;
        for (int m = 0; m < s; ++m) n += static_cast<int>(mitMotOutTaps[m].size());
        return n;
    }
    return innerOutMitSot() + (s - nMitMot());
}

std::vector<int> ScanInfo::stateTaps(int s) const {
    if (s < nMitMot()) return mitMotInTaps[s];
    s -= nMitMot();
    if (s < nMitSot()) return mitSotTaps[s];
    return {-1};
}

int ScanInfo::initRows(int s) const {
    std::vector<int> taps = stateTaps(s);
    int lowest = taps.empty() ? 0 : *std::min_element(taps.begin(), taps.end());
    return lowest < 0 ? -lowest : 0;
}

int ScanInfo::oldestTapIndex(int s) const {
    std::vector<int> taps = stateTaps(s);
    return taps.empty() ? 0 : static_cast<int>(std::min_element(taps.begin(), taps.end()) - taps.begin());
}

ScanCategory ScanInfo::stateCategory(int s) const {
    if (s < nMitMot()) return ScanCategory::MitMot;
    if (s < nMitMot() + nMitSot()) return ScanCategory::MitSot;
    return ScanCategory::SitSot;
}

int ScanInfo::indexInCategory(int s) const {
    if (s < nMitMot()) return s;
    if (s < nMitMot() + nMitSot()) return s - nMitMot();
    return s - nMitMot() - nMitSot();
}

std::vector<std::string> ScanInfo::validate() const {
    std::vector<std::string> problems;
    if (nSeqs < 0 || nSitSot < 0 || nNitSot < 0 || nUntraced < 0 || nNonSeqs < 0)
        problems.push_back("negative state count");
    if (mitMotInTaps.size() != mitMotOutTaps.size()) problems.push_back("mit_mot input and output tap lists differ in number");
    for (size_t i = 0; i < mitSotTaps.size(); ++i) {
        const auto& t = mitSotTaps[i];
        if (t.empty()) problems.push_back("mit_sot-" + std::to_string(i) + " has no taps");
        // PyTensor keeps a mit_sot's taps in the order scan() was given them (taps=[-1, -2]
        // reads row t-1 through the first inner input); they only have to be distinct.
        std::vector<int> sorted = t;
        std::sort(sorted.begin(), sorted.end());
        if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
            problems.push_back("mit_sot-" + std::to_string(i) + " has a tap twice");
        for (int tap : t)
            if (tap >= 0) problems.push_back("mit_sot-" + std::to_string(i) + " has a non-negative tap " + std::to_string(tap));
    }
    return problems;
}

} // namespace tl
