#include "io/NumpyFormat.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <vector>

namespace tl {

namespace {

// ---------------------------------------------------------------- decimal digits

// A finite value as decimal digits: value = sign * d0.d1d2... * 10^exp10.
struct Decimal {
    bool negative = false;
    std::string digits;  // no trailing zeros (except "0" for zero)
    int exp10 = 0;
};

Decimal parseScientific(const char* first, const char* last) {
    Decimal d;
    const char* p = first;
    if (p < last && *p == '-') {
        d.negative = true;
        ++p;
    }
    for (; p < last && *p != 'e'; ++p)
        if (*p != '.') d.digits += *p;
    if (p < last && *p == 'e') std::from_chars(p + 1 + (p[1] == '+' ? 1 : 0), last, d.exp10);
    while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
    return d;
}

// Shortest digits that read back as the same value of T (Dragon4 "unique").
template <typename T> Decimal shortest(T v) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    return parseScientific(buf, r.ptr);
}

// Unique digits, but at most `fracDigits` after the point in positional form,
// rounded from the exact value (NumPy's precision cut-off).
template <typename T> Decimal positionalCapped(T v, int fracDigits) {
    Decimal s = shortest(v);
    int have = static_cast<int>(s.digits.size()) - 1 - s.exp10;  // fraction digits of the shortest form
    if (have <= fracDigits || s.digits == "0") return s;
    char buf[512];
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, fracDigits);
    // Re-express the fixed text as scientific digits.
    std::string txt(buf, r.ptr);
    Decimal d;
    size_t i = 0;
    if (txt[0] == '-') {
        d.negative = true;
        i = 1;
    }
    std::string intPart, frac;
    size_t dot = txt.find('.');
    intPart = txt.substr(i, dot == std::string::npos ? std::string::npos : dot - i);
    if (dot != std::string::npos) frac = txt.substr(dot + 1);
    std::string all = intPart + frac;
    size_t firstNz = all.find_first_not_of('0');
    if (firstNz == std::string::npos) {
        d.digits = "0";
        d.exp10 = 0;
        return d;
    }
    d.digits = all.substr(firstNz);
    d.exp10 = static_cast<int>(intPart.size()) - 1 - static_cast<int>(firstNz);
    while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
    return d;
}

// Unique digits, at most `fracDigits` after the point of the mantissa.
template <typename T> Decimal scientificCapped(T v, int fracDigits) {
    Decimal s = shortest(v);
    if (static_cast<int>(s.digits.size()) - 1 <= fracDigits) return s;
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, fracDigits);
    return parseScientific(buf, r.ptr);
}

enum class Trim { KeepPoint, LeaveOneZero, DropPoint };  // NumPy's trim='.', '0', '-'

struct Parts {
    std::string intPart;  // with sign
    std::string frac;     // without the point
    bool point = true;
};

Parts positionalParts(const Decimal& d, size_t minFrac, Trim trim) {
    Parts p;
    if (d.exp10 >= 0) {
        size_t intLen = static_cast<size_t>(d.exp10) + 1;
        std::string ds = d.digits;
        if (ds.size() < intLen) ds.append(intLen - ds.size(), '0');
        p.intPart = ds.substr(0, intLen);
        p.frac = ds.substr(intLen);
    } else {
        p.intPart = "0";
        p.frac = std::string(static_cast<size_t>(-d.exp10 - 1), '0') + d.digits;
        if (d.digits == "0") p.frac.clear();
    }
    if (d.negative) p.intPart = "-" + p.intPart;
    if (p.frac.size() < minFrac) p.frac.append(minFrac - p.frac.size(), '0');
    if (p.frac.empty()) {
        if (trim == Trim::LeaveOneZero) p.frac = "0";
        if (trim == Trim::DropPoint) p.point = false;
    }
    return p;
}

std::string exponentText(int e, int minDigits) {
    std::string digits = std::to_string(e < 0 ? -e : e);
    if (static_cast<int>(digits.size()) < minDigits) digits.insert(0, static_cast<size_t>(minDigits) - digits.size(), '0');
    return std::string(e < 0 ? "e-" : "e+") + digits;
}

