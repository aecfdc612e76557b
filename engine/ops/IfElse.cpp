#include "ops/IfElse.h"

#include "ops/ArrayOpUtil.h"

#include <nlohmann/json.hpp>

namespace tl {

IfElseOp::IfElseOp(int nOuts, bool asView, std::optional<std::string> name)
    : Op(OpKind::IfElse), m_nOuts(nOuts), m_asView(asView), m_name(std::move(name)) {
    if (nOuts < 1) throw std::invalid_argument("IfElse needs at least one output, got n_outs=" + std::to_string(nOuts));
}

std::string IfElseOp::name() const {
    std::string args;
    if (m_name) args = *m_name;
    if (m_asView) args += std::string(args.empty() ? "" : ",") + "inplace";
    return "if{" + args + "}";
}

std::vector<Type> IfElseOp::inferTypes(std::span<const Type* const> in) const {
    const size_t want = 1 + 2 * static_cast<size_t>(m_nOuts);
    if (in.size() != want)
        throw OpTypeError(name() + ": wrong number of arguments: expected " + std::to_string(2 * m_nOuts) + " branch values, got " +
                          std::to_string(in.size() - (in.empty() ? 0 : 1)));
    const Type& cond = *in[0];
    if (!cond.holdsNumbers() || (!cond.isScalarType() && cond.ndim() != 0))
        throw OpTypeError(name() + ": the condition must be a truthy scalar value, got " + cond.toString());
    std::vector<Type> out;
    for (int k = 0; k < m_nOuts; ++k) {
        const Type& t = *in[1 + k];
        const Type& f = *in[1 + m_nOuts + k];
        const std::string pair = "branch value " + std::to_string(k);
        if (!t.holdsNumbers() || !f.holdsNumbers() || t.kind != f.kind)
            throw OpTypeError(name() + ": " + pair + ": input types " + t.toString() + " and " + f.toString() + " do not match");
        if (t.dtype != f.dtype)
            throw OpTypeError(name() + ": IfElse requires compatible dtypes for both branches: got true_branch=" +
                              std::string(dtypeName(t.dtype)) + ", false_branch=" + std::string(dtypeName(f.dtype)));
        if (t.ndim() != f.ndim())
            throw OpTypeError(name() + ": IfElse requires compatible ndim values for both branches: got true_branch=" +
                              std::to_string(t.ndim()) + ", false_branch=" + std::to_string(f.ndim()));
        if (t.isScalarType()) {
            out.push_back(t);
            continue;
        }
        StaticShape s;
        for (int d = 0; d < t.ndim(); ++d) s.push_back(t.shape[d] == f.shape[d] ? t.shape[d] : kUnknownDim);
        out.push_back(Type::tensor(t.dtype, std::move(s)));
    }
    return out;
}

void IfElseOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& c = in[0];
    if (!c.valid() || c.size() != 1) throw ExecError(name() + ": the condition must hold one value");
    const bool taken = c.item() != 0.0;
    for (int k = 0; k < m_nOuts; ++k) {
        const NDArray& v = in[static_cast<size_t>(1 + (taken ? 0 : m_nOuts) + k)];
        if (!v.valid())
            throw ExecError(name() + ": the " + (taken ? "then" : "else") + "-value " + std::to_string(k) + " was not computed");
        if (m_asView && taken) {
            out[k] = v;
            continue;
        }
        NDArray r = arrayop::reuseOrEmpty(out[k], v.dtype(), v.shape());
        r.assign(v);
        out[k] = r;
    }
}

AliasMap IfElseOp::viewMap() const {
    AliasMap m;
    if (m_asView)
        for (int k = 0; k < m_nOuts; ++k) m[k] = {k + 1};
    return m;
}

nlohmann::json IfElseOp::params() const {
    nlohmann::json j = {{"n_outs", m_nOuts}, {"as_view", m_asView}};
    if (m_name) j["name"] = *m_name;
    return j;
}

OpPtr makeIfElse(int nOuts, bool asView, std::optional<std::string> name) {
    return std::make_shared<IfElseOp>(nOuts, asView, std::move(name));
}

OpPtr makeOpIfElse(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    const std::string op = "IfElse";
    const auto& n = arrayop::requireParam(params, "n_outs", op);
    if (!n.is_number_integer() || n.get<int64_t>() < 1 || n.get<int64_t>() > (1 << 20))
        throw std::invalid_argument(op + " params: \"n_outs\" must be a positive integer, got " + n.dump());
    bool asView = false;
    if (auto it = params.find("as_view"); it != params.end()) {
        if (!it->is_boolean()) throw std::invalid_argument(op + " params: \"as_view\" must be true or false");
        asView = it->get<bool>();
    }
    std::optional<std::string> name;
    if (auto it = params.find("name"); it != params.end() && !it->is_null()) {
        if (!it->is_string()) throw std::invalid_argument(op + " params: \"name\" must be a string or null");
        name = it->get<std::string>();
    }
    OpPtr result = makeIfElse(static_cast<int>(n.get<int64_t>()), asView, std::move(name));
    if (auto it = params.find("view_map"); it != params.end()) {
        nlohmann::json want = nlohmann::json::object();
        for (const auto& [o, ins] : result->viewMap()) want[std::to_string(o)] = ins;
        if (*it != want)
            throw std::invalid_argument(op + " params: \"view_map\" " + it->dump() + " does not match \"as_view\"");
    }
    return result;
}

} // namespace tl
