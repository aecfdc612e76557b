#include "ops/BlasCalls.h"

#include "ir/Op.h"

#include <cblas.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace tl::blas {

namespace {

// A 2-d view as BLAS addresses it: row-major with leading dimension ld, of the
// matrix itself or (trans) of its transpose.
template <typename T> struct MatrixArg {
    T* p = nullptr;
    int ld = 1;
    bool trans = false;
};

bool fitsInt(int64_t v) { return v >= 0 && v <= std::numeric_limits<int>::max(); }

// The view's layout for BLAS, or false when it needs a copy. A dimension of length 1
// may have any stride (it is never stepped over), so it never forces a copy.
template <typename T> bool asMatrixArg(const NDArray& a, MatrixArg<T>& out) {
    const int64_t rows = a.dim(0), cols = a.dim(1);
    int64_t s0 = a.strides()[0], s1 = a.strides()[1];
    if (rows <= 1) s0 = std::max<int64_t>(cols, 1);
    if (cols <= 1) s1 = 1;
    out.p = a.data<T>();
    if (s1 == 1 && s0 >= std::max<int64_t>(cols, 1) && fitsInt(s0)) {
        out.ld = static_cast<int>(s0);
        out.trans = false;
        return true;
    }
    // Column-major: the transposed matrix is row-major with leading dimension s1.
    if (cols > 1 && rows > 1 && s0 == 1 && s1 >= rows && fitsInt(s1)) {
        out.ld = static_cast<int>(s1);
        out.trans = true;
        return true;
    }
    return false;
}

// A vector as BLAS addresses it: pointer to the lowest address and a nonzero step.
template <typename T> bool asVectorArg(const NDArray& v, T*& p, int& inc) {
    const int64_t n = v.dim(0);
    int64_t s = v.strides()[0];
    if (n <= 1) s = 1;
    if (s == 0 || !fitsInt(s < 0 ? -s : s)) return false;
    p = v.data<T>();
    if (s < 0) p += (n - 1) * s;  // BLAS walks a negative step from the far end
    inc = static_cast<int>(s);
    return true;
}

void requireInt(int64_t v, const char* what) {
    if (!fitsInt(v)) throw ExecError(std::string("BLAS: ") + what + " " + std::to_string(v) + " is too large for BLAS");
}

void zeroFill(const NDArray& a) {
    if (a.isContiguous()) std::memset(a.rawData(), 0, a.nbytes());
    else a.assign(NDArray::zeros(a.dtype(), a.shape()));
}

template <typename T>
void gemmT(T alpha, const NDArray& a, const NDArray& b, T beta, const NDArray& c) {
    const int64_t m = a.dim(0), k = a.dim(1), n = b.dim(1);
    if (m == 0 || n == 0) return;
    if (k == 0) {  // an empty sum: c = beta * c
        if (beta == T(0)) zeroFill(c);
        else if (beta != T(1)) {
            NDArray scaled = c.copy();
            T* p = scaled.data<T>();
            for (int64_t i = 0; i < scaled.size(); ++i) p[i] *= beta;
            c.assign(scaled);
        }
        return;
    }
    requireInt(m, "dimension");
    requireInt(n, "dimension");
    requireInt(k, "dimension");
    NDArray ac = a, bc = b;
    MatrixArg<T> A, B, C;
    if (!asMatrixArg(ac, A)) {
        ac = a.copy();
        asMatrixArg(ac, A);
    }
    if (!asMatrixArg(bc, B)) {
        bc = b.copy();
        asMatrixArg(bc, B);
    }
    // c is written: it must be row-major (a transposed c would need C^T = B^T A^T).
    NDArray target = c;
    bool copied = false;
    if (!asMatrixArg(target, C) || C.trans || target.sharesStorageWith(ac) || target.sharesStorageWith(bc)) {
        target = beta == T(0) ? NDArray::empty(c.dtype(), c.shape()) : c.copy();
        asMatrixArg(target, C);
        copied = true;
    }
    if (beta == T(0)) zeroFill(target);
    const auto ta = A.trans ? CblasTrans : CblasNoTrans, tb = B.trans ? CblasTrans : CblasNoTrans;
    const int M = static_cast<int>(m), N = static_cast<int>(n), K = static_cast<int>(k);
    if constexpr (std::is_same_v<T, float>)
        cblas_sgemm(CblasRowMajor, ta, tb, M, N, K, alpha, A.p, A.ld, B.p, B.ld, beta, C.p, C.ld);
    else
        cblas_dgemm(CblasRowMajor, ta, tb, M, N, K, alpha, A.p, A.ld, B.p, B.ld, beta, C.p, C.ld);
    if (copied) c.assign(target);
}

template <typename T>
void gemvT(T alpha, const NDArray& a, const NDArray& x, T beta, const NDArray& y) {
    const int64_t m = a.dim(0), n = a.dim(1);
    if (m == 0) return;
    NDArray yc = y;
    T* py = nullptr;
    int incy = 1;
    bool copied = false;
    if (!asVectorArg(yc, py, incy) || yc.sharesStorageWith(a) || yc.sharesStorageWith(x)) {
        yc = beta == T(0) ? NDArray::empty(y.dtype(), y.shape()) : y.copy();
        asVectorArg(yc, py, incy);
        copied = true;
    }
    if (beta == T(0)) zeroFill(yc);
    if (n > 0) {
        requireInt(m, "dimension");
        requireInt(n, "dimension");
        NDArray ac = a, xc = x;
        MatrixArg<T> A;
        if (!asMatrixArg(ac, A)) {
            ac = a.copy();
            asMatrixArg(ac, A);
        }
        T* px = nullptr;
        int incx = 1;
        if (!asVectorArg(xc, px, incx)) {
            xc = x.copy();
            asVectorArg(xc, px, incx);
        }
        // A transposed layout is the row-major (n, m) matrix A^T: y = alpha (A^T)^T x.
        const int rows = static_cast<int>(A.trans ? n : m), cols = static_cast<int>(A.trans ? m : n);
        const auto t = A.trans ? CblasTrans : CblasNoTrans;
        if constexpr (std::is_same_v<T, float>)
            cblas_sgemv(CblasRowMajor, t, rows, cols, alpha, A.p, A.ld, px, incx, beta, py, incy);
        else
            cblas_dgemv(CblasRowMajor, t, rows, cols, alpha, A.p, A.ld, px, incx, beta, py, incy);
    } else if (beta != T(0) && beta != T(1)) {
        // An empty product: y = beta * y.
        if constexpr (std::is_same_v<T, float>) cblas_sscal(static_cast<int>(m), beta, py, incy);
        else cblas_dscal(static_cast<int>(m), beta, py, incy);
    }
    if (copied) y.assign(yc);
}

template <typename T> void gerT(T alpha, const NDArray& x, const NDArray& y, const NDArray& a) {
    const int64_t m = a.dim(0), n = a.dim(1);
    if (m == 0 || n == 0) return;
    requireInt(m, "dimension");
    requireInt(n, "dimension");
    NDArray xc = x, yc = y, target = a;
    T *px = nullptr, *py = nullptr;
    int incx = 1, incy = 1;
    if (!asVectorArg(xc, px, incx) || xc.sharesStorageWith(a)) {
        xc = x.copy();
        asVectorArg(xc, px, incx);
    }
    if (!asVectorArg(yc, py, incy) || yc.sharesStorageWith(a)) {
        yc = y.copy();
        asVectorArg(yc, py, incy);
    }
    MatrixArg<T> A;
    bool copied = false;
    if (!asMatrixArg(target, A)) {
        target = a.copy();
        asMatrixArg(target, A);
        copied = true;
    }
    // A transposed layout holds A^T (n, m): A^T += alpha * outer(y, x).
    if (A.trans) {
        std::swap(px, py);
        std::swap(incx, incy);
    }
    const int rows = static_cast<int>(A.trans ? n : m), cols = static_cast<int>(A.trans ? m : n);
    if constexpr (std::is_same_v<T, float>) cblas_sger(CblasRowMajor, rows, cols, alpha, px, incx, py, incy, A.p, A.ld);
    else cblas_dger(CblasRowMajor, rows, cols, alpha, px, incx, py, incy, A.p, A.ld);
    if (copied) a.assign(target);
}

template <typename T> double dotT(const NDArray& x, const NDArray& y) {
    const int64_t n = x.dim(0);
    if (n == 0) return 0.0;
    requireInt(n, "length");
    NDArray xc = x, yc = y;
    T *px = nullptr, *py = nullptr;
    int incx = 1, incy = 1;
    if (!asVectorArg(xc, px, incx)) {
        xc = x.copy();
        asVectorArg(xc, px, incx);
    }
    if (!asVectorArg(yc, py, incy)) {
        yc = y.copy();
        asVectorArg(yc, py, incy);
    }
    if constexpr (std::is_same_v<T, float>) return cblas_sdot(static_cast<int>(n), px, incx, py, incy);
    else return cblas_ddot(static_cast<int>(n), px, incx, py, incy);
}

void requireFloat(const NDArray& a, const char* what) {
    if (!hasBlasDType(a.dtype()))
        throw ExecError(std::string("BLAS ") + what + " needs float32 or float64, got " + std::string(dtypeName(a.dtype())));
}

} // namespace

