#include "ops/OpFromGraph.h"

#include "ir/Graph.h"
#include "ops/ArrayOpUtil.h"

#include <nlohmann/json.hpp>

namespace tl {

namespace {
// PyTensor's filter_variable: same kind, dtype and rank, and no known dim that differs.
bool compatible(const Type& a, const Type& b) {
    if (a.kind != b.kind || a.dtype != b.dtype || a.shape.size() != b.shape.size()) return false;
    for (size_t d = 0; d < a.shape.size(); ++d)
        if (a.shape[d] != kUnknownDim && b.shape[d] != kUnknownDim && a.shape[d] != b.shape[d]) return false;
    return true;
}

// An Einsum's attributes from its JSON params; every one must be there.
EinsumSpec einsumSpecFromParams(const nlohmann::json& params) {
    const std::string where = "OpFromGraph params (Einsum): ";
    EinsumSpec spec;
    const auto sub = params.find("subscripts");
    if (sub == params.end() || !sub->is_string()) throw std::invalid_argument(where + "\"subscripts\" must be a string");
    spec.subscripts = sub->get<std::string>();
    const auto path = params.find("path");
    if (path == params.end() || !path->is_array()) throw std::invalid_argument(where + "\"path\" must be a list of lists of operand positions");
    for (size_t i = 0; i < path->size(); ++i) {
        const auto& step = (*path)[i];
        if (!step.is_array()) throw std::invalid_argument(where + "path/" + std::to_string(i) + " must be a list of operand positions");
        spec.path.emplace_back();
        for (const auto& k : step) {
            if (!k.is_number_integer()) throw std::invalid_argument(where + "path/" + std::to_string(i) + " must hold integers");
            spec.path.back().push_back(k.get<int>());
        }
    }
    const auto opt = params.find("optimized");
    if (opt == params.end() || !opt->is_boolean()) throw std::invalid_argument(where + "\"optimized\" must be true or false");
    spec.optimized = opt->get<bool>();
    return spec;
}
} // namespace

OpFromGraphOp::OpFromGraphOp(std::shared_ptr<const Graph> inner, std::optional<std::string> name, bool inlineGraph,
                             AliasMap destroy, std::optional<EinsumSpec> einsum)
    : Op(OpKind::OpFromGraph), m_inner(std::move(inner)), m_name(std::move(name)), m_inline(inlineGraph),
      m_destroy(std::move(destroy)), m_einsum(std::move(einsum)) {
    if (!m_inner) throw std::invalid_argument("OpFromGraph needs an inner graph");
    if (m_einsum && m_name != "Einsum") throw std::invalid_argument("an OpFromGraph with Einsum attributes must be named Einsum");
    if (m_einsum)
        for (const auto& step : m_einsum->path)
            for (int k : step)
                if (k < 0 || k >= static_cast<int>(m_inner->inputs().size()))
                    throw std::invalid_argument("Einsum path names operand " + std::to_string(k) + " of " +
                                                std::to_string(m_inner->inputs().size()));
    for (const auto& [o, ins] : m_destroy) {
        if (o < 0 || o >= static_cast<int>(m_inner->outputs().size()))
            throw std::invalid_argument("OpFromGraph destroy_map names output " + std::to_string(o) + " of " +
                                        std::to_string(m_inner->outputs().size()));
        for (int i : ins)
            if (i < 0 || i >= static_cast<int>(m_inner->inputs().size()))
                throw std::invalid_argument("OpFromGraph destroy_map names input " + std::to_string(i) + " of " +
                                            std::to_string(m_inner->inputs().size()));
    }
}

std::string OpFromGraphOp::name() const {
    if (m_einsum) return "Einsum{" + einsumSpecText(*m_einsum) + "}";
    return m_name.value_or("OpFromGraph") + (m_inline ? "{inline=True}" : "{inline=False}");
}

std::vector<Type> OpFromGraphOp::inferTypes(std::span<const Type* const> in) const {
    const auto& ins = m_inner->inputs();
    if (in.size() != ins.size())
        throw OpTypeError(name() + ": expected " + std::to_string(ins.size()) + " input(s), got " + std::to_string(in.size()));
    for (size_t i = 0; i < in.size(); ++i) {
        const Type& want = ins[i]->type();
        const Type& got = *in[i];
        if (!compatible(want, got))
            throw OpTypeError(name() + ": input " + std::to_string(i) + " is " + got.toString() + ", the inner graph takes " +
                              want.toString());
    }
    std::vector<Type> out;
    for (const Variable* o : m_inner->outputs()) out.push_back(o->type());
    return out;
}

nlohmann::json OpFromGraphOp::params() const {
    nlohmann::json j = {{"name", m_name ? nlohmann::json(*m_name) : nlohmann::json(nullptr)}, {"inline", m_inline}};
    if (!m_destroy.empty()) {
        nlohmann::json d = nlohmann::json::object();
        for (const auto& [o, ins] : m_destroy) d[std::to_string(o)] = ins;
        j["destroy_map"] = d;
    }
    if (m_einsum) {
        j["subscripts"] = m_einsum->subscripts;
        j["path"] = m_einsum->path;
        j["optimized"] = m_einsum->optimized;
    }
    return j;
}

OpPtr makeOpFromGraph(std::shared_ptr<const Graph> inner, std::optional<std::string> name, bool inlineGraph, AliasMap destroy) {
    return std::make_shared<OpFromGraphOp>(std::move(inner), std::move(name), inlineGraph, std::move(destroy));
}

OpPtr makeEinsum(std::shared_ptr<const Graph> inner, EinsumSpec spec) {
    return std::make_shared<OpFromGraphOp>(std::move(inner), "Einsum", false, AliasMap{}, std::move(spec));
}

OpPtr makeOpOpFromGraph(const nlohmann::json& params, std::shared_ptr<const Graph> inner) {
    const std::string op = "OpFromGraph";
    if (!inner) throw std::invalid_argument(op + " has no inner graph");
    std::optional<std::string> name;
    if (auto it = params.find("name"); it != params.end() && !it->is_null()) {
        if (!it->is_string()) throw std::invalid_argument(op + " params: \"name\" must be a string or null");
        name = it->get<std::string>();
    }
    bool inl = false;
    if (auto it = params.find("inline"); it != params.end()) {
        if (!it->is_boolean()) throw std::invalid_argument(op + " params: \"inline\" must be true or false");
        inl = it->get<bool>();
    }
    AliasMap destroy;
    if (auto it = params.find("destroy_map"); it != params.end()) {
        if (!it->is_object()) throw std::invalid_argument(op + " params: \"destroy_map\" must be {\"output\": [inputs]}");
        for (const auto& [k, v] : it->items()) {
            int o = -1;
            try {
                o = std::stoi(k);
            } catch (const std::exception&) {
            }
            if (o < 0 || !v.is_array()) throw std::invalid_argument(op + " params: destroy_map/" + k + " is not {output: [inputs]}");
            for (const auto& i : v) {
                if (!i.is_number_integer()) throw std::invalid_argument(op + " params: destroy_map/" + k + " must list input indices");
                destroy[o].push_back(i.get<int>());
            }
        }
    }
    std::optional<EinsumSpec> einsum;
    if (params.contains("subscripts") || params.contains("path") || params.contains("optimized"))
        einsum = einsumSpecFromParams(params);
    return std::make_shared<OpFromGraphOp>(std::move(inner), std::move(name), inl, std::move(destroy), std::move(einsum));
}

} // namespace tl
