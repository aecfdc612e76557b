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
} // namespace

OpFromGraphOp::OpFromGraphOp(std::shared_ptr<const Graph> inner, std::optional<std::string> name, bool inlineGraph,
                             AliasMap destroy)
    : Op(OpKind::OpFromGraph), m_inner(std::move(inner)), m_name(std::move(name)), m_inline(inlineGraph),
      m_destroy(std::move(destroy)) {
    if (!m_inner) throw std::invalid_argument("OpFromGraph needs an inner graph");
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
    return j;
}

OpPtr makeOpFromGraph(std::shared_ptr<const Graph> inner, std::optional<std::string> name, bool inlineGraph, AliasMap destroy) {
    return std::make_shared<OpFromGraphOp>(std::move(inner), std::move(name), inlineGraph, std::move(destroy));
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
    return makeOpFromGraph(std::move(inner), std::move(name), inl, std::move(destroy));
}

} // namespace tl
