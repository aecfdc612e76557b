#include "io/JsonFormat.h"

#include "core/StridedWalk.h"
#include "ir/SliceValue.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

namespace tl {

using nlohmann::json;

// ---------------------------------------------------------------- paths & checks

std::string jsonPath(const std::string& base, std::string_view key) {
    std::string out = base + "/";
    for (char c : key) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return out;
}

std::string jsonPath(const std::string& base, size_t index) { return base + "/" + std::to_string(index); }

std::string jsonKind(const json& j) {
    switch (j.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "an integer";
    case json::value_t::number_float: return "a number";
    default: return "an unsupported value";
    }
}

void requireObject(const json& j, const std::string& path) {
    if (!j.is_object()) throw FormatError(path, "expected an object, found " + jsonKind(j));
}

const json& requireField(const json& obj, const char* key, const std::string& path) {
    requireObject(obj, path);
    auto it = obj.find(key);
    if (it == obj.end()) throw FormatError(path, std::string("missing field \"") + key + "\"");
    return *it;
}

const json& requireArray(const json& obj, const char* key, const std::string& path) {
    const json& a = requireField(obj, key, path);
    if (!a.is_array()) throw FormatError(jsonPath(path, key), "expected an array, found " + jsonKind(a));
    return a;
}

int64_t requireInt(const json& j, const std::string& path, int64_t lo, int64_t hi) {
    int64_t v = 0;
    if (j.is_number_unsigned()) {
        uint64_t u = j.get<uint64_t>();
        if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
            throw FormatError(path, std::to_string(u) + " is out of range");
        v = static_cast<int64_t>(u);
    } else if (j.is_number_integer()) {
        v = j.get<int64_t>();
    } else {
        throw FormatError(path, "expected an integer, found " + jsonKind(j));
    }
    if (v < lo || v > hi)
        throw FormatError(path, std::to_string(v) + " is out of range [" + std::to_string(lo) + ", " +
                                    std::to_string(hi) + "]");
    return v;
}

std::string requireString(const json& j, const std::string& path) {
    if (!j.is_string()) throw FormatError(path, "expected a string, found " + jsonKind(j));
    return j.get<std::string>();
}

void checkJsonDepth(const json& root, const std::string& path) {
    // Explicit stack: the check itself must not recurse on what it guards against.
    std::vector<std::pair<const json*, int>> stack{{&root, 1}};
    while (!stack.empty()) {
        auto [j, depth] = stack.back();
        stack.pop_back();
        if (!j->is_structured()) continue;
        if (depth > kMaxJsonDepth)
            throw FormatError(path, "JSON nests deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        for (const json& child : *j) stack.push_back({&child, depth + 1});
    }
}

json parseJsonText(std::string_view text) {
    // Pre-scan the nesting depth without building anything: nlohmann parses
    // iteratively, but copying, comparing or dumping a value recurses.
    int depth = 0, line = 1, col = 0;
    bool inString = false, escape = false;
    for (char c : text) {
        ++col;
        if (c == '\n') {
            ++line;
            col = 0;
        }
        if (inString) {
            if (escape) escape = false;
            else if (c == '\\') escape = true;
            else if (c == '"') inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth)
                throw FormatError("line " + std::to_string(line) + ", column " + std::to_string(col),
                                  "JSON nests deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    try {
        return json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        // Line/column of the byte where parsing stopped.
        size_t pos = e.byte == 0 ? 0 : e.byte - 1;
        int l = 1, c = 1;
        for (size_t i = 0; i < pos && i < text.size(); ++i) {
            if (text[i] == '\n') {
                ++l;
                c = 1;
            } else {
                ++c;
            }
        }
        // nlohmann: "[json.exception.parse_error.101] parse error at line 1, column 2: <reason>"
        std::string what = e.what();
        size_t at = what.find("parse error");
        size_t colon = at == std::string::npos ? std::string::npos : what.find(": ", at);
        std::string reason = colon == std::string::npos ? what : what.substr(colon + 2);
        throw FormatError("line " + std::to_string(l) + ", column " + std::to_string(c), "malformed JSON: " + reason);
    } catch (const json::exception& e) {
        // Not a syntax error but still bad text, e.g. out_of_range.406 for a number
        // too large for a double ("1e99999"): no position, the reason says where.
        std::string what = e.what();
        size_t close = what.find("] ");
        throw FormatError("", "malformed JSON: " + (close == std::string::npos ? what : what.substr(close + 2)));
    }
}

// ---------------------------------------------------------------- types

json typeToJson(const Type& t) {
    json j = json::object();
    if (t.isSliceType() || t.isNoneType()) {
        j["kind"] = t.isSliceType() ? "slice" : "none";
        return j;
    }
    j["dtype"] = std::string(dtypeName(t.dtype));
    if (t.isScalarType()) {
        j["kind"] = "scalar";
        return j;
    }
    j["kind"] = "tensor";
    json shape = json::array();
    for (int64_t d : t.shape) {
        if (d == kUnknownDim) shape.push_back(nullptr);
        else shape.push_back(d);
    }
    j["shape"] = std::move(shape);
    return j;
}

Type typeFromJson(const json& j, const std::string& path) {
    requireObject(j, path);
    for (auto it = j.begin(); it != j.end(); ++it)
        if (it.key() != "dtype" && it.key() != "kind" && it.key() != "shape")
            throw FormatError(jsonPath(path, it.key()), "unknown field \"" + it.key() + "\"");
    if (auto k = j.find("kind"); k != j.end() && k->is_string() && (*k == "slice" || *k == "none")) {
        // PyTensor's SliceType and NoneTypeT: no dtype, no shape.
        for (const char* field : {"dtype", "shape"})
            if (j.contains(field))
                throw FormatError(jsonPath(path, field), "a " + k->get<std::string>() + " type has no " + field);
        return *k == "slice" ? Type::slice() : Type::none();
    }
    std::string dt = requireString(requireField(j, "dtype", path), jsonPath(path, "dtype"));
    auto dtype = parseDType(dt);
    if (!dtype) throw FormatError(jsonPath(path, "dtype"), "unknown dtype \"" + dt + "\"");
    std::string kind = requireString(requireField(j, "kind", path), jsonPath(path, "kind"));
    if (kind == "scalar") {
        if (j.contains("shape")) throw FormatError(jsonPath(path, "shape"), "a scalar type has no shape");
        return Type::scalar(*dtype);
    }
    if (kind != "tensor")
        throw FormatError(jsonPath(path, "kind"), "unknown type kind \"" + kind + "\" (tensor, scalar, slice or none)");
    const json& shape = requireArray(j, "shape", path);
    std::string shapePath = jsonPath(path, "shape");
    if (shape.size() > static_cast<size_t>(kMaxFileRank))
        throw FormatError(shapePath, "rank " + std::to_string(shape.size()) + " exceeds the limit " +
                                         std::to_string(kMaxFileRank));
    StaticShape s;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i].is_null()) s.push_back(kUnknownDim);
        else s.push_back(requireInt(shape[i], jsonPath(shapePath, i), 0, std::numeric_limits<int64_t>::max() / 2));
    }
    return Type::tensor(*dtype, std::move(s));
}

