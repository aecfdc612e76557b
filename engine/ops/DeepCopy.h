#pragma once
// DeepCopyOp(x): a fresh copy of x (output protection, as PyTensor's insert_deepcopy).
#include "ops/Op.h"

namespace tl {

class DeepCopyOp final : public Op {
public:
    DeepCopyOp() : Op(OpKind::DeepCopy) {}
    std::string name() const override { return "DeepCopyOp"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(ExecContext& ctx, std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    /// The tangent passes through unchanged.
    std::vector<Variable*> rop(GraphBuilder& b, const Node& node, std::span<Variable* const> tangents) const override;
};

OpPtr makeDeepCopy();

} // namespace tl
