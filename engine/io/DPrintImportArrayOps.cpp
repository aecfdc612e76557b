#include "io/DPrintImportArrayOps.h"

#include "ops/ARange.h"
#include "ops/Bartlett.h"
#include "ops/Choose.h"
#include "ops/Convolve1d.h"
#include "ops/Diagonal.h"
#include "ops/EyeTri.h"
#include "ops/FillDiagonal.h"
#include "ops/Nonzero.h"
#include "ops/PermuteRowElements.h"
#include "ops/RealFFT.h"
#include "ops/RavelMultiIndex.h"
#include "ops/Repeat.h"
#include "ops/Searchsorted.h"
#include "ops/Sort.h"
#include "ops/Split.h"
#include "ops/Unique.h"
#include "ops/UnravelIndex.h"

#include <charconv>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace tl::dpimport {

namespace {

// "a=1, b='x', c=True, d=('p', 'q')" -> {a: "1", b: "'x'", c: "True", d: "('p', 'q')"};
// nullopt when malformed. A tuple holds no parentheses of its own.
std::optional<std::map<std::string, std::string>> props(std::string_view s) {
    std::map<std::string, std::string> out;
    while (!s.empty()) {
        const size_t eq = s.find('=');
        if (eq == std::string_view::npos) return std::nullopt;
        std::string key(s.substr(0, eq));
        s.remove_prefix(eq + 1);
        size_t end = 0;
        if (!s.empty() && s[0] == '\'') {
            end = s.find('\'', 1);
            if (end == std::string_view::npos) return std::nullopt;
            ++end;
        } else if (!s.empty() && s[0] == '(') {
            end = s.find(')', 1);
            if (end == std::string_view::npos) return std::nullopt;
            ++end;
        } else {
            end = s.find(',');
            if (end == std::string_view::npos) end = s.size();
        }
        out[key] = std::string(s.substr(0, end));
        s.remove_prefix(end);
        if (s.substr(0, 2) == ", ") s.remove_prefix(2);
        else if (!s.empty()) return std::nullopt;
    }
    return out;
}

std::optional<int64_t> intValue(const std::string& s) {
    int64_t v = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
    return v;
}

std::optional<std::string> quoted(const std::string& s) {
    if (s.size() < 2 || s.front() != '\'' || s.back() != '\'') return std::nullopt;
    return s.substr(1, s.size() - 2);
}

std::optional<bool> boolValue(const std::string& s) {
    if (s == "True") return true;
    if (s == "False") return false;
    return std::nullopt;
}

// "None" (nullopt) or a non-negative integer axis; throws for anything else.
std::optional<int> axisValue(const std::string& s) {
    if (s == "None") return std::nullopt;
    auto v = intValue(s);
    if (!v || *v < 0 || *v > 64) throw std::invalid_argument("cannot read axis=" + s);
    return static_cast<int>(*v);
}

std::string get(const std::map<std::string, std::string>& m, const char* key) {
    auto it = m.find(key);
    if (it == m.end()) throw std::invalid_argument(std::string("missing ") + key);
    return it->second;
}

template <typename T> T need(std::optional<T> v, const char* what) {
    if (!v) throw std::invalid_argument(std::string("cannot read ") + what);
    return *v;
}

// RavelMultiIndex's mode: 'raise', or a tuple of quoted modes ('clip', 'wrap').
std::optional<std::vector<std::string>> quotedList(const std::string& s) {
    if (auto one = quoted(s)) return std::vector<std::string>{*one};
    if (s.size() < 2 || s.front() != '(' || s.back() != ')') return std::nullopt;
    std::vector<std::string> out;
    std::string_view rest(s.data() + 1, s.size() - 2);
    while (!rest.empty()) {
        const size_t comma = rest.find(',');
        std::string item(rest.substr(0, comma));
        auto q = quoted(item);
        if (!q) return std::nullopt;
        out.push_back(*q);
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
        if (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
    }
    if (out.empty()) return std::nullopt;
    return out;
}

OpPtr withProps(std::string_view base, const std::map<std::string, std::string>& p) {
    if (base == "ARange" || base == "Eye" || base == "Tri") {
        auto name = need(quoted(get(p, "dtype")), "dtype");
        auto d = need(parseDType(name), "dtype");
        return base == "ARange" ? makeARange(d) : base == "Eye" ? makeEye(d) : makeTri(d);
    }
    if (base == "ExtractDiag")
        return makeExtractDiag(need(intValue(get(p, "offset")), "offset"),
                               static_cast<int>(need(intValue(get(p, "axis1")), "axis1")),
                               static_cast<int>(need(intValue(get(p, "axis2")), "axis2")), need(boolValue(get(p, "view")), "view"));
    if (base == "AllocDiag")
        return makeAllocDiag(static_cast<int>(need(intValue(get(p, "self.axis1")), "axis1")),
                             static_cast<int>(need(intValue(get(p, "self.axis2")), "axis2")),
                             need(intValue(get(p, "self.offset")), "offset"));
    if (base == "Repeat") return makeRepeat(axisValue(get(p, "axis")));
    if (base == "SortOp") return makeSort(need(quoted(get(p, "kind")), "kind"));
    if (base == "ArgSortOp") return makeArgSort(need(quoted(get(p, "kind")), "kind"));
    if (base == "SearchsortedOp") return makeSearchsorted(need(quoted(get(p, "side")), "side"));
    if (base == "Choose") return makeChoose(need(quoted(get(p, "mode")), "mode"));
    if (base == "RavelMultiIndex")
        return makeRavelMultiIndex(need(quotedList(get(p, "mode")), "mode"), need(quoted(get(p, "order")), "order"));
    if (base == "UnravelIndex") return makeUnravelIndex(need(quoted(get(p, "order")), "order"));
    if (base == "PermuteRowElements") return makePermuteRowElements(need(boolValue(get(p, "inverse")), "inverse"));
    if (base == "Unique") {
        UniqueOptions o;
        o.returnIndex = need(boolValue(get(p, "return_index")), "return_index");
        o.returnInverse = need(boolValue(get(p, "return_inverse")), "return_inverse");
        o.returnCounts = need(boolValue(get(p, "return_counts")), "return_counts");
        o.axis = axisValue(get(p, "axis"));
        return makeUnique(o);
    }
    return nullptr;
}

} // namespace

OpPtr arrayOpFromName(std::string_view base, std::optional<std::string_view> params, std::string* why) {
    if (!params) {
        if (base == "FillDiagonal") return makeFillDiagonal();
        if (base == "FillDiagonalOffset") return makeFillDiagonalOffset();
        if (base == "Bartlett") return makeBartlett();
        if (base == "Nonzero") return makeNonzero();
        if (base == "Convolve1d") return makeConvolve1d();
        if (base == "RFFTOp") return makeRFFT();
        if (base == "IRFFTOp") return makeIRFFT();
        return nullptr;
    }
    if (base == "Split") {
        int64_t n = 0;
        auto r = std::from_chars(params->data(), params->data() + params->size(), n);
        if (r.ec != std::errc() || r.ptr != params->data() + params->size() || n < 1 || n > 1000000) return nullptr;
        return makeSplit(static_cast<int>(n));
    }
    if (base == "Pad") {
        *why = "Pad's printed name does not say its mode (constant, edge, wrap, ...); load the graph from JSON instead";
        return nullptr;
    }
    static const char* kWithProps[] = {"ARange", "Eye", "Tri", "ExtractDiag", "AllocDiag", "Repeat", "SortOp",
                                       "ArgSortOp", "SearchsortedOp", "Choose", "PermuteRowElements", "Unique",
                                       "RavelMultiIndex", "UnravelIndex"};
    bool known = false;
    for (const char* k : kWithProps) known = known || base == k;
    if (!known) return nullptr;
    auto p = props(*params);
    if (!p) throw std::invalid_argument("cannot read the parameters {" + std::string(*params) + "}");
    return withProps(base, *p);
}

} // namespace tl::dpimport
