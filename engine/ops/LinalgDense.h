#pragma once
// Small dense-matrix building blocks shared by the linear-algebra kernels that work on
// whole matrices (matrix functions, Riccati and tensor solves, spectral gradients):
// each is one BLAS or LAPACK call or a loop too small to deserve one.
#include "core/NDArray.h"
#include "ops/LinalgBuffers.h"

#include <cstdint>
#include <string>

namespace tl::dense {

/// A rows x cols float64 matrix of zeros (C-contiguous).
NDArray zeros(int64_t rows, int64_t cols);
/// The n x n float64 identity.
NDArray identity(int64_t n);
/// Element (i, j) of a C-contiguous float64 matrix.
inline double& at(const NDArray& m, int64_t i, int64_t j) { return m.data<double>()[i * m.dim(1) + j]; }
/// a^T as a view of a's storage (no copy).
NDArray transposedView(const NDArray& a);
/// a^T as a new C-contiguous matrix.
NDArray transposed(const NDArray& a);
/// a b (gemm), in a's dtype (float32 or float64); a and b may be strided views.
NDArray matmul(const NDArray& a, const NDArray& b);
/// max_j sum_i |a[i, j]|, LAPACK's and SciPy's 1-norm, of a C-contiguous float64 matrix.
double norm1(const NDArray& a);
/// LU-factors the square matrix a (any dtype, any strides) in float64 into ws slot 0,
/// column-major n x n, pivots in integer slot 0; returns getrf's info (0 when n = 0).
int luFactor(const NDArray& a, linalg::Workspace& ws, double*& lu, int*& piv);
/// X with a X = b (getrf + getrs in float64), C-contiguous; a singular a is an
/// ExecError naming `op` in NumPy's words ("Singular matrix").
NDArray solve(const NDArray& a, const NDArray& b, const std::string& op);

} // namespace tl::dense
