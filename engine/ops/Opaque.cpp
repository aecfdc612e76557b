#include "ops/Opaque.h"

#include "ir/Graph.h"
#include "ops/ArrayOpUtil.h"

#include <nlohmann/json.hpp>

namespace tl {

namespace {
// Same layout as the graph file's types (io/JsonFormat.h), kept local so ops do not depend on io/.
nlohmann::json typeJson(const Type& t) {
    if (t.isSliceType()) return {{"kind", "slice"}};
    if (t.isNoneType()) return {{"kind", "none"}};
    if (t.isScalarType()) return {{"kind", "scalar"}, {"dtype", dtypeName(t.dtype)}};
    nlohmann::json shape = nlohmann::json::array();
    for (int64_t d : t.shape) shape.push_back(d == kUnknownDim ? nlohmann::json(nullptr) : nlohmann::json(d));
    return {{"kind", "tensor"}, {"dtype", dtypeName(t.dtype)}, {"shape", shape}};
}

Type typeFrom(const nlohmann::json& j, const std::string& where) {
    if (j.is_object() && j.contains("kind") && (j["kind"] == "slice" || j["kind"] == "none"))
        return j["kind"] == "slice" ? Type::slice() : Type::none();
    if (!j.is_object() || !j.contains("dtype") || !j["dtype"].is_string())
        throw std::invalid_argument(where + " must be a type object with a \"dtype\"");
    auto dtype = parseDType(j["dtype"].get<std::string>());
    if (!dtype) throw std::invalid_argument(where + "/dtype: unknown dtype " + j["dtype"].dump());
    const std::string kind = j.value("kind", std::string("tensor"));
    if (kind == "scalar") return Type::scalar(*dtype);
    if (kind != "tensor") throw std::invalid_argument(where + "/kind must be \"tensor\" or \"scalar\"");
    if (!j.contains("shape") || !j["shape"].is_array()) throw std::invalid_argument(where + "/shape must be a list");
    StaticShape shape;
    for (size_t i = 0; i < j["shape"].size(); ++i) {
        const auto& d = j["shape"][i];
        if (d.is_null()) shape.push_back(kUnknownDim);
        else if (d.is_number_integer() && d.get<int64_t>() >= 0) shape.push_back(d.get<int64_t>());
        else throw std::invalid_argument(where + "/shape/" + std::to_string(i) + " must be null or a size >= 0");
    }
    return Type::tensor(*dtype, std::move(shape));
}

nlohmann::json aliasJson(const AliasMap& m) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [out, ins] : m) j[std::to_string(out)] = ins;
    return j;
}

AliasMap aliasFrom(const nlohmann::json& j, const std::string& where, size_t numOutputs) {
    AliasMap m;
    if (!j.is_object()) throw std::invalid_argument(where + " must be an object {\"output\": [inputs]}");
    for (const auto& [k, v] : j.items()) {
        int out = -1;
        try {
            out = std::stoi(k);
        } catch (const std::exception&) {
        }
        if (out < 0 || static_cast<size_t>(out) >= numOutputs)
            throw std::invalid_argument(where + "/" + k + ": not an output index");
        if (!v.is_array()) throw std::invalid_argument(where + "/" + k + " must be a list of input indices");
        for (const auto& i : v) {
            if (!i.is_number_integer() || i.get<int>() < 0)
                throw std::invalid_argument(where + "/" + k + " must be a list of input indices");
            m[out].push_back(i.get<int>());
        }
    }
    return m;
}
} // namespace

OpaqueOp::OpaqueOp(std::string printedName, std::vector<Type> outputTypes, AliasMap destroy, AliasMap view, bool random)
    : Op(OpKind::Opaque), m_name(std::move(printedName)), m_outputTypes(std::move(outputTypes)),
      m_destroy(std::move(destroy)), m_view(std::move(view)), m_random(random || isRandomVariableName(m_name)) {
    if (m_name.empty()) throw std::invalid_argument("Opaque op needs a printed name");
}

bool isRandomVariableName(const std::string& printedName) {
    const std::string base = printedName.substr(0, printedName.find('{'));
    return base.size() > 3 && base.compare(base.size() - 3, 3, "_rv") == 0;
}

std::string randomDrawMessage(const Node& node) {
    const std::string& full = node.op().name();
    const std::string shortName = full.substr(0, full.find('{'));
    // A RandomVariable's draw is its last output (the first is the next generator state).
    const int k = node.numOutputs() - 1;
    std::string draw = k < 0 ? std::string("its outputs") : "output " + std::to_string(k) + " (" + node.output(k)->type().toString() +
                                                                (node.output(k)->name().empty() ? "" : ", '" + node.output(k)->name() + "'") + ")";
    return shortName + "#" + std::to_string(node.id()) +
           " draws random numbers, which tensorlens does not imitate; feed its output as an input instead: make " + draw +
           " a graph input and give it the values PyTensor drew";
}

std::vector<Type> OpaqueOp::inferTypes(std::span<const Type* const>) const { return m_outputTypes; }

void OpaqueOp::perform(std::span<const NDArray>, std::span<NDArray>) const {
    throw ExecError("cannot execute opaque op " + m_name);
}

nlohmann::json OpaqueOp::params() const {
    nlohmann::json types = nlohmann::json::array();
    for (const Type& t : m_outputTypes) types.push_back(typeJson(t));
    nlohmann::json j = {{"name", m_name}, {"output_types", types}};
    if (!m_destroy.empty()) j["destroy_map"] = aliasJson(m_destroy);
    if (!m_view.empty()) j["view_map"] = aliasJson(m_view);
    if (m_random && !isRandomVariableName(m_name)) j["random"] = true;
    return j;
}

OpPtr makeOpaque(std::string printedName, std::vector<Type> outputTypes, AliasMap destroy, AliasMap view, bool random) {
    return std::make_shared<OpaqueOp>(std::move(printedName), std::move(outputTypes), std::move(destroy), std::move(view), random);
}

OpPtr makeOpOpaque(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    const auto& n = arrayop::requireParam(params, "name", "Opaque");
    if (!n.is_string()) throw std::invalid_argument("Opaque params: \"name\" must be a string");
    const auto& ts = arrayop::requireParam(params, "output_types", "Opaque");
    if (!ts.is_array()) throw std::invalid_argument("Opaque params: \"output_types\" must be a list");
    std::vector<Type> types;
    for (size_t i = 0; i < ts.size(); ++i) types.push_back(typeFrom(ts[i], "Opaque params: output_types/" + std::to_string(i)));
    AliasMap d, v;
    if (params.contains("destroy_map")) d = aliasFrom(params["destroy_map"], "Opaque params: destroy_map", types.size());
    if (params.contains("view_map")) v = aliasFrom(params["view_map"], "Opaque params: view_map", types.size());
    bool random = false;
    if (auto it = params.find("random"); it != params.end()) {
        if (!it->is_boolean()) throw std::invalid_argument("Opaque params: \"random\" must be true or false");
        random = it->get<bool>();
    }
    return makeOpaque(n.get<std::string>(), std::move(types), std::move(d), std::move(v), random);
}

} // namespace tl