struct SciParts {
    std::string intPart, frac, exp;
    bool point = true;
};

SciParts scientificParts(const Decimal& d, size_t minFrac, Trim trim, int expDigits) {
    SciParts p;
    p.intPart = (d.negative ? "-" : "") + d.digits.substr(0, 1);
    p.frac = d.digits.size() > 1 ? d.digits.substr(1) : std::string();
    if (p.frac.size() < minFrac) p.frac.append(minFrac - p.frac.size(), '0');
    if (p.frac.empty()) {
        if (trim == Trim::LeaveOneZero) p.frac = "0";
        if (trim == Trim::DropPoint) p.point = false;
    }
    p.exp = exponentText(d.digits == "0" ? 0 : d.exp10, std::max(expDigits, 2));
    return p;
}

template <typename T> std::string floatScalarStr(T v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    Decimal d = shortest(v);
    T a = v < 0 ? -v : v;
    // NumPy's scalar str: positional between 1e-4 and 1e16 (and for zero), else scientific.
    if (a == 0 || (static_cast<double>(a) >= 1e-4 && static_cast<double>(a) < 1e16)) {
        Parts p = positionalParts(d, 0, Trim::LeaveOneZero);
        return p.intPart + "." + p.frac;
    }
    SciParts s = scientificParts(d, 0, Trim::DropPoint, 2);
    return s.intPart + (s.point ? "." + s.frac : std::string()) + s.exp;
}

template <typename T> std::string scalarStrT(T v) {
    if constexpr (std::is_same_v<T, bool>) return v ? "True" : "False";
    else if constexpr (std::is_floating_point_v<T>) return floatScalarStr(v);
    else return std::to_string(+v);  // + promotes 8-bit types; uint64 stays unsigned
}

// ---------------------------------------------------------------- element formatters

constexpr int kPrecision = 8;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr size_t kLineWidth = 75;

// NumPy's FloatingFormat (floatmode 'maxprec', sign '-'): one layout for all elements.
template <typename T> class FloatFormatter {
public:
    explicit FloatFormatter(const std::vector<T>& values) {
        std::vector<T> finite;
        bool anyNonFinite = false, anyNegInf = false;
        for (T v : values) {
            if (std::isfinite(v)) finite.push_back(v);
            else {
                anyNonFinite = true;
                if (std::isinf(v) && v < 0) anyNegInf = true;
            }
        }
        T maxV = 0, minV = 0;
        bool haveNonZero = false;
        for (T v : finite) {
            T a = v < 0 ? -v : v;
            if (a == 0) continue;
            if (!haveNonZero) maxV = minV = a;
            maxV = std::max(maxV, a);
            minV = std::min(minV, a);
            haveNonZero = true;
        }
        if (haveNonZero)
            // Thresholds compare in double, the ratio is computed in T: as NumPy does.
            m_exp = static_cast<double>(maxV) >= 1e8 || static_cast<double>(minV) < 0.0001 ||
                    static_cast<double>(static_cast<T>(maxV / minV)) > 1000.0;
        if (finite.empty()) {
            m_padLeft = m_padRight = 0;
        } else if (m_exp) {
            size_t expLen = 0;
            for (T v : finite) {
                SciParts s = scientificParts(scientificCapped(v, kPrecision), 0, Trim::KeepPoint, 2);
                m_padLeft = std::max(m_padLeft, s.intPart.size());
                m_precision = std::max(m_precision, s.frac.size());
                expLen = std::max(expLen, s.exp.size() - 1);  // without the 'e'
            }
            m_expDigits = static_cast<int>(expLen) - 1;
            m_padRight = static_cast<size_t>(m_expDigits) + 2 + m_precision;
        } else {
            for (T v : finite) {
                Parts p = positionalParts(positionalCapped(v, kPrecision), 0, Trim::KeepPoint);
                m_padLeft = std::max(m_padLeft, p.intPart.size());
                m_padRight = std::max(m_padRight, p.frac.size());
            }
        }
        if (anyNonFinite) {
            size_t offset = m_padRight + 1;
            size_t infLen = 3 + (anyNegInf ? 1 : 0);
            if (3 > offset) m_padLeft = std::max(m_padLeft, 3 - offset);
            if (infLen > offset) m_padLeft = std::max(m_padLeft, infLen - offset);
        }
    }

    std::string operator()(T v) const {
        if (!std::isfinite(v)) {
            std::string r = std::isnan(v) ? "nan" : (v < 0 ? "-inf" : "inf");
            size_t width = m_padLeft + m_padRight + 1;
            return std::string(width > r.size() ? width - r.size() : 0, ' ') + r;
        }
        std::string out;
        if (m_exp) {
            // min_digits == precision: NumPy prints further real digits of the value
            // (rounded), not zeros, when the shortest form is shorter.
            char buf[64];
            auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, static_cast<int>(m_precision));
            SciParts s = scientificParts(parseScientific(buf, r.ptr), m_precision, Trim::KeepPoint, m_expDigits);
            out = padLeft(s.intPart) + "." + s.frac + s.exp;
        } else {
            Parts p = positionalParts(positionalCapped(v, kPrecision), 0, Trim::KeepPoint);
            std::string frac = p.frac;
            if (frac.size() < m_padRight) frac.append(m_padRight - frac.size(), ' ');
            out = padLeft(p.intPart) + "." + frac;
        }
        return out;
    }

