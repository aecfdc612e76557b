#include "ops/Assert.h"

#include "ops/ArrayOpUtil.h"

#include <nlohmann/json.hpp>

namespace tl {

std::string AssertOp::name() const {
    const std::string msg = m_msg.size() > 30 ? m_msg.substr(0, 27) + "..." : m_msg;
    return "Assert{msg='" + msg + "'}";
}

std::vector<Type> AssertOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireMinArity(in, 1, "Assert");
    if (!in[0]->holdsNumbers()) throw OpTypeError("Assert input must be a tensor or scalar, got " + in[0]->toString());
    for (size_t i = 1; i < in.size(); ++i)
        if (!in[i]->holdsNumbers() || (!in[i]->isScalarType() && in[i]->ndim() != 0))
            throw OpTypeError("Assert condition " + std::to_string(i - 1) + " must be 0-d, got " + in[i]->toString());
    return {*in[0]};
}

void AssertOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    for (size_t i = 1; i < in.size(); ++i)
        if (in[i].size() != 1 || in[i].item() == 0.0) throw ExecError("AssertionError: " + m_msg);
    out[0] = in[0];
}

nlohmann::json AssertOp::params() const { return {{"msg", m_msg}}; }

OpPtr makeAssert(std::string msg) { return std::make_shared<AssertOp>(std::move(msg)); }

OpPtr makeOpAssert(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    const auto& m = arrayop::requireParam(params, "msg", "Assert");
    if (!m.is_string()) throw std::invalid_argument("Assert params: \"msg\" must be a string, got " + m.dump());
    return makeAssert(m.get<std::string>());
}

} // namespace tl
