// SolveDiscreteARE (pt.linalg.solve_discrete_are): the stabilizing solution X of the
// discrete algebraic Riccati equation
//     A^T X A - X - (A^T X B) (R + B^T X B)^-1 (B^T X A) + Q = 0,
// by SciPy's method (scipy.linalg.solve_discrete_are, which PyTensor's perform calls):
//  1. the extended symplectic pencil (H, J) of size 2m + n, balanced by powers of two that
//     keep its structure (gebal on |H| + |J|, Benner's diag(D, D^-1) correction);
//  2. deflated by the R columns: H, J multiplied by the last 2m columns of the full Q of
//     H[:, 2m:] transposed;
//  3. the QZ decomposition with the eigenvalues inside the unit circle ordered first
//     (gges), whose first m right Schur vectors [U00; U10] span the stable subspace;
//  4. X = U10 U00^-1, unscaled, symmetrized; refused where U00 is singular to working
//     precision or U00^T U10 is far from symmetric (eigenvalues near the unit circle),
//     with SciPy's messages.
// Computed in float64 (SciPy does for every real input) and cast to the upcast of the
// four dtypes, PyTensor's output type. A Blockwise core op, as PyTensor applies it.
#include "ops/ArrayOpUtil.h"
#include "ops/LapackCalls.h"
#include "ops/Linalg.h"
#include "ops/LinalgDense.h"
#include "ops/LinalgOp.h"

#include <cmath>
#include <limits>

