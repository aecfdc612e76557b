#pragma once
// Assert{msg='...'}(x, c0, c1, ...): x (a view) when every 0-d condition is true;
// otherwise the run fails with ExecError carrying the message. Its general form,
// PyTensor's CheckAndRaise (what PyMC's check_parameters builds), names the
// exception it raises: CheckAndRaise{raises=ParameterValueError, msg='...'}.
#include "ir/Op.h"

namespace tl {

class AssertOp final : public Op {
public:
    /// An empty `excType` is Assert (AssertionError); another is CheckAndRaise.
    explicit AssertOp(std::string msg, std::string excType = {})
        : Op(excType.empty() ? OpKind::Assert : OpKind::CheckAndRaise), m_msg(std::move(msg)), m_exc(std::move(excType)) {}
    const std::string& message() const { return m_msg; }
    /// The exception's class name ("AssertionError" for Assert).
    std::string exceptionType() const { return m_exc.empty() ? "AssertionError" : m_exc; }
    /// PyTensor shortens messages over 30 characters to 27 + "...".
    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    AliasMap viewMap() const override { return {{0, {0}}}; }
    nlohmann::json params() const override;

private:
    std::string m_msg;
    std::string m_exc;
};

/// Assert: inputs (value, cond...), conditions 0-d of any dtype (nonzero = true).
OpPtr makeAssert(std::string msg = "PyTensor Assert failed!");
/// CheckAndRaise raising `excType` (a class name such as "ValueError").
OpPtr makeCheckAndRaise(std::string excType, std::string msg = "");

/// Whether the op checks conditions and passes its first input through (Assert, CheckAndRaise).
inline bool isAssertKind(OpKind k) { return k == OpKind::Assert || k == OpKind::CheckAndRaise; }

} // namespace tl