// ---------------------------------------------------------------- arrays

namespace {

// Visits the elements of `a` in C order with their C++ type, whatever the strides.
template <typename T, typename F> void forEachElement(const NDArray& a, F&& f) {
    const T* base = a.data<T>();
    forEachOffset(a.shape(), a.strides(), 0, [&](int64_t off) { f(base[off]); });
}

json floatToJson(double v, bool single) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    if (!single) return v;
    // float32: the shortest decimal that reads back as the same float, so files
    // say 0.1 rather than 0.10000000149011612.
    float f = static_cast<float>(v);
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, f);
    double d = 0;
    std::from_chars(buf, res.ptr, d);
    if (static_cast<float>(d) != f) d = static_cast<double>(f);
    return d;
}

double floatFromJson(const json& j, const std::string& path) {
    if (j.is_number()) return j.get<double>();
    if (j.is_string()) {
        std::string s = j.get<std::string>();
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
        if (s == "inf" || s == "+inf" || s == "infinity") return std::numeric_limits<double>::infinity();
        if (s == "-inf" || s == "-infinity") return -std::numeric_limits<double>::infinity();
    }
    throw FormatError(path, "expected a number or \"nan\"/\"inf\"/\"-inf\", found " + jsonKind(j));
}

template <typename T> T elementFromJson(const json& j, const std::string& path) {
    if constexpr (std::is_same_v<T, bool>) {
        if (j.is_boolean()) return j.get<bool>();
        if (j.is_number_integer()) return requireInt(j, path, 0, 1) != 0;
        throw FormatError(path, "expected a boolean, found " + jsonKind(j));
    } else if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(floatFromJson(j, path));
    } else if constexpr (std::is_same_v<T, uint64_t>) {
        // Beyond int64's range: read as JSON's unsigned numbers, not through int64.
        if (j.is_number_unsigned()) return j.get<uint64_t>();
        if (j.is_number_float()) {
            const double d = j.get<double>();
            if (!(d >= 0.0 && d < 18446744073709551616.0) || d != std::floor(d))
                throw FormatError(path, "expected an integer in range for the dtype, found " + j.dump());
            return static_cast<uint64_t>(d);
        }
        return static_cast<T>(requireInt(j, path, 0, std::numeric_limits<int64_t>::max()));
    } else {
        const int64_t lo = static_cast<int64_t>(std::numeric_limits<T>::min());
        const int64_t hi = static_cast<int64_t>(std::numeric_limits<T>::max());
        if (j.is_number_float()) {
            double d = j.get<double>();
            // 2^63 as a double is out of int64's range; compare before converting.
            if (!(d >= static_cast<double>(lo) && d < 9.2233720368547758e18 && d <= static_cast<double>(hi)) ||
                d != std::floor(d))
                throw FormatError(path, "expected an integer in range for the dtype, found " + j.dump());
            return static_cast<T>(d);
        }
        return static_cast<T>(requireInt(j, path, lo, hi));
    }
}

} // namespace

