// Printed types, shape tuples, alias maps and constant literals of a debugprint
// listing: the inverse of Type::toString, Type::shapeString, aliasMapText and
// NumPy's str() (io/NumpyFormat.h) as the printer writes them.
#include "io/DPrintImportInternal.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace tl::dpimport {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

bool isIdentifier(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return !std::isdigit(static_cast<unsigned char>(s[0]));
}

std::optional<int64_t> parseNonNegative(std::string_view s) {
    if (s.empty() || s.size() > 15) return std::nullopt;
    int64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        v = v * 10 + (c - '0');
    }
    return v;
}

} // namespace

std::optional<StaticShape> parseShapeTuple(std::string_view s) {
    if (s.size() < 2 || s.front() != '(' || s.back() != ')') return std::nullopt;
    std::string_view body = s.substr(1, s.size() - 2);
    StaticShape out;
    if (trim(body).empty()) return out;
    bool trailingComma = false;
    while (!body.empty()) {
        size_t c = body.find(',');
        std::string_view item = trim(body.substr(0, c));
        if (item.empty()) {
            if (c == std::string_view::npos && !out.empty()) break;
            return std::nullopt;
        }
        if (item == "?") out.push_back(kUnknownDim);
        else if (auto v = parseNonNegative(item)) out.push_back(*v);
        else return std::nullopt;
        trailingComma = c != std::string_view::npos;
        if (c == std::string_view::npos) break;
        body = body.substr(c + 1);
        if (trim(body).empty()) break;
    }
    // Python writes one-element tuples "(7,)"; "(7)" is no tuple.
    if (out.size() == 1 && !trailingComma) return std::nullopt;
    return out;
}

std::optional<Type> parseTypeText(std::string_view s, int line, bool* unsupported) {
    *unsupported = false;
    if (auto d = parseDType(s)) return Type::scalar(*d);
    if (s == "slice") return Type::slice();      // SliceType (MakeSlice, SliceConstant)
    if (s == "NoneTypeT") return Type::none();   // NoneConst (np.newaxis among advanced indices)
    const size_t open = s.find('(');
    if (open == std::string_view::npos) {
        // A PyTensor type without a tensorlens counterpart (NoneTypeT, SliceType, ...).
        if (isIdentifier(s)) {
            *unsupported = true;
            return std::nullopt;
        }
        fail(line, "expected a type like Matrix(float64, shape=(?, 7)) or int64, got <" + std::string(s) + ">");
    }
    std::string_view base = s.substr(0, open);
    std::string_view rest = s.substr(open);
    auto bad = [&](const std::string& what) -> std::optional<Type> {
        fail(line, "wrong type string <" + std::string(s) + ">: " + what);
    };
    if (rest.size() < 2 || rest.back() != ')') return bad("expected ')' at its end");
    rest = rest.substr(1, rest.size() - 2);
    const size_t comma = rest.find(", shape=");
    if (comma == std::string_view::npos) return bad("expected '(dtype, shape=(...))'");
    auto dtype = parseDType(rest.substr(0, comma));
    if (!dtype) return bad("unknown dtype '" + std::string(rest.substr(0, comma)) + "'");
    auto shape = parseShapeTuple(rest.substr(comma + 8));
    if (!shape) return bad("expected a shape tuple like (?, 7) after shape=");
    int ndim = -1;
    if (base == "Scalar") ndim = 0;
    else if (base == "Vector") ndim = 1;
    else if (base == "Matrix") ndim = 2;
    else if (base.substr(0, 6) == "Tensor") {
        auto n = parseNonNegative(base.substr(6));
        if (n && *n >= 3 && *n <= 64) ndim = static_cast<int>(*n);
    }
    if (ndim < 0) return bad("unknown type name '" + std::string(base) + "' (Scalar, Vector, Matrix, Tensor3, ...)");
    if (static_cast<int>(shape->size()) != ndim)
        return bad(std::string(base) + " needs " + std::to_string(ndim) + " dims, the shape has " + std::to_string(shape->size()));
    return Type::tensor(*dtype, std::move(*shape));
}

std::optional<AliasMap> parseAliasMap(std::string_view s) {
    if (s.size() < 2 || s.front() != '{' || s.back() != '}') return std::nullopt;
    std::string_view body = trim(s.substr(1, s.size() - 2));
    AliasMap m;
    while (!body.empty()) {
        size_t colon = body.find(':');
        if (colon == std::string_view::npos) return std::nullopt;
        auto out = parseNonNegative(trim(body.substr(0, colon)));
        if (!out || *out > 100000) return std::nullopt;
        body = trim(body.substr(colon + 1));
        if (body.empty() || body[0] != '[') return std::nullopt;
        size_t close = body.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        std::string_view list = body.substr(1, close - 1);
        std::vector<int> ins;
        while (!trim(list).empty()) {
            size_t c = list.find(',');
            auto v = parseNonNegative(trim(list.substr(0, c)));
            if (!v || *v > 100000) return std::nullopt;
            ins.push_back(static_cast<int>(*v));
            if (c == std::string_view::npos) break;
            list = list.substr(c + 1);
        }
        if (m.count(static_cast<int>(*out))) return std::nullopt;
        m[static_cast<int>(*out)] = std::move(ins);
        body = trim(body.substr(close + 1));
        if (!body.empty()) {
            if (body[0] != ',') return std::nullopt;
            body = trim(body.substr(1));
            if (body.empty()) return std::nullopt;
        }
    }
    return m;
}

