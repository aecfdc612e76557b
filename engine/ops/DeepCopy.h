#pragma once
// DeepCopyOp(x): a fresh copy of x (output protection, as PyTensor's insert_deepcopy).
#include "ir/Op.h"

namespace tl {

class DeepCopyOp final : public Op {
public:
    DeepCopyOp() : Op(OpKind::DeepCopy) {}
    std::string name() const override { return "DeepCopyOp"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
};

OpPtr makeDeepCopy();

} // namespace tl
