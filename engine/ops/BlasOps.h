#pragma once
// The BLAS ops of PyTensor's compiled graphs (pytensor/tensor/blas.py, blas_c.py),
// each with PyTensor's printed name, types and destroy_map:
//   Dot22(x, y)                    x @ y                          float matrices
//   Dot22Scalar(x, y, a)           a * (x @ y)
//   Gemm{inplace}(z, a, x, y, b)   b*z + a*(x @ y), d={0: [0]}    z may broadcast
//   Gemv{inplace}(y, a, A, x, b)   b*y + a*(A @ x), d={0: [0]}    CGemv: the same
//   Ger{destructive}(A, a, x, y)   A + a*outer(x, y), d={0: [0]}  CGer: the same
//   BatchedDot(x, y)               x[i] @ y[i] over the first axis
// A zero beta never reads z / y: PyTensor hands Gemv an uninitialised AllocEmpty
// with beta = 0. The inplace and destructive forms write into their first input.
#include "ops/PropsOp.h"

namespace tl {

/// Dot22, Dot22Scalar and BatchedDot (no props), Gemm / Gemv / CGemv (inplace),
/// Ger / CGer (destructive): one class, told apart by kind.
class BlasOp final : public PropsOp {
public:
    /// `inPlace` is Gemm's and Gemv's `inplace`, Ger's `destructive`; false for the others.
    BlasOp(OpKind kind, bool inPlace);
    bool inPlace() const { return m_inPlace; }
    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    AliasMap destroyMap() const override;
    /// The same op writing into (or not writing into) its first input.
    OpPtr withInPlace(bool inPlace) const;

private:
    bool m_inPlace;
};

OpPtr makeDot22();
OpPtr makeDot22Scalar();
OpPtr makeBatchedDot();
/// Gemm(inplace); Gemv or, with `cName`, CGemv(inplace); Ger or CGer(destructive).
OpPtr makeGemm(bool inplace);
OpPtr makeGemv(bool inplace, bool cName = true);
OpPtr makeGer(bool destructive, bool cName = true);

} // namespace tl