json arrayDataToJson(const NDArray& a) {
    json data = json::array();
    dispatchDType(a.dtype(), [&](auto tag) {
        using T = decltype(tag);
        forEachElement<T>(a, [&](T v) {
            if constexpr (std::is_same_v<T, bool>) data.push_back(v);
            else if constexpr (std::is_floating_point_v<T>) data.push_back(floatToJson(v, std::is_same_v<T, float>));
            else if constexpr (std::is_same_v<T, uint64_t>) data.push_back(v);
            else data.push_back(static_cast<int64_t>(v));
        });
    });
    return data;
}

NDArray arrayFromJsonData(DType dtype, const Shape& shape, const json& data, const std::string& path) {
    // Element count with overflow checks before anything is allocated.
    uint64_t count = 1;
    for (int64_t d : shape) {
        if (d < 0) throw FormatError(path, "negative dimension " + std::to_string(d));
        if (d != 0 && count > std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(d))
            throw FormatError(path, "shape " + shapeToString(shape) + " overflows");
        count *= static_cast<uint64_t>(d);
    }
    // Flatten nested lists iteratively, keeping each leaf's path for messages.
    std::vector<std::pair<const json*, std::string>> leaves;
    if (!data.is_array()) {
        leaves.push_back({&data, path});
    } else {
        std::vector<std::pair<const json*, std::string>> stack{{&data, path}};
        while (!stack.empty() && leaves.size() <= count) {
            auto [j, p] = stack.back();
            stack.pop_back();
            if (j->is_array()) {
                for (size_t i = j->size(); i-- > 0;) stack.push_back({&(*j)[i], jsonPath(p, i)});
            } else {
                leaves.push_back({j, p});
            }
        }
    }
    if (leaves.size() != count)
        throw FormatError(path, (leaves.size() > count ? std::string("more than ") : std::string()) +
                                    std::to_string(leaves.size()) + " values for shape " + shapeToString(shape) +
                                    " (" + std::to_string(count) + " elements)");
    NDArray a;
    try {
        a = NDArray::empty(dtype, shape);
    } catch (const AllocationError& e) {
        throw FormatError(path, e.what());
    }
    dispatchDType(dtype, [&](auto tag) {
        using T = decltype(tag);
        T* out = a.data<T>();
        for (size_t i = 0; i < leaves.size(); ++i) out[i] = elementFromJson<T>(*leaves[i].first, leaves[i].second);
    });
    return a;
}

