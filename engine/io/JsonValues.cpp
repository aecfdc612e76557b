#include "io/JsonValues.h"

#include "io/JsonFormat.h"
#include "ir/SliceValue.h"

#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

namespace tl {

using nlohmann::json;

namespace {
double scalarFromJson(const json& j, const std::string& path) {
    if (j.is_boolean()) return j.get<bool>() ? 1.0 : 0.0;
    if (j.is_number()) return j.get<double>();
    if (j.is_string()) {
        const std::string s = j.get<std::string>();
        if (s == "nan") return std::nan("");
        if (s == "inf") return INFINITY;
        if (s == "-inf") return -INFINITY;
    }
    throw ValueError(path + ": expected a number, got " + std::string(j.type_name()));
}

// Walks nested lists without recursion, recording the shape and the values in C order.
void flatten(const json& j, const std::string& path, Shape& shape, std::vector<double>& values) {
    shape.clear();
    const json* probe = &j;
    while (probe->is_array()) {
        shape.push_back(static_cast<int64_t>(probe->size()));
        if (probe->empty()) break;
        probe = &(*probe)[0];
    }
    struct Frame {
        const json* node;
        size_t depth;
        size_t next;
        std::string path;
    };
    std::vector<Frame> stack{{&j, 0, 0, path}};
    while (!stack.empty()) {
        Frame& f = stack.back();
        if (f.depth == shape.size()) {
            values.push_back(scalarFromJson(*f.node, f.path));
            stack.pop_back();
            continue;
        }
        if (!f.node->is_array() || static_cast<int64_t>(f.node->size()) != shape[f.depth])
            throw ValueError(f.path + ": ragged nested list (expected " + std::to_string(shape[f.depth]) + " entries)");
        if (f.next == f.node->size()) {
            stack.pop_back();
            continue;
        }
        size_t i = f.next++;
        stack.push_back({&(*f.node)[i], f.depth + 1, 0, f.path + "/" + std::to_string(i)});
    }
}

json nest(const NDArray& a) {
    // Builds the nested list iteratively from the innermost dimension outwards, from
    // the elements as their own dtype writes them (an int64 beyond 2^53 stays exact).
    json flat = arrayDataToJson(a);
    std::vector<json> level(std::make_move_iterator(flat.begin()), std::make_move_iterator(flat.end()));
    if (a.ndim() == 0) return level.empty() ? json() : level[0];
    for (int axis = a.ndim() - 1; axis >= 0; --axis) {
        const int64_t d = a.dim(axis);
        std::vector<json> up;
        if (d == 0) {
            int64_t groups = 1;
            for (int k = 0; k < axis; ++k) groups *= a.dim(k);
            up.assign(static_cast<size_t>(groups), json::array());
        } else {
            for (size_t i = 0; i < level.size(); i += static_cast<size_t>(d))
                up.push_back(json(std::vector<json>(level.begin() + i, level.begin() + i + d)));
        }
        level = std::move(up);
    }
    return level.empty() ? json::array() : level[0];
}
} // namespace

json arrayToJson(const NDArray& a) {
    return json{{"dtype", std::string(dtypeName(a.dtype()))}, {"shape", a.shape()}, {"data", nest(a)}};
}

NDArray arrayFromJson(const json& j, const Type& expected, const std::string& path) {
    if (expected.isNoneType()) {
        if (!j.is_null()) throw ValueError(path + ": the value of a NoneTypeT input is null");
        return noneValue();
    }
    if (expected.isSliceType()) {
        try {
            return sliceValueFromJson(j.is_object() && j.contains("data") ? j["data"] : j, path);
        } catch (const FormatError& e) {
            throw ValueError(e.what());
        }
    }
    DType dtype = expected.dtype;
    const json* data = &j;
    std::optional<Shape> declared;
    if (j.is_object()) {
        if (!j.contains("data")) throw ValueError(path + ": missing \"data\"");
        if (j.contains("dtype")) {
            if (!j["dtype"].is_string()) throw ValueError(path + "/dtype: expected a string");
            auto d = parseDType(j["dtype"].get<std::string>());
            if (!d) throw ValueError(path + "/dtype: unknown dtype '" + j["dtype"].get<std::string>() + "'");
            dtype = *d;
        }
        if (j.contains("shape")) {
            if (!j["shape"].is_array()) throw ValueError(path + "/shape: expected a list of dims");
            Shape s;
            for (size_t i = 0; i < j["shape"].size(); ++i) {
                const json& d = j["shape"][i];
                if (!d.is_number_integer() || d.get<int64_t>() < 0)
                    throw ValueError(path + "/shape/" + std::to_string(i) + ": expected a dim >= 0");
                s.push_back(d.get<int64_t>());
            }
            declared = s;
        }
        data = &j["data"];
    }
    Shape shape;
    std::vector<double> values;
    flatten(*data, declared ? path + "/data" : path, shape, values);
    if (declared) {
        int64_t count = 1;
        for (int64_t d : *declared) {
            if (d != 0 && count > (int64_t(1) << 40) / d) throw ValueError(path + "/shape: absurdly large");
            count *= d;
        }
        if (static_cast<int64_t>(values.size()) != count)
            throw ValueError(path + "/data: " + std::to_string(values.size()) + " values for shape " +
                             shapeToString(*declared));
        shape = *declared;
    }
    if (dtype != expected.dtype)
        throw ValueError(path + ": dtype " + std::string(dtypeName(dtype)) + " where " + expected.toString() +
                         " is expected");
    if (!expected.isScalarType()) {
        if (static_cast<int>(shape.size()) != expected.ndim())
            throw ValueError(path + ": " + std::to_string(shape.size()) + " dims where " + expected.toString() +
                             " is expected");
        for (int i = 0; i < expected.ndim(); ++i)
            if (expected.shape[i] != kUnknownDim && expected.shape[i] != shape[i])
                throw ValueError(path + ": shape " + shapeToString(shape) + " where " + expected.toString() +
                                 " is expected");
    } else if (!shape.empty()) {
        throw ValueError(path + ": a list where a scalar " + expected.toString() + " is expected");
    }
    // The elements again, read as the dtype's own values: an int64 beyond 2^53 would
    // not survive the doubles above, and an integer input given 2.5 is an error.
    try {
        return arrayFromJsonData(dtype, shape, *data, declared ? path + "/data" : path);
    } catch (const FormatError& e) {
        throw ValueError(e.what());
    }
}

std::unordered_map<std::string, Type> valueTypes(const json& j, const std::string& where) {
    if (!j.is_object()) throw ValueError(where + ": expected an object mapping input names to values");
    std::unordered_map<std::string, Type> types;
    for (const auto& [name, v] : j.items()) {
        const auto dtype = v.is_object() && v.contains("dtype") && v["dtype"].is_string() ? parseDType(v["dtype"].get<std::string>())
                                                                                         : std::nullopt;
        if (!dtype || !v.contains("shape") || !v["shape"].is_array())
            throw ValueError(where + ": /" + name + R"(: expected {"dtype", "shape", "data"})");
        types.emplace(name, Type::tensor(*dtype, StaticShape(v["shape"].size(), kUnknownDim)));
    }
    return types;
}

std::vector<NDArray> inputsFromJson(const json& j, const Graph& g, const std::string& where) {
    if (!j.is_object()) throw ValueError(where + ": expected an object mapping input names to values");
    std::vector<NDArray> out;
    for (size_t i = 0; i < g.inputs().size(); ++i) {
        const Variable* in = g.inputs()[i];
        const std::string name = in->name().empty() ? "input" + std::to_string(i) : in->name();
        if (!j.contains(name)) {
            // A shared variable's value, unless the file gives another.
            if (!in->sharedValue().valid()) throw ValueError(where + ": no value for input '" + name + "'");
            out.push_back(in->sharedValue());
            continue;
        }
        out.push_back(arrayFromJson(j[name], in->type(), where + ": /" + name));
    }
    for (auto it = j.begin(); it != j.end(); ++it) {
        bool known = false;
        for (const Variable* in : g.inputs()) known = known || in->name() == it.key();
        if (!known) throw ValueError(where + ": /" + it.key() + ": the graph has no input of that name");
    }
    return out;
}

json readJsonFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw ValueError(path + ": cannot open the file");
    std::stringstream ss;
    ss << f.rdbuf();
    try {
        return json::parse(ss.str());
    } catch (const json::parse_error& e) {
        // nlohmann reports a byte offset; turn it into line:column.
        const std::string text = ss.str();
        size_t line = 1, col = 1;
        for (size_t i = 0; i < e.byte && i < text.size(); ++i) {
            if (text[i] == '\n') {
                ++line;
                col = 1;
            } else {
                ++col;
            }
        }
        throw ValueError(path + ":" + std::to_string(line) + ":" + std::to_string(col) + ": invalid JSON (" +
                         e.what() + ")");
    }
}

std::vector<NDArray> randomInputs(const Graph& g, uint64_t seed, int64_t unknownDim) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> real(-1.0, 1.0);
    std::uniform_int_distribution<int> small(0, 5);
    std::vector<NDArray> out;
    for (const Variable* in : g.inputs()) {
        if (in->sharedValue().valid()) {  // a shared variable's own value, not a random one
            out.push_back(in->sharedValue());
            continue;
        }
        if (!in->type().holdsNumbers()) {
            out.push_back(in->type().isSliceType() ? sliceValue({}) : noneValue());  // slice(None) / None
            continue;
        }
        Shape shape;
        for (int64_t d : in->type().shape) shape.push_back(d == kUnknownDim ? unknownDim : d);
        NDArray a = NDArray::empty(in->type().dtype, shape);
        for (int64_t i = 0; i < a.size(); ++i) {
            double v = isFloat(a.dtype()) ? real(rng) : a.dtype() == DType::Bool ? small(rng) % 2 : small(rng);
            // C-contiguous fresh array: flat index i is element i.
            dispatchDType(a.dtype(), [&](auto t) { a.data<decltype(t)>()[i] = static_cast<decltype(t)>(v); });
        }
        out.push_back(std::move(a));
    }
    return out;
}

} // namespace tl
