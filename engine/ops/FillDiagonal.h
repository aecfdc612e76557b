#pragma once
// PyTensor's fill_diagonal ops, each returning a copy of `a`:
//   FillDiagonal(a, val): val on a's main diagonal (a.ndim >= 2; beyond two dims all
//     dims must be equal, as NumPy's fill_diagonal).
//   FillDiagonalOffset(a, val, offset): val on diagonal `offset` of matrix a.
// `val` is a 0-d value of a's dtype (PyTensor's make_node casts it, and rejects an
// upcast of a). Printed "FillDiagonal", "FillDiagonalOffset".
#include "ir/Op.h"

namespace tl {

class FillDiagonalOp final : public Op {
public:
    explicit FillDiagonalOp(OpKind kind) : Op(kind) {}
    std::string name() const override { return kind() == OpKind::FillDiagonal ? "FillDiagonal" : "FillDiagonalOffset"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
};

/// FillDiagonal: inputs (a, val).
OpPtr makeFillDiagonal();
/// FillDiagonalOffset: inputs (a, val, offset).
OpPtr makeFillDiagonalOffset();

} // namespace tl