bool hasBlasDType(DType d) { return d == DType::Float32 || d == DType::Float64; }

void gemm(double alpha, const NDArray& a, const NDArray& b, double beta, const NDArray& c) {
    requireFloat(c, "gemm");
    if (a.ndim() != 2 || b.ndim() != 2 || c.ndim() != 2 || a.dim(1) != b.dim(0) || c.dim(0) != a.dim(0) ||
        c.dim(1) != b.dim(1))
        throw ExecError("gemm: shapes " + shapeToString(a.shape()) + " @ " + shapeToString(b.shape()) + " into " +
                        shapeToString(c.shape()) + " are not aligned");
    if (c.dtype() == DType::Float32) gemmT<float>(static_cast<float>(alpha), a, b, static_cast<float>(beta), c);
    else gemmT<double>(alpha, a, b, beta, c);
}

void gemv(double alpha, const NDArray& a, const NDArray& x, double beta, const NDArray& y) {
    requireFloat(y, "gemv");
    if (a.ndim() != 2 || x.ndim() != 1 || y.ndim() != 1 || a.dim(1) != x.dim(0) || a.dim(0) != y.dim(0))
        throw ExecError("gemv: shapes " + shapeToString(a.shape()) + " @ " + shapeToString(x.shape()) + " into " +
                        shapeToString(y.shape()) + " are not aligned");
    if (y.dtype() == DType::Float32) gemvT<float>(static_cast<float>(alpha), a, x, static_cast<float>(beta), y);
    else gemvT<double>(alpha, a, x, beta, y);
}

void ger(double alpha, const NDArray& x, const NDArray& y, const NDArray& a) {
    requireFloat(a, "ger");
    if (a.ndim() != 2 || x.ndim() != 1 || y.ndim() != 1 || a.dim(0) != x.dim(0) || a.dim(1) != y.dim(0))
        throw ExecError("ger: outer product of shapes " + shapeToString(x.shape()) + " and " + shapeToString(y.shape()) +
                        " does not fit " + shapeToString(a.shape()));
    if (a.dtype() == DType::Float32) gerT<float>(static_cast<float>(alpha), x, y, a);
    else gerT<double>(alpha, x, y, a);
}

double dot(const NDArray& x, const NDArray& y) {
    requireFloat(x, "dot");
    if (x.ndim() != 1 || y.ndim() != 1 || x.dim(0) != y.dim(0))
        throw ExecError("dot: shapes " + shapeToString(x.shape()) + " and " + shapeToString(y.shape()) + " are not aligned");
    return x.dtype() == DType::Float32 ? dotT<float>(x, y) : dotT<double>(x, y);
}

} // namespace tl::blas
