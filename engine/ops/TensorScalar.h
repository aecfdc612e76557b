#pragma once
// The two conversions between 0-d tensors and ScalarType values (pytensor.scalar):
// ScalarFromTensor (0-d TensorType -> ScalarType) and TensorFromScalar (back).
#include "ir/Op.h"

namespace tl {

class ScalarFromTensorOp final : public Op {
public:
    ScalarFromTensorOp() : Op(OpKind::ScalarFromTensor) {}
    std::string name() const override { return "ScalarFromTensor"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
};

class TensorFromScalarOp final : public Op {
public:
    TensorFromScalarOp() : Op(OpKind::TensorFromScalar) {}
    std::string name() const override { return "TensorFromScalar"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
};

OpPtr makeScalarFromTensor();
OpPtr makeTensorFromScalar();

} // namespace tl
