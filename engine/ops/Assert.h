#pragma once
// Assert{msg='...'}(x, c0, c1, ...): x (a view) when every 0-d condition is true;
// otherwise the run fails with ExecError carrying the message.
#include "ir/Op.h"

namespace tl {

class AssertOp final : public Op {
public:
    explicit AssertOp(std::string msg) : Op(OpKind::Assert), m_msg(std::move(msg)) {}
    const std::string& message() const { return m_msg; }
    /// PyTensor shortens messages over 30 characters to 27 + "...".
    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    AliasMap viewMap() const override { return {{0, {0}}}; }
    nlohmann::json params() const override;

private:
    std::string m_msg;
};

/// Assert: inputs (value, cond...), conditions 0-d of any dtype (nonzero = true).
OpPtr makeAssert(std::string msg = "PyTensor Assert failed!");

} // namespace tl
