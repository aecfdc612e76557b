// ExpmGrad (slinalg.py): the gradient wrt A of Expm(A) from the output gradient gA,
// through the eigendecomposition A = V diag(w) V^-1 (Kalbfleisch and Lawless 1985):
//     U = (V^-1)^T,  X[i, j] = (e^w_i - e^w_j) / (w_i - w_j),  X[i, i] = e^w_i,
//     grad = real(U ((V^T gA U) * X) V^T).
// A real matrix has complex eigenpairs in general, so the arithmetic is complex:
// LAPACK's dgeev for the eigenpairs (SciPy's eig), zgetrf/zgetri for V^-1 (SciPy's
// inv), cblas_zgemm for the products. Like PyTensor, it divides by w_i - w_j as it
// stands: a repeated eigenvalue gives NaN, and a defective A (V singular) raises.
// Computed in float64 and cast to A's dtype, as PyTensor's astype does.
#include "ops/ArrayOpUtil.h"
#include "ops/Linalg.h"
#include "ops/LinalgOp.h"

#include <cblas.h>
#include <lapacke.h>

#include <complex>
#include <vector>

namespace tl {

namespace {

using Complex = std::complex<double>;

// LAPACKE's complex type, which std::complex<double> is layout-compatible with.
lapack_complex_double* lapackData(Complex* p) { return reinterpret_cast<lapack_complex_double*>(p); }

// The n x n column-major complex product op(a) * op(b), op each 'N' or 'T'.
std::vector<Complex> product(const std::vector<Complex>& a, CBLAS_TRANSPOSE ta, const std::vector<Complex>& b,
                             CBLAS_TRANSPOSE tb, int n) {
    std::vector<Complex> c(static_cast<size_t>(n) * n);
    const Complex one(1.0, 0.0), zero(0.0, 0.0);
    cblas_zgemm(CblasColMajor, ta, tb, n, n, n, &one, a.data(), n, b.data(), n, &zero, c.data(), n);
    return c;
}

class ExpmGradOp final : public LinalgOp {
public:
    ExpmGradOp() : LinalgOp(OpKind::ExpmGrad, "ExpmGrad", {}) {}
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        arrayop::requireArity(in, 2, "ExpmGrad");
        linalg::requireNdim(*in[0], 2, "ExpmGrad input A");
        linalg::requireNdim(*in[1], 2, "ExpmGrad input gA");
        // PyTensor: matrix(dtype=A.dtype), no static shape.
        return {Type::tensor(in[0]->dtype, {kUnknownDim, kUnknownDim})};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        linalg::requireSquare(in[0], "ExpmGrad");
        if (in[1].shape() != in[0].shape())
            throw ExecError("ExpmGrad: gA has shape " + shapeToString(in[1].shape()) + ", expected A's " +
                            shapeToString(in[0].shape()));
        s = {in[0].shape()};
        d = {in[0].dtype()};
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace& ws) const override {
        const int n = static_cast<int>(in[0].dim(0));
        if (n == 0) return;
        // scipy.linalg.eig checks its input.
        linalg::checkFinite(true, in[0], "ExpmGrad");
        const size_t nn = static_cast<size_t>(n) * n;
        double* a = ws.get<double>(0, nn);
        double* vr = ws.get<double>(1, nn);
        double* wr = ws.get<double>(2, static_cast<size_t>(n));
        double* wi = ws.get<double>(3, static_cast<size_t>(n));
        linalg::loadColMajor(in[0], a, n);
        eigen(n, a, wr, wi, vr, ws);

        // V: dgeev stores a complex pair's vectors as the real and imaginary columns.
        // V: dgeev stores a conjugate pair (positive imaginary part first) in two
        // consecutive columns, the real and the imaginary parts of the first vector.
        std::vector<Complex> w(static_cast<size_t>(n)), v(nn);
        for (int j = 0; j < n;) {
            w[j] = Complex(wr[j], wi[j]);
            const size_t c = static_cast<size_t>(j) * n;
            if (wi[j] == 0.0 || j + 1 == n) {
                for (int i = 0; i < n; ++i) v[c + i] = vr[c + i];
                ++j;
                continue;
            }
            w[j + 1] = Complex(wr[j + 1], wi[j + 1]);
            for (int i = 0; i < n; ++i) {
                v[c + i] = Complex(vr[c + i], vr[c + n + i]);
                v[c + n + i] = Complex(vr[c + i], -vr[c + n + i]);
            }
            j += 2;
        }
        const std::vector<Complex> u = inverseTransposed(v, n);

        // X, then (V^T gA U) * X elementwise.
        std::vector<Complex> ga(nn);
        {
            double* g = ws.get<double>(4, nn);
            linalg::loadColMajor(in[1], g, n);
            for (size_t k = 0; k < nn; ++k) ga[k] = g[k];
        }
        std::vector<Complex> m = product(product(v, CblasTrans, ga, CblasNoTrans, n), CblasNoTrans, u, CblasNoTrans, n);
        std::vector<Complex> ew(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) ew[i] = std::exp(w[i]);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) m[i + static_cast<size_t>(j) * n] *= i == j ? ew[i] : (ew[i] - ew[j]) / (w[i] - w[j]);
        const std::vector<Complex> y = product(product(u, CblasNoTrans, m, CblasNoTrans, n), CblasNoTrans, v, CblasTrans, n);