private:
    std::string padLeft(const std::string& s) const {
        return std::string(m_padLeft > s.size() ? m_padLeft - s.size() : 0, ' ') + s;
    }
    bool m_exp = false;
    size_t m_padLeft = 0, m_padRight = 0, m_precision = 0;
    int m_expDigits = 2;
};

// ---------------------------------------------------------------- layout (NumPy's _formatArray)

struct Layout {
    const std::vector<std::string>& words;  // formatted elements of the shown sub-array, C order
    const Shape& shownShape;                // shape of the shown sub-array
    const std::vector<bool>& summarised;    // per axis: "..." between the edge items

    // Recursion depth is the array's rank (bounded by the file formats), not graph depth.
    std::string format(int axis, size_t offset, const std::string& hanging, size_t width) const {
        const int nd = static_cast<int>(shownShape.size());
        const int axesLeft = nd - axis;
        const std::string nextHanging = hanging + " ";
        const size_t nextWidth = width - 1;
        const int64_t n = shownShape[static_cast<size_t>(axis)];
        size_t stride = 1;
        for (int k = axis + 1; k < nd; ++k) stride *= static_cast<size_t>(shownShape[static_cast<size_t>(k)]);
        const bool summary = summarised[static_cast<size_t>(axis)];
        const int64_t leading = summary ? kEdgeItems : 0;
        auto child = [&](int64_t i) -> std::string {
            if (axesLeft == 1) return words[offset + static_cast<size_t>(i)];
            return format(axis + 1, offset + static_cast<size_t>(i) * stride, nextHanging, nextWidth);
        };
        std::string s;
        if (axesLeft == 1) {
            const size_t elemWidth = width - 1;
            std::string line = hanging;
            auto extend = [&](const std::string& word, size_t lineWidth) {
                bool wrap = line.size() + word.size() > lineWidth && line.size() > hanging.size();
                if (wrap) {
                    size_t end = line.find_last_not_of(' ');
                    s += (end == std::string::npos ? std::string() : line.substr(0, end + 1)) + "\n";
                    line = hanging;
                }
                line += word;
            };
            for (int64_t i = 0; i < leading; ++i) {
                extend(child(i), elemWidth);
                line += " ";
            }
            if (summary) {
                extend("...", elemWidth);
                line += " ";
            }
            for (int64_t i = (summary ? leading : 0); i < n - 1; ++i) {
                extend(child(i), elemWidth);
                line += " ";
            }
            extend(child(n - 1), elemWidth);
            s += line;
        } else {
            const std::string lineSep(static_cast<size_t>(axesLeft - 1), '\n');
            for (int64_t i = 0; i < leading; ++i) s += hanging + child(i) + lineSep;
            if (summary) s += hanging + "..." + lineSep;
            for (int64_t i = (summary ? leading : 0); i < n - 1; ++i) s += hanging + child(i) + lineSep;
            s += hanging + child(n - 1);
        }
        return "[" + s.substr(hanging.size()) + "]";
    }
};

