#pragma once
// The BLAS calls behind every product (Dot, Dot22, Gemm, Gemv, Ger, BatchedDot,
// Matmul): OpenBLAS's cblas on float32/float64 arrays, read in place whatever
// their strides when BLAS can address them (row-major, or column-major as a
// transpose), copied only when it cannot (broadcast or doubly strided views).
#include "core/NDArray.h"

namespace tl::blas {

/// True for the dtypes BLAS computes in (float32, float64).
bool hasBlasDType(DType d);

/// c = alpha * (a @ b) + beta * c. a (m, k), b (k, n), c (m, n) are 2-d arrays of one
/// float dtype with any strides; c is written in place (through a copy when BLAS
/// cannot address it). beta == 0 never reads c (it may hold uninitialised memory or
/// NaN, as PyTensor relies on). Throws ExecError on misaligned shapes.
void gemm(double alpha, const NDArray& a, const NDArray& b, double beta, const NDArray& c);

/// y = alpha * (a @ x) + beta * y, a (m, n), x (n), y (m) of one float dtype; beta == 0
/// never reads y. Throws ExecError on misaligned shapes.
void gemv(double alpha, const NDArray& a, const NDArray& x, double beta, const NDArray& y);

/// a += alpha * outer(x, y), a (m, n), x (m), y (n) of one float dtype, a written in place.
void ger(double alpha, const NDArray& x, const NDArray& y, const NDArray& a);

/// sum(x * y) of two vectors of one float dtype and equal length.
double dot(const NDArray& x, const NDArray& y);

} // namespace tl::blas