// ---------------------------------------------------------------- constants

json sliceValueToJson(const NDArray& value) {
    json j = json::array();
    auto b = readSliceValue(value);
    if (!b) return j;
    for (const std::optional<int64_t>* p : {&b->start, &b->stop, &b->step}) j.push_back(*p ? json(**p) : json(nullptr));
    return j;
}

NDArray sliceValueFromJson(const json& j, const std::string& path) {
    if (!j.is_array() || j.size() != 3)
        throw FormatError(path, "a slice is [start, stop, step] (null where a bound is None), found " + jsonKind(j));
    SliceBounds b;
    std::optional<int64_t>* parts[3] = {&b.start, &b.stop, &b.step};
    for (size_t k = 0; k < 3; ++k)
        if (!j[k].is_null())
            *parts[k] = requireInt(j[k], jsonPath(path, k), std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
    if (b.step && *b.step == 0) throw FormatError(jsonPath(path, 2), "slice step cannot be zero");
    return sliceValue(b);
}

void constantValueToJson(const NDArray& value, const Type& type, json& entry) {
    if (type.isSliceType()) {
        entry["data"] = sliceValueToJson(value);
        return;
    }
    if (type.isNoneType()) {
        entry["data"] = nullptr;
        return;
    }
    entry["dtype"] = std::string(dtypeName(value.dtype()));
    entry["shape"] = value.shape();
    entry["data"] = arrayDataToJson(value);
}

NDArray constantValueFromJson(const json& c, const Type& type, const std::string& p) {
    if (!type.holdsNumbers()) {
        for (const char* field : {"dtype", "shape"})
            if (c.contains(field))
                throw FormatError(jsonPath(p, field), "a constant of type " + type.toString() + " has no " + field);
        const json& data = requireField(c, "data", p);
        if (type.isSliceType()) return sliceValueFromJson(data, jsonPath(p, "data"));
        if (!data.is_null()) throw FormatError(jsonPath(p, "data"), "the None constant's data is null, found " + jsonKind(data));
        return noneValue();
    }
    std::string dt = requireString(requireField(c, "dtype", p), jsonPath(p, "dtype"));
    auto dtype = parseDType(dt);
    if (!dtype) throw FormatError(jsonPath(p, "dtype"), "unknown dtype \"" + dt + "\"");
    const json& shapeJ = requireArray(c, "shape", p);
    if (shapeJ.size() > static_cast<size_t>(kMaxFileRank))
        throw FormatError(jsonPath(p, "shape"), "rank " + std::to_string(shapeJ.size()) + " exceeds the limit");
    Shape shape;
    for (size_t k = 0; k < shapeJ.size(); ++k)
        shape.push_back(requireInt(shapeJ[k], jsonPath(jsonPath(p, "shape"), k), 0, std::numeric_limits<int64_t>::max() / 4));
    return arrayFromJsonData(*dtype, shape, requireField(c, "data", p), jsonPath(p, "data"));
}

} // namespace tl
