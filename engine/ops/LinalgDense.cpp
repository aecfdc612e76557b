#include "ops/LinalgDense.h"

#include "ops/BlasCalls.h"
#include "ops/LapackCalls.h"
#include "ops/Linalg.h"
#include "ops/LinalgOp.h"

#include <algorithm>
#include <cmath>

namespace tl::dense {

NDArray zeros(int64_t rows, int64_t cols) { return NDArray::zeros(DType::Float64, {rows, cols}); }

NDArray identity(int64_t n) {
    NDArray m = zeros(n, n);
    for (int64_t i = 0; i < n; ++i) at(m, i, i) = 1.0;
    return m;
}

NDArray transposedView(const NDArray& a) {
    return a.view({a.dim(1), a.dim(0)}, {a.strides()[1], a.strides()[0]}, a.offset());
}

NDArray transposed(const NDArray& a) { return transposedView(a).copy(); }

NDArray matmul(const NDArray& a, const NDArray& b) {
    NDArray c = NDArray::empty(a.dtype(), {a.dim(0), b.dim(1)});
    blas::gemm(1.0, a, b, 0.0, c);
    return c;
}

double norm1(const NDArray& a) {
    double best = 0.0;
    for (int64_t j = 0; j < a.dim(1); ++j) {
        double s = 0.0;
        for (int64_t i = 0; i < a.dim(0); ++i) s += std::fabs(at(a, i, j));
        best = std::max(best, s);
    }
    return best;
}

int luFactor(const NDArray& a, linalg::Workspace& ws, double*& lu, int*& piv) {
    const int n = static_cast<int>(a.dim(0));
    lu = ws.get<double>(0, static_cast<size_t>(n) * n);
    piv = ws.ints(0, static_cast<size_t>(n));
    linalg::loadColMajor(a, lu, std::max(n, 1));
    if (n == 0) return 0;
    return lapack::getrf<double>(n, n, lu, n, piv);
}

NDArray solve(const NDArray& a, const NDArray& b, const std::string& op) {
    const int n = static_cast<int>(a.dim(0)), nrhs = static_cast<int>(b.dim(1)), ld = std::max(n, 1);
    linalg::Workspace ws;
    double* lu;
    int* piv;
    const int info = luFactor(a, ws, lu, piv);
    if (info > 0) linalg::throwSingular(op, info, "Singular matrix");
    double* x = ws.get<double>(1, static_cast<size_t>(ld) * std::max(nrhs, 1));
    linalg::loadColMajor(b, x, ld);
    if (n > 0) lapack::getrs<double>('N', n, nrhs, lu, ld, piv, x, ld);
    NDArray r = NDArray::empty(DType::Float64, {n, nrhs});
    linalg::storeColMajor(x, ld, r);
    return r;
}

} // namespace tl::dense