namespace tl {

namespace {

using Mat = NDArray;  // a C-contiguous float64 matrix

using dense::at;
using dense::zeros;

// m - m^T and (m + m^T) / 2 of a square m.
Mat skew(const Mat& m) {
    Mat d = zeros(m.dim(0), m.dim(0));
    for (int64_t i = 0; i < m.dim(0); ++i)
        for (int64_t j = 0; j < m.dim(0); ++j) at(d, i, j) = at(m, i, j) - at(m, j, i);
    return d;
}
Mat symmetrized(const Mat& m) {
    Mat s = zeros(m.dim(0), m.dim(0));
    for (int64_t i = 0; i < m.dim(0); ++i)
        for (int64_t j = 0; j < m.dim(0); ++j) at(s, i, j) = 0.5 * (at(m, i, j) + at(m, j, i));
    return s;
}

// SciPy's check that q and r are symmetric: ||M - M^T||_1 <= 100 spacing(||M||_1).
void requireSymmetric(const Mat& m, const char* name) {
    const double n = dense::norm1(m);
    if (dense::norm1(skew(m)) > 100.0 * (std::nextafter(n, std::numeric_limits<double>::infinity()) - n))
        throw ExecError(std::string("SolveDiscreteARE: Matrix ") + name + " should be symmetric");
}

// numpy.allclose(s, 1).
bool allOnes(const std::vector<double>& s) {
    for (double v : s)
        if (std::fabs(v - 1.0) > 1e-8 + 1e-5) return false;
    return true;
}

// The first k columns of the full orthogonal factor of the r x c matrix a, all r of them
// when k = r (geqrf + orgqr).
Mat fullQ(const Mat& a, linalg::Workspace& ws, const std::string& op) {
    const int r = static_cast<int>(a.dim(0)), c = static_cast<int>(a.dim(1));
    double* q = ws.get<double>(0, static_cast<size_t>(r) * r);
    std::fill(q, q + static_cast<size_t>(r) * r, 0.0);
    linalg::loadColMajor(a, q, r);
    double* tau = ws.get<double>(1, static_cast<size_t>(std::max(1, std::min(r, c))));
    if (lapack::geqrf<double>(r, c, q, r, tau, ws) != 0 || lapack::orgqr<double>(r, r, std::min(r, c), q, r, tau, ws) != 0)
        throw ExecError(op + ": the QR factorization failed");
    Mat out = zeros(r, r);
    linalg::storeColMajor(q, r, out);
    return out;
}

Mat solveDare(Mat a, Mat b, Mat q, Mat r, bool enforceQSymmetric, linalg::Workspace& ws) {
    const std::string op = "SolveDiscreteARE";
    const int64_t m = a.dim(0), n = b.dim(1), N = 2 * m + n;
    if (enforceQSymmetric) q = symmetrized(q);
    requireSymmetric(q, "q");
    requireSymmetric(r, "r");
    if (m == 0) return zeros(0, 0);
    Mat H = zeros(N, N), J = zeros(N, N);
    for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < m; ++j) {
            at(H, i, j) = at(a, i, j);
            at(H, m + i, j) = -at(q, i, j);
            at(J, m + i, m + j) = at(a, j, i);
        }
        for (int64_t j = 0; j < n; ++j) {
            at(H, i, 2 * m + j) = at(b, i, j);
            at(J, 2 * m + j, m + i) = -at(b, i, j);
        }
        at(H, m + i, m + i) = 1.0;
        at(J, i, i) = 1.0;
    }
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) at(H, 2 * m + i, 2 * m + j) = at(r, i, j);

    // Balancing that keeps the symplectic structure.
    std::vector<double> sca(static_cast<size_t>(N), 1.0);
    {
        Mat M = zeros(N, N);
        for (int64_t i = 0; i < N; ++i)
            for (int64_t j = 0; j < N; ++j) at(M, i, j) = i == j ? 0.0 : std::fabs(at(H, i, j)) + std::fabs(at(J, i, j));
        double* mc = ws.get<double>(0, static_cast<size_t>(N) * N);
        linalg::loadColMajor(M, mc, N);
        if (lapack::gebalScale<double>(static_cast<int>(N), mc, static_cast<int>(N), sca.data()) != 0)
            throw ExecError(op + ": balancing failed");
    }
    const bool balanced = !allOnes(sca);
    if (balanced) {
        std::vector<double> lg(sca.size());
        for (size_t i = 0; i < sca.size(); ++i) lg[i] = std::log2(sca[i]);
        for (int64_t i = 0; i < m; ++i) {
            const double s = std::nearbyint((lg[static_cast<size_t>(m + i)] - lg[static_cast<size_t>(i)]) / 2);  // half to even
            sca[static_cast<size_t>(i)] = std::exp2(s);
            sca[static_cast<size_t>(m + i)] = std::exp2(-s);
        }
        for (int64_t i = 0; i < N; ++i)
            for (int64_t j = 0; j < N; ++j) {
                const double f = sca[static_cast<size_t>(i)] / sca[static_cast<size_t>(j)];
                at(H, i, j) *= f;
                at(J, i, j) *= f;
            }
    }

    // Deflation by the R columns.
    const Mat Q = fullQ(H.view({N, n}, {N, 1}, 2 * m).copy(), ws, op);
    const Mat QnT = dense::transposedView(Q.view({N, 2 * m}, {N, 1}, n));
    const Mat H2 = dense::matmul(QnT, H.view({N, 2 * m}, {N, 1}, 0)), J2 = dense::matmul(QnT, J.view({N, 2 * m}, {N, 1}, 0));

    // Ordered QZ: the stable deflating subspace first.
    const int k = static_cast<int>(2 * m);
    double* hc = ws.get<double>(0, static_cast<size_t>(k) * k);
    double* jc = ws.get<double>(1, static_cast<size_t>(k) * k);
    double* vsl = ws.get<double>(2, static_cast<size_t>(k) * k);
    double* vsr = ws.get<double>(3, static_cast<size_t>(k) * k);
    linalg::loadColMajor(H2, hc, k);
    linalg::loadColMajor(J2, jc, k);
    int sdim = 0;
    if (lapack::ggesInsideUnitCircle<double>(k, hc, k, jc, k, &sdim, vsl, k, vsr, k, ws) != 0)
        throw ExecError(op + ": the QZ decomposition failed");
    Mat u00 = zeros(m, m), u10 = zeros(m, m);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < m; ++j) {
            at(u00, i, j) = vsr[i + j * k];
            at(u10, i, j) = vsr[m + i + j * k];
        }

    // X = U10 U00^-1, from U00^T X^T = U10^T; SciPy's finiteness check on U00's U factor.
    const int mi = static_cast<int>(m);
    double* lu = ws.get<double>(4, static_cast<size_t>(m) * m);
    int* piv = ws.ints(0, static_cast<size_t>(m));
    linalg::loadColMajor(u00, lu, m);
    if (lapack::getrf<double>(mi, mi, lu, mi, piv) > 0) throw ExecError(op + ": Failed to find a finite solution.");
    {
        double* uu = ws.get<double>(5, static_cast<size_t>(m) * m);
        for (int64_t j = 0; j < m; ++j)
            for (int64_t i = 0; i < m; ++i) uu[i + j * m] = i <= j ? lu[i + j * m] : 0.0;
        std::vector<double> s(static_cast<size_t>(m));
        if (lapack::gesdd<double>('N', mi, mi, uu, mi, s.data(), nullptr, 1, nullptr, 1, ws) != 0 || s.back() / s.front() < std::numeric_limits<double>::epsilon())
            throw ExecError(op + ": Failed to find a finite solution.");
    }
    double* xt = ws.get<double>(5, static_cast<size_t>(m) * m);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < m; ++j) xt[i + j * m] = at(u10, j, i);  // U10^T, column-major
    lapack::getrs<double>('T', mi, mi, lu, mi, piv, xt, mi);

    // Symmetry of U00^T U10 (SciPy's proof of success).
    Mat usym = dense::matmul(dense::transposedView(u00), u10);
    const double nsym = dense::norm1(usym);
    if (dense::norm1(skew(usym)) > std::max(std::nextafter(1000.0, 2000.0) - 1000.0, 0.1 * nsym))
        throw ExecError(op + ": The associated symplectic pencil has eigenvalues too close to the unit circle");

    Mat x = zeros(m, m);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < m; ++j) {
            // xt holds X^T column-major: X^T[j, i] = xt[j + i*m].
            double v = xt[j + i * m];
            if (balanced) v *= sca[static_cast<size_t>(i)] * sca[static_cast<size_t>(j)];
            at(x, i, j) = v;
        }
    return symmetrized(x);
}

