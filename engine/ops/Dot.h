#pragma once
// Dot(a, b): PyTensor's Dot, the product of two matrices (m,k)x(k,n) -> (m,n); as
// older PyTensor graphs hold it, vectors too: (m,k)x(k) -> (m), (k)x(k,n) -> (n),
// (k)x(k) -> (). Output dtype: the upcast of the inputs. float32/float64 go through
// BLAS (gemm, gemv, dot); the integer and bool dtypes, which BLAS lacks, through an
// exact loop as NumPy's integer matmul (wrapping, or-of-ands for bool). Its gufunc
// signature (m,n),(n,p)->(m,p) makes it the core op of Matmul (Blockwise{Dot}).
#include "ir/Op.h"
#include "ops/SliceKernel.h"

namespace tl {

class DotOp final : public Op, public SliceKernel {
public:
    DotOp() : Op(OpKind::Dot) {}
    std::string name() const override { return "Dot"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& shapes, std::vector<DType>& dtypes) const override;
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace& ws) const override;
};

OpPtr makeDot();

/// out = a @ b for 1-d or 2-d arrays as Dot defines it, written into `out` (the
/// product's shape, any dtype: the inputs are converted to it first; any strides).
/// Shared by Dot, Dot22 and BatchedDot. Throws ExecError naming the shapes.
void matrixProductInto(const NDArray& a, const NDArray& b, const NDArray& out);

} // namespace tl