        double* re = ws.get<double>(5, nn);
        for (size_t k = 0; k < nn; ++k) re[k] = y[k].real();
        linalg::storeColMajor(re, n, out[0]);
    }

private:
    static void eigen(int n, double* a, double* wr, double* wi, double* vr, linalg::Workspace& ws) {
        double query = 0, vl = 0;
        int info = LAPACKE_dgeev_work(LAPACK_COL_MAJOR, 'N', 'V', n, a, n, wr, wi, &vl, 1, vr, n, &query, -1);
        if (info == 0) {
            const int lwork = std::max(4 * n, static_cast<int>(query) + 1);
            info = LAPACKE_dgeev_work(LAPACK_COL_MAJOR, 'N', 'V', n, a, n, wr, wi, &vl, 1, vr, n,
                                      ws.get<double>(6, static_cast<size_t>(lwork)), lwork);
        }
        if (info > 0)
            throw ExecError("ExpmGrad: eig algorithm (geev) did not converge (only eigenvalues with order >= " +
                            std::to_string(info) + " have converged)");
        if (info < 0) throw ExecError("ExpmGrad: LAPACK rejected argument " + std::to_string(-info) + " of dgeev");
    }
    // (V^-1)^T, as SciPy's inv (getrf, getri): raises when V is singular.
    static std::vector<Complex> inverseTransposed(const std::vector<Complex>& v, int n) {
        std::vector<Complex> t(v.size());
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) t[j + static_cast<size_t>(i) * n] = v[i + static_cast<size_t>(j) * n];
        std::vector<int> piv(static_cast<size_t>(n));
        int info = LAPACKE_zgetrf_work(LAPACK_COL_MAJOR, n, n, lapackData(t.data()), n, piv.data());
        if (info > 0) linalg::throwSingular("ExpmGrad", info, "the eigenvectors of A are singular (A is defective)");
        Complex query;
        info = LAPACKE_zgetri_work(LAPACK_COL_MAJOR, n, lapackData(t.data()), n, piv.data(), lapackData(&query), -1);
        std::vector<Complex> work(static_cast<size_t>(std::max(n, static_cast<int>(query.real()) + 1)));
        if (info == 0)
            info = LAPACKE_zgetri_work(LAPACK_COL_MAJOR, n, lapackData(t.data()), n, piv.data(), lapackData(work.data()),
                                       static_cast<int>(work.size()));
        if (info != 0) throw ExecError("ExpmGrad: LAPACK could not invert the eigenvectors (info " + std::to_string(info) + ")");
        return t;  // inv(V^T) = inv(V)^T
    }
};

} // namespace

OpPtr makeExpmGrad() {
    static const OpPtr op = std::make_shared<ExpmGradOp>();
    return op;
}

OpPtr makeOpExpmGrad(const nlohmann::json& p, std::shared_ptr<const Graph>) {
    PropReader(p, "ExpmGrad").check(*makeExpmGrad());
    return makeExpmGrad();
}

} // namespace tl
