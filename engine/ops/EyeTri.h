#pragma once
// The (N, M, k) matrix constructors of PyTensor, each Op{dtype}(N, M, k) with 0-d
// integer inputs:
//   Eye: ones on diagonal k (NumPy's eye); the static shape (N, M) follows constant
//        N and M, as PyTensor's infer_static_shape.
//   Tri: ones at and below diagonal k (NumPy's tri); PyTensor gives it no static
//        shape, and neither does tensorlens.
// Printed "Eye{dtype='float64'}", "Tri{dtype='float64'}".
#include "ir/Op.h"

namespace tl {

class EyeTriOp final : public Op {
public:
    EyeTriOp(OpKind kind, DType dtype) : Op(kind), m_dtype(dtype) {}
    DType dtype() const { return m_dtype; }
    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    std::vector<Type> inferTypesWithConstants(std::span<const Type* const> inputs,
                                              std::span<const NDArray* const> constants) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    nlohmann::json params() const override;

private:
    DType m_dtype;
};

/// Eye{dtype}: inputs (n, m, k).
OpPtr makeEye(DType dtype);
/// Tri{dtype}: inputs (N, M, k).
OpPtr makeTri(DType dtype);

} // namespace tl
