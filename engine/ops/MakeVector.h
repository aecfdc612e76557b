#pragma once
// MakeVector{dtype='int64'}(s0, s1, ...): a vector of 0-d values (tensors or
// ScalarTypes) that upcast to dtype without loss.
#include "ir/Op.h"

namespace tl {

class MakeVectorOp final : public Op {
public:
    explicit MakeVectorOp(DType dtype) : Op(OpKind::MakeVector), m_dtype(dtype) {}
    DType dtype() const { return m_dtype; }
    std::string name() const override { return "MakeVector{dtype='" + std::string(dtypeName(m_dtype)) + "'}"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    nlohmann::json params() const override;

private:
    DType m_dtype;
};

OpPtr makeMakeVector(DType dtype = DType::Int64);

} // namespace tl