namespace {

bool isNumberWord(std::string_view w, Literal::Style* style) {
    if (w == "True" || w == "False") {
        *style = Literal::Style::Bool;
        return true;
    }
    std::string_view v = w;
    if (!v.empty() && (v[0] == '-' || v[0] == '+')) v.remove_prefix(1);
    if (v == "inf" || v == "nan") {
        *style = Literal::Style::Float;
        return true;
    }
    if (v.empty()) return false;
    bool digits = false, dot = false, exp = false;
    for (size_t i = 0; i < v.size(); ++i) {
        char c = v[i];
        if (c >= '0' && c <= '9') digits = true;
        else if (c == '.' && !dot && !exp) dot = true;
        else if ((c == 'e' || c == 'E') && digits && !exp) {
            exp = true;
            if (i + 1 < v.size() && (v[i + 1] == '-' || v[i + 1] == '+')) ++i;
            if (i + 1 >= v.size()) return false;
        } else return false;
    }
    if (!digits) return false;
    *style = dot || exp ? Literal::Style::Float : Literal::Style::Int;
    return true;
}

// "[[0. 1.] [2. 3.]]" (newlines already removed by PyTensor), NumPy's "..." summaries allowed.
bool parseArray(std::string_view s, Literal& lit) {
    std::vector<int64_t> counts;      // elements (or sub-lists) seen at each open level
    std::vector<int64_t> dims;        // dims[level] once known
    int depth = 0, maxDepth = 0, numberDepth = 0;
    bool anyFloat = false, anyBool = false;
    size_t p = 0;
    while (p < s.size()) {
        char c = s[p];
        if (c == ' ') {
            ++p;
        } else if (c == '[') {
            if (depth > 0) ++counts[static_cast<size_t>(depth - 1)];
            ++depth;
            if (depth > 32) return false;
            if (static_cast<int>(counts.size()) < depth) counts.push_back(0);
            counts[static_cast<size_t>(depth - 1)] = 0;
            maxDepth = std::max(maxDepth, depth);
            ++p;
        } else if (c == ']') {
            if (depth == 0) return false;
            auto level = static_cast<size_t>(depth - 1);
            if (dims.size() <= level) dims.resize(level + 1, -1);
            if (!lit.elided) {
                if (dims[level] == -1) dims[level] = counts[level];
                else if (dims[level] != counts[level]) return false;  // ragged
            }
            --depth;
            ++p;
            if (depth == 0 && p != s.size()) return false;
        } else {
            if (depth == 0) return false;
            size_t e = p;
            while (e < s.size() && s[e] != ' ' && s[e] != ']' && s[e] != '[') ++e;
            std::string_view w = s.substr(p, e - p);
            if (w == "...") {
                lit.elided = true;
            } else {
                Literal::Style st;
                if (!isNumberWord(w, &st)) return false;
                anyFloat |= st == Literal::Style::Float;
                anyBool |= st == Literal::Style::Bool;
                if (numberDepth == 0) numberDepth = depth;
                else if (numberDepth != depth) return false;  // a number beside a sub-list
                lit.words.emplace_back(w);
                ++counts[static_cast<size_t>(depth - 1)];
                if (st == Literal::Style::Float) {
                    const size_t dot = w.find('.'), exp = std::min(w.find_first_of("eE"), w.size());
                    lit.rounded |= dot != std::string_view::npos && exp > dot && exp - dot - 1 >= 8;
                }
            }
            p = e;
        }
    }
    if (depth != 0 || maxDepth == 0 || (numberDepth != 0 && numberDepth != maxDepth)) return false;
    lit.style = anyBool ? Literal::Style::Bool : anyFloat ? Literal::Style::Float : Literal::Style::Int;
    if (!lit.elided) {
        lit.shape.assign(dims.begin(), dims.end());
        int64_t n = 1;
        for (int64_t d : lit.shape) n *= d;
        if (n != static_cast<int64_t>(lit.words.size())) return false;
    }
    return true;
}

} // namespace