// Typed values of a possibly strided array in C order, restricted per axis to
// the shown indices (all, or the first and last kEdgeItems when summarising).
template <typename T>
std::vector<T> shownValues(const NDArray& a, const std::vector<std::vector<int64_t>>& shown) {
    const int nd = a.ndim();
    std::vector<T> out;
    size_t total = 1;
    for (auto& s : shown) total *= s.size();
    out.reserve(total);
    if (total == 0) return out;
    std::vector<size_t> k(static_cast<size_t>(nd), 0);
    const T* base = a.data<T>();
    for (size_t n = 0; n < total; ++n) {
        int64_t off = 0;
        for (int ax = 0; ax < nd; ++ax) off += shown[ax][k[ax]] * a.strides()[ax];
        out.push_back(base[off]);
        for (int ax = nd - 1; ax >= 0; --ax) {
            if (++k[ax] < shown[ax].size()) break;
            k[ax] = 0;
        }
    }
    return out;
}

} // namespace

std::string numpyScalarStr(double v, DType d) {
    return dispatchDType(d, [&](auto tag) { return scalarStrT(static_cast<decltype(tag)>(v)); });
}

std::string numpyArrayStr(const NDArray& a) {
    if (!a.valid()) return "None";
    if (a.ndim() == 0) {
        return dispatchDType(a.dtype(), [&](auto tag) {
            using T = decltype(tag);
            return scalarStrT(*a.data<T>());
        });
    }
    if (a.size() == 0) return "[]";
    const bool summarise = a.size() > kThreshold;
    std::vector<std::vector<int64_t>> shown(static_cast<size_t>(a.ndim()));
    std::vector<bool> summarised(static_cast<size_t>(a.ndim()), false);
    Shape shownShape;
    for (int ax = 0; ax < a.ndim(); ++ax) {
        int64_t n = a.dim(ax);
        if (summarise && n > 2 * kEdgeItems) {
            summarised[ax] = true;
            for (int64_t i = 0; i < kEdgeItems; ++i) shown[ax].push_back(i);
            for (int64_t i = n - kEdgeItems; i < n; ++i) shown[ax].push_back(i);
        } else {
            for (int64_t i = 0; i < n; ++i) shown[ax].push_back(i);
        }
        shownShape.push_back(static_cast<int64_t>(shown[ax].size()));
    }
    std::vector<std::string> words = dispatchDType(a.dtype(), [&](auto tag) {
        using T = decltype(tag);
        std::vector<T> vals = shownValues<T>(a, shown);
        std::vector<std::string> w;
        w.reserve(vals.size());
        if constexpr (std::is_same_v<T, bool>) {
            for (T v : vals) w.push_back(v ? " True" : "False");
        } else if constexpr (std::is_floating_point_v<T>) {
            FloatFormatter<T> f(vals);
            for (T v : vals) w.push_back(f(v));
        } else {
            size_t width = 0;
            for (T v : vals) width = std::max(width, scalarStrT(v).size());
            for (T v : vals) {
                std::string s = scalarStrT(v);
                w.push_back(std::string(width - s.size(), ' ') + s);
            }
        }
        return w;
    });
    Layout layout{words, shownShape, summarised};
    return layout.format(0, 0, " ", kLineWidth);
}

std::string constantStr(const NDArray& a, const std::string& name) {
    std::string text = numpyArrayStr(a);
    text.erase(std::remove(text.begin(), text.end(), '\n'), text.end());
    if (text.size() > 20) {
        auto strip = [](std::string s) {
            size_t b = s.find_first_not_of(" \t");
            size_t e = s.find_last_not_of(" \t");
            return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
        };
        text = strip(text.substr(0, 10)) + " ... " + strip(text.substr(text.size() - 10));
    }
    if (name.empty()) return text;
    return name + "{" + text + "}";
}

} // namespace tl
