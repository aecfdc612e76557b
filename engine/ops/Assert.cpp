#include "ops/Assert.h"

#include "ops/ArrayOpUtil.h"

#include <nlohmann/json.hpp>

namespace tl {

std::string AssertOp::name() const {
    const std::string msg = m_msg.size() > 30 ? m_msg.substr(0, 27) + "..." : m_msg;
    if (kind() == OpKind::CheckAndRaise) return "CheckAndRaise{raises=" + m_exc + ", msg='" + msg + "'}";
    return "Assert{msg='" + msg + "'}";
}

std::vector<Type> AssertOp::inferTypes(std::span<const Type* const> in) const {
    const std::string op(opKindName(kind()));
    arrayop::requireMinArity(in, 1, op);
    if (!in[0]->holdsNumbers()) throw OpTypeError(op + " input must be a tensor or scalar, got " + in[0]->toString());
    for (size_t i = 1; i < in.size(); ++i)
        if (!in[i]->holdsNumbers() || (!in[i]->isScalarType() && in[i]->ndim() != 0))
            throw OpTypeError(op + " condition " + std::to_string(i - 1) + " must be 0-d, got " + in[i]->toString());
    return {*in[0]};
}

void AssertOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    for (size_t i = 1; i < in.size(); ++i)
        if (in[i].size() != 1 || in[i].item() == 0.0) throw ExecError(exceptionType() + ": " + m_msg);
    out[0] = in[0];
}

nlohmann::json AssertOp::params() const {
    if (kind() == OpKind::CheckAndRaise) return {{"exc_type", m_exc}, {"msg", m_msg}};
    return {{"msg", m_msg}};
}

OpPtr makeAssert(std::string msg) { return std::make_shared<AssertOp>(std::move(msg)); }

OpPtr makeCheckAndRaise(std::string excType, std::string msg) {
    if (excType.empty()) throw std::invalid_argument("CheckAndRaise needs the name of the exception it raises");
    return std::make_shared<AssertOp>(std::move(msg), std::move(excType));
}

namespace {
std::string stringParam(const nlohmann::json& params, const char* key, const char* op) {
    const auto& m = arrayop::requireParam(params, key, op);
    if (!m.is_string()) throw std::invalid_argument(std::string(op) + " params: \"" + key + "\" must be a string, got " + m.dump());
    return m.get<std::string>();
}
} // namespace

OpPtr makeOpAssert(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    return makeAssert(stringParam(params, "msg", "Assert"));
}

OpPtr makeOpCheckAndRaise(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    // The exception class by name; its repr ("<class 'pymc.logprob.utils.ParameterValueError'>") gives the same.
    std::string exc = stringParam(params, "exc_type", "CheckAndRaise");
    if (exc.rfind("<class '", 0) == 0 && exc.size() > 10 && exc.substr(exc.size() - 2) == "'>") exc = exc.substr(8, exc.size() - 10);
    if (const size_t dot = exc.rfind('.'); dot != std::string::npos) exc = exc.substr(dot + 1);
    if (exc.empty()) throw std::invalid_argument("CheckAndRaise params: \"exc_type\" is empty");
    return makeCheckAndRaise(exc, params.contains("msg") ? stringParam(params, "msg", "CheckAndRaise") : std::string());
}

} // namespace tl