std::optional<Literal> parseLiteral(std::string_view s) {
    Literal lit;
    // PyTensor's Constant.__str__ shortens long texts to "first 10 ... last 10".
    if (s.find(" ... ") != std::string_view::npos || s.find("...") != std::string_view::npos) {
        if (!s.empty() && s.back() == '}' && s.find('{') != std::string_view::npos && s.front() != '[') {
            lit.name = std::string(s.substr(0, s.find('{')));
            s = s.substr(s.find('{') + 1, s.size() - s.find('{') - 2);
        }
        if (s.empty()) return std::nullopt;
        Literal::Style st;
        const bool array = s.front() == '[';
        const bool number = isNumberWord(s.substr(0, s.find(' ')), &st);
        if (!array && !number) return std::nullopt;
        lit.elided = true;
        lit.style = s.find('.') != std::string_view::npos || s.find("e-") != std::string_view::npos ? Literal::Style::Float
                    : s.find("True") != std::string_view::npos || s.find("False") != std::string_view::npos
                        ? Literal::Style::Bool
                        : Literal::Style::Int;
        size_t depth = 0;
        while (depth < s.size() && s[depth] == '[') ++depth;
        lit.shape.assign(depth, kUnknownDim);
        return lit;
    }
    if (!s.empty() && s.back() == '}' && s.front() != '[') {
        size_t b = s.find('{');
        if (b == std::string_view::npos || b == 0) return std::nullopt;
        auto inner = parseLiteral(s.substr(b + 1, s.size() - b - 2));
        if (!inner || !inner->name.empty()) return std::nullopt;
        inner->name = std::string(s.substr(0, b));
        return inner;
    }
    if (!s.empty() && s.front() == '[') {
        if (!parseArray(s, lit)) return std::nullopt;
        return lit;
    }
    Literal::Style st;
    if (!isNumberWord(s, &st)) return std::nullopt;
    lit.style = st;
    lit.words.emplace_back(s);
    return lit;
}

DType literalDefaultDType(const Literal& lit) {
    switch (lit.style) {
    case Literal::Style::Bool: return DType::Bool;
    case Literal::Style::Float: return DType::Float64;
    case Literal::Style::Int: return DType::Int64;
    }
    return DType::Float64;
}

DType smallestIntDType(const Literal& lit) {
    if (lit.style != Literal::Style::Int) return literalDefaultDType(lit);
    DType best = DType::Int8;
    for (const std::string& w : lit.words) {
        errno = 0;
        long long v = std::strtoll(w.c_str(), nullptr, 10);
        if (errno) return DType::Int64;
        if (v < -2147483648LL || v > 2147483647LL) return DType::Int64;
        if ((v < -32768 || v > 32767) && best != DType::Int64) best = DType::Int32;
        else if ((v < -128 || v > 127) && best == DType::Int8) best = DType::Int16;
    }
    return best;
}

NDArray literalValue(const Literal& lit, DType dtype, const StaticShape& shape) {
    if (lit.elided) throw std::invalid_argument("its values were elided ('...') in the listing");
    int64_t n = 1;
    for (int64_t d : shape) {
        if (d < 0) throw std::invalid_argument("its shape is not fully known");
        n *= d;
    }
    if (n != static_cast<int64_t>(lit.words.size()))
        throw std::invalid_argument(std::to_string(lit.words.size()) + " values printed for shape " + Type::shapeString(shape));
    NDArray a = NDArray::empty(dtype, Shape(shape.begin(), shape.end()));
    dispatchDType(dtype, [&](auto tag) {
        using T = decltype(tag);
        T* out = a.data<T>();
        for (int64_t i = 0; i < n; ++i) {
            const std::string& w = lit.words[static_cast<size_t>(i)];
            if constexpr (std::is_same_v<T, bool>) {
                if (w == "True" || w == "1") out[i] = true;
                else if (w == "False" || w == "0") out[i] = false;
                else throw std::invalid_argument("'" + w + "' is no bool");
            } else if constexpr (std::is_floating_point_v<T>) {
                if (w == "True" || w == "False") throw std::invalid_argument("'" + w + "' is no number");
                out[i] = static_cast<T>(std::strtod(w.c_str(), nullptr));
            } else {
                if (w.find_first_of(".eEn") != std::string::npos || w == "True" || w == "False")
                    throw std::invalid_argument("'" + w + "' is no integer");
                errno = 0;
                if constexpr (std::is_same_v<T, uint64_t>) {  // beyond long long's range
                    const unsigned long long u = std::strtoull(w.c_str(), nullptr, 10);
                    if (errno || w.find('-') != std::string::npos)
                        throw std::invalid_argument("'" + w + "' does not fit " + std::string(dtypeName(dtype)));
                    out[i] = u;
                    continue;
                }
                long long v = std::strtoll(w.c_str(), nullptr, 10);
                if (errno || v < static_cast<long long>(std::numeric_limits<T>::min()) ||
                    v > static_cast<long long>(std::numeric_limits<T>::max()))
                    throw std::invalid_argument("'" + w + "' does not fit " + std::string(dtypeName(dtype)));
                out[i] = static_cast<T>(v);
            }
        }
    });
    return a;
}

} // namespace tl::dpimport
