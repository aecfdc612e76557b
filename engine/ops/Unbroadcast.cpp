#include "ops/Unbroadcast.h"

#include "ops/ArrayOpUtil.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace tl {

UnbroadcastOp::UnbroadcastOp(std::vector<int> axes) : Op(OpKind::Unbroadcast), m_axes(std::move(axes)) {
    std::sort(m_axes.begin(), m_axes.end());
    if (m_axes.empty()) throw std::invalid_argument("Unbroadcast needs at least one axis");
    if (m_axes.front() < 0) throw std::invalid_argument("Unbroadcast axes must be >= 0");
    if (std::adjacent_find(m_axes.begin(), m_axes.end()) != m_axes.end())
        throw std::invalid_argument("Unbroadcast axes must be distinct");
}

std::string UnbroadcastOp::name() const {
    std::string s = "Unbroadcast{";
    for (size_t i = 0; i < m_axes.size(); ++i) s += (i ? "," : "") + std::to_string(m_axes[i]);
    return s + "}";
}

std::vector<Type> UnbroadcastOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 1, "Unbroadcast");
    const Type& x = *in[0];
    arrayop::requireTensor(x, "Unbroadcast input");
    if (x.ndim() <= m_axes.back())
        throw OpTypeError("Unbroadcast of axis " + std::to_string(m_axes.back()) + " of " + x.toString());
    Type out = x;
    for (int a : m_axes)
        if (out.shape[a] == 1) out.shape[a] = kUnknownDim;
    return {out};
}

void UnbroadcastOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    out[0] = in[0];
}

nlohmann::json UnbroadcastOp::params() const { return {{"axes", m_axes}}; }

OpPtr makeUnbroadcast(std::vector<int> axes) { return std::make_shared<UnbroadcastOp>(std::move(axes)); }

OpPtr makeOpUnbroadcast(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    return makeUnbroadcast(arrayop::intListParam(params, "axes", "Unbroadcast"));
}

} // namespace tl