class SolveDiscreteAREOp final : public LinalgOp {
public:
    explicit SolveDiscreteAREOp(bool enforceQSymmetric)
        : LinalgOp(OpKind::SolveDiscreteARE, "SolveDiscreteARE", {{"enforce_Q_symmetric", enforceQSymmetric}}) {}
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        arrayop::requireArity(in, 4, "SolveDiscreteARE");
        DType d = in[0]->dtype;
        const char* names[] = {"A", "B", "Q", "R"};
        for (size_t i = 0; i < 4; ++i) {
            linalg::requireNdim(*in[i], 2, std::string("SolveDiscreteARE input ") + names[i]);
            d = promote(d, in[i]->dtype);
        }
        return {Type::tensor(d, {kUnknownDim, kUnknownDim})};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        const int64_t m = in[0].dim(0), n = in[1].ndim() == 2 ? in[1].dim(1) : -1;
        const bool ok = in[0].dim(1) == m && in[1].dim(0) == m && in[2].dim(0) == m && in[2].dim(1) == m && in[3].dim(0) == n &&
                        in[3].dim(1) == n;
        if (!ok)
            throw ExecError("SolveDiscreteARE: A must be m x m, B m x n, Q m x m and R n x n, got " + shapeToString(in[0].shape()) +
                            ", " + shapeToString(in[1].shape()) + ", " + shapeToString(in[2].shape()) + ", " +
                            shapeToString(in[3].shape()));
        DType dt = in[0].dtype();
        for (const NDArray& a : in) dt = promote(dt, a.dtype());
        s = {Shape{m, m}};
        d = {dt};
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace& ws) const override {
        for (const NDArray& a : in) linalg::checkFinite(true, a, "SolveDiscreteARE");
        const Mat x = solveDare(in[0].astype(DType::Float64), in[1].astype(DType::Float64), in[2].astype(DType::Float64),
                                in[3].astype(DType::Float64), boolProp("enforce_Q_symmetric"), ws);
        const int64_t m = x.dim(0);
        double* col = ws.get<double>(0, static_cast<size_t>(std::max<int64_t>(m * m, 1)));
        linalg::loadColMajor(x, col, std::max<int64_t>(m, 1));
        linalg::storeColMajor(col, std::max<int64_t>(m, 1), out[0]);
    }
};

} // namespace

OpPtr makeSolveDiscreteARE(bool enforceQSymmetric) { return std::make_shared<SolveDiscreteAREOp>(enforceQSymmetric); }

OpPtr makeOpSolveDiscreteARE(const nlohmann::json& p, std::shared_ptr<const Graph>) {
    PropReader r(p, "SolveDiscreteARE");
    OpPtr op = makeSolveDiscreteARE(r.getBool("enforce_Q_symmetric", false));
    r.check(*op);
    return op;
}

} // namespace tl
