// The spectral ops: Eigh (numpy.linalg.eigh, syevd), Eigvalsh (scipy.linalg.eigvalsh,
// standard or generalized with B, syevd / sygvd), SVD (numpy.linalg.svd, gesdd),
// MatrixPinv (numpy.linalg.pinv: the SVD, or eigh when hermitian, with NumPy's
// cutoff 1e-15 * max(s)) and Lstsq (numpy.linalg.lstsq, gelsd).
#include "ops/ArrayOpUtil.h"
#include "ops/LapackCalls.h"
#include "ops/Linalg.h"
#include "ops/LinalgOp.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tl {

namespace {

void requireConverged(int info, const std::string& op, const char* what) {
    if (info > 0) throw ExecError(op + ": " + what + " did not converge (LAPACK info " + std::to_string(info) + ")");
    if (info < 0) throw ExecError(op + ": LAPACK rejected argument " + std::to_string(-info));
}

// ---------------------------------------------------------------- Eigh

class EighOp final : public LinalgOp {
public:
    explicit EighOp(std::vector<OpProp> props) : LinalgOp(OpKind::Eigh, "Eigh", std::move(props)) {}
    static DType outDType(DType in) { return in == DType::Float32 ? DType::Float32 : DType::Float64; }
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        arrayop::requireArity(in, 1, "Eigh");
        linalg::requireNdim(*in[0], 2, "Eigh input");
        const DType d = outDType(in[0]->dtype);
        return {Type::tensor(d, {kUnknownDim}), Type::tensor(d, {kUnknownDim, kUnknownDim})};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        linalg::requireSquare(in[0], "Eigh");
        s = {{in[0].dim(0)}, in[0].shape()};
        d.assign(2, outDType(in[0].dtype()));
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace& ws) const override {
        const int n = static_cast<int>(in[0].dim(0)), ld = std::max(n, 1);
        double* a = ws.get<double>(0, static_cast<size_t>(ld) * ld);
        double* w = ws.get<double>(1, static_cast<size_t>(ld));
        linalg::loadColMajor(in[0], a, ld);
        if (n > 0) requireConverged(lapack::syevd<double>('V', stringProp("UPLO")[0], n, a, ld, w, ws), "Eigh", "the eigenvalue computation");
        linalg::storeVector(w, out[0]);
        linalg::storeColMajor(a, ld, out[1]);
    }
};

// ---------------------------------------------------------------- Eigvalsh

class EigvalshOp final : public LinalgOp {
public:
    explicit EigvalshOp(std::vector<OpProp> props) : LinalgOp(OpKind::Eigvalsh, "Eigvalsh", std::move(props)) {}
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        // eigvalsh(a) (PyTensor drops a None b) or eigvalsh(a, b).
        if (in.size() != 1 && in.size() != 2) throw OpTypeError("Eigvalsh takes a, or a and b");
        DType d = in[0]->dtype;
        for (size_t i = 0; i < in.size(); ++i) {
            linalg::requireNdim(*in[i], 2, i ? "Eigvalsh b" : "Eigvalsh a");
            d = promote(d, in[i]->dtype);
        }
        return {Type::tensor(d, {kUnknownDim})};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        DType dt = in[0].dtype();
        for (const NDArray& a : in) {
            linalg::requireSquare(a, "Eigvalsh");
            dt = promote(dt, a.dtype());
        }
        if (in.size() == 2 && in[1].dim(0) != in[0].dim(0))
            throw ExecError("Eigvalsh: a " + shapeToString(in[0].shape()) + " and b " + shapeToString(in[1].shape()) +
                            " must have the same shape");
        s = {{in[0].dim(0)}};
        d = {dt};
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace& ws) const override {
        bool single = true;
        for (const NDArray& a : in) single = single && a.dtype() == DType::Float32;
        if (single) run<float>(in, out, ws);
        else run<double>(in, out, ws);
    }

private:
    template <typename T> void run(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace& ws) const {
        for (const NDArray& a : in) linalg::checkFinite(true, a, "Eigvalsh");  // SciPy's check_finite default
        const int n = static_cast<int>(in[0].dim(0)), ld = std::max(n, 1);
        const char ul = linalg::uplo(boolProp("lower"));
        T* a = ws.get<T>(0, static_cast<size_t>(ld) * ld);
        T* w = ws.get<T>(1, static_cast<size_t>(ld));
        linalg::loadColMajor(in[0], a, ld);
        if (n > 0) {
            if (in.size() == 1) {
                requireConverged(lapack::syevd<T>('N', ul, n, a, ld, w, ws), "Eigvalsh", "the eigenvalue computation");
            } else {
                T* b = ws.get<T>(2, static_cast<size_t>(ld) * ld);
                linalg::loadColMajor(in[1], b, ld);
                const int info = lapack::sygvd<T>('N', ul, n, a, ld, b, ld, w, ws);
                if (info > n)
                    throw ExecError("Eigvalsh: the leading minor of order " + std::to_string(info - n) +
                                    " of B is not positive definite");
                requireConverged(info, "Eigvalsh", "the eigenvalue computation");
            }
        }
        linalg::storeVector(w, out[0]);
    }
};

// ---------------------------------------------------------------- SVD

// PyTensor's SVD dtypes: signed ints become the float of their size, others stay.
DType svdDType(DType in, bool atRunTime) {
    switch (in) {
    case DType::Int32: return DType::Float32;
    case DType::Int64: return DType::Float64;
    case DType::Int16:
        if (atRunTime) throw ExecError("SVD: an int16 input gives float16, which tensorlens has no dtype for");
        throw OpTypeError("SVD: an int16 input gives float16, which tensorlens has no dtype for");
    case DType::Int8:
        if (atRunTime) throw ExecError("SVD: PyTensor cannot type an int8 input (there is no 1-byte float)");
        throw OpTypeError("SVD: PyTensor cannot type an int8 input (there is no 1-byte float)");
    default: return in;
    }
}

// The SVD of an m x n matrix in float64 (column-major): u (m x ucols), s (k), vt (vrows x n).
struct SvdResult {
    double *u = nullptr, *s = nullptr, *vt = nullptr;
    int ldu = 1, ldvt = 1;
};

SvdResult svdOf(const NDArray& x, char jobz, linalg::Workspace& ws, const std::string& op) {
    const int m = static_cast<int>(x.dim(0)), n = static_cast<int>(x.dim(1)), k = std::min(m, n), ld = std::max(m, 1);
    double* a = ws.get<double>(0, static_cast<size_t>(ld) * std::max(n, 1));
    linalg::loadColMajor(x, a, ld);
    SvdResult r;
    r.s = ws.get<double>(1, static_cast<size_t>(std::max(k, 1)));
    const int ucols = jobz == 'A' ? m : k, vrows = jobz == 'A' ? n : k;
    r.ldu = std::max(m, 1);
    r.ldvt = std::max(vrows, 1);
    r.u = ws.get<double>(2, static_cast<size_t>(r.ldu) * std::max(ucols, 1));
    r.vt = ws.get<double>(3, static_cast<size_t>(r.ldvt) * std::max(n, 1));
    if (k > 0) requireConverged(lapack::gesdd<double>(jobz, m, n, a, ld, r.s, r.u, r.ldu, r.vt, r.ldvt, ws), op, "SVD");
    else if (jobz != 'N') {
        // An empty matrix: the full factors are identities.
        for (int j = 0; j < ucols; ++j)
            for (int i = 0; i < m; ++i) r.u[i + static_cast<size_t>(j) * r.ldu] = i == j;
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < vrows; ++i) r.vt[i + static_cast<size_t>(j) * r.ldvt] = i == j;
    }
    return r;
}

class SVDOp final : public LinalgOp {
public:
    explicit SVDOp(std::vector<OpProp> props) : LinalgOp(OpKind::SVD, "SVD", std::move(props)) {}
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        arrayop::requireArity(in, 1, "SVD");
        linalg::requireNdim(*in[0], 2, "The input of svd function");
        const DType d = svdDType(in[0]->dtype, false);
        const Type v = Type::tensor(d, {kUnknownDim}), m = Type::tensor(d, {kUnknownDim, kUnknownDim});
        if (boolProp("compute_uv")) return {m, v, m};
        return {v};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        if (in[0].ndim() != 2) throw ExecError("SVD takes a matrix, got shape " + shapeToString(in[0].shape()));
        const int64_t m = in[0].dim(0), n = in[0].dim(1), k = std::min(m, n);
        const DType dt = svdDType(in[0].dtype(), true);
        if (!boolProp("compute_uv")) s = {{k}};
        else if (boolProp("full_matrices")) s = {{m, m}, {k}, {n, n}};
        else s = {{m, k}, {k}, {k, n}};
        d.assign(s.size(), dt);
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace& ws) const override {
        const bool uv = boolProp("compute_uv");
        const SvdResult r = svdOf(in[0], !uv ? 'N' : boolProp("full_matrices") ? 'A' : 'S', ws, "SVD");
        if (!uv) return linalg::storeVector(r.s, out[0]);
        linalg::storeColMajor(r.u, r.ldu, out[0]);
        linalg::storeVector(r.s, out[1]);
        linalg::storeColMajor(r.vt, r.ldvt, out[2]);
    }
};

// ---------------------------------------------------------------- MatrixPinv

class MatrixPinvOp final : public LinalgOp {
public:
    explicit MatrixPinvOp(std::vector<OpProp> props) : LinalgOp(OpKind::MatrixPinv, "MatrixPinv", std::move(props)) {}
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        arrayop::requireArity(in, 1, "MatrixPinv");
        linalg::requireNdim(*in[0], 2, "MatrixPinv input");
        // PyTensor types the (n, m) result like the (m, n) input; tensorlens keeps that
        // where it holds (square) and leaves the dims unknown where it would be wrong.
        const Type& x = *in[0];
        if (x.shape[0] != kUnknownDim && x.shape[0] == x.shape[1]) return {x};
        return {Type::tensor(x.dtype, {x.shape[1] == x.shape[0] ? x.shape[0] : kUnknownDim,
                                       x.shape[1] == x.shape[0] ? x.shape[1] : kUnknownDim})};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        if (in[0].ndim() != 2) throw ExecError("MatrixPinv takes a matrix, got shape " + shapeToString(in[0].shape()));
        if (boolProp("hermitian")) linalg::requireSquare(in[0], "MatrixPinv (hermitian)");
        s = {{in[0].dim(1), in[0].dim(0)}};
        d = {in[0].dtype()};
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace& ws) const override {
        const int m = static_cast<int>(in[0].dim(0)), n = static_cast<int>(in[0].dim(1)), k = std::min(m, n);
        // u (m x k), s (k), vt (k x n), as numpy's svd(full_matrices=False) or, hermitian,
        // from eigh: s = |w| descending, u its vectors, vt = (u * sign(w))^T.
        const double *u, *s, *vt;
        int ldu, ldvt;
        std::vector<double> hu, hs, hvt;
        if (boolProp("hermitian")) {
            const int ld = std::max(n, 1);
            double* a = ws.get<double>(0, static_cast<size_t>(ld) * ld);
            double* w = ws.get<double>(1, static_cast<size_t>(ld));
            linalg::loadColMajor(in[0], a, ld);
            if (n > 0) requireConverged(lapack::syevd<double>('V', 'L', n, a, ld, w, ws), "MatrixPinv", "the eigenvalue computation");
            std::vector<int> order(static_cast<size_t>(n));
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(), [&](int p, int q) { return std::fabs(w[p]) > std::fabs(w[q]); });
            hu.resize(static_cast<size_t>(ld) * n);
            hs.resize(static_cast<size_t>(n));
            hvt.resize(static_cast<size_t>(ld) * n);
            for (int c = 0; c < n; ++c) {
                const int src = order[static_cast<size_t>(c)];
                hs[static_cast<size_t>(c)] = std::fabs(w[src]);
                const double sign = w[src] < 0 ? -1.0 : w[src] > 0 ? 1.0 : 0.0;
                for (int i = 0; i < n; ++i) {
                    hu[i + static_cast<size_t>(c) * ld] = a[i + static_cast<size_t>(src) * ld];
                    hvt[c + static_cast<size_t>(i) * ld] = a[i + static_cast<size_t>(src) * ld] * sign;
                }
            }
            u = hu.data();
            s = hs.data();
            vt = hvt.data();
            ldu = ldvt = ld;
        } else {
            const SvdResult r = svdOf(in[0], 'S', ws, "MatrixPinv");
            u = r.u;
            s = r.s;
            vt = r.vt;
            ldu = r.ldu;
            ldvt = r.ldvt;
        }
        double smax = 0.0;
        for (int i = 0; i < k; ++i) smax = std::max(smax, s[i]);
        const double cutoff = 1e-15 * smax;
        // pinv = vt^T diag(1/s) u^T, an n x m matrix.
        const int ldp = std::max(n, 1);
        std::vector<double> p(static_cast<size_t>(ldp) * std::max(m, 1), 0.0);
        for (int c = 0; c < k; ++c) {
            if (!(s[c] > cutoff)) continue;
            const double inv = 1.0 / s[c];
            for (int j = 0; j < m; ++j) {
                const double uj = u[j + static_cast<size_t>(c) * ldu] * inv;
                for (int i = 0; i < n; ++i) p[i + static_cast<size_t>(j) * ldp] += vt[c + static_cast<size_t>(i) * ldvt] * uj;
            }
        }
        linalg::storeColMajor(p.data(), ldp, out[0]);
    }
};

// ---------------------------------------------------------------- Lstsq

// Not a SliceKernel: NumPy's residuals are empty unless the system is overdetermined
// and of full rank, which is known only after the factorization (PyTensor never
// batches Lstsq either).
class LstsqOp final : public PropsOp {
public:
    LstsqOp() : PropsOp(OpKind::Lstsq, "Lstsq", {}) {}
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        arrayop::requireArity(in, 3, "Lstsq");
        arrayop::requireTensor(*in[0], "Lstsq x");
        arrayop::requireTensor(*in[1], "Lstsq y");
        arrayop::requireTensor(*in[2], "Lstsq rcond");
        // PyTensor's types, whatever the inputs: a float64 matrix (a vector at run time
        // when y is one, as NumPy returns it), float64 residuals, an int64 rank, float64 s.
        return {Type::tensor(DType::Float64, {kUnknownDim, kUnknownDim}), Type::tensor(DType::Float64, {kUnknownDim}),
                Type::tensor(DType::Int64, {}), Type::tensor(DType::Float64, {kUnknownDim})};
    }
    void perform(std::span<const NDArray> in, std::span<NDArray> out) const override {
        const NDArray &x = in[0], &y = in[1];
        if (x.ndim() != 2) throw ExecError("Lstsq: x must be a matrix, got shape " + shapeToString(x.shape()));
        if (y.ndim() != 1 && y.ndim() != 2) throw ExecError("Lstsq: y must be a vector or a matrix, got shape " + shapeToString(y.shape()));
        if (y.dim(0) != x.dim(0))
            throw ExecError("Lstsq: incompatible dimensions: x " + shapeToString(x.shape()) + ", y " + shapeToString(y.shape()));
        if (in[2].size() != 1) throw ExecError("Lstsq: rcond must hold one value");
        linalg::Workspace ws;
        const int m = static_cast<int>(x.dim(0)), n = static_cast<int>(x.dim(1)), k = std::min(m, n);
        const int nrhs = y.ndim() == 2 ? static_cast<int>(y.dim(1)) : 1;
        const int lda = std::max(m, 1), ldb = std::max({m, n, 1});
        double* a = ws.get<double>(0, static_cast<size_t>(lda) * std::max(n, 1));
        double* b = ws.get<double>(1, static_cast<size_t>(ldb) * std::max(nrhs, 1));
        double* sv = ws.get<double>(2, static_cast<size_t>(std::max(k, 1)));
        linalg::loadColMajor(x, a, lda);
        const NDArray yc = y.ndim() == 2 ? y : y.view({y.dim(0), 1}, {y.strides()[0], 0}, y.offset());
        for (int c = 0; c < nrhs; ++c)
            for (int i = m; i < ldb; ++i) b[i + static_cast<size_t>(c) * ldb] = 0.0;
        linalg::loadColMajor(yc, b, ldb);
        // NumPy: rcond < 0 means machine precision, which is also what LAPACK does with it.
        const double rcond = in[2].item();
        int rank = 0;
        if (k > 0 && nrhs > 0) requireConverged(lapack::gelsd<double>(m, n, nrhs, a, lda, b, ldb, sv, rcond, &rank, ws), "Lstsq", "SVD");
        else std::fill(sv, sv + std::max(k, 1), 0.0);
        out[0] = NDArray::empty(DType::Float64, y.ndim() == 2 ? Shape{n, nrhs} : Shape{n});
        const NDArray sol = out[0].ndim() == 2 ? out[0] : out[0].view({n, 1}, {1, 0}, 0);
        linalg::storeColMajor(b, ldb, sol);
        // Residuals: the squared norms of rows n.. of each column, when m > n and x has full rank.
        const bool residuals = m > n && rank == n;
        out[1] = NDArray::zeros(DType::Float64, {residuals ? nrhs : 0});
        if (residuals)
            for (int c = 0; c < nrhs; ++c)
                for (int i = n; i < m; ++i) out[1].data<double>()[c] += b[i + static_cast<size_t>(c) * ldb] * b[i + static_cast<size_t>(c) * ldb];
        out[2] = NDArray::scalar(DType::Int64, rank);
        out[3] = NDArray::empty(DType::Float64, {k});
        linalg::storeVector(sv, out[3]);
    }
};

} // namespace

OpPtr makeOpEigh(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    PropReader r(params, "Eigh");
    OpPtr op = std::make_shared<EighOp>(std::vector<OpProp>{{"UPLO", r.getString("UPLO", "L", {"L", "U"})}});
    r.check(*op);
    return op;
}
OpPtr makeOpEigvalsh(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    PropReader r(params, "Eigvalsh");
    OpPtr op = std::make_shared<EigvalshOp>(std::vector<OpProp>{{"lower", r.getBool("lower", true)}});
    r.check(*op);
    return op;
}
OpPtr makeOpSVD(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    PropReader r(params, "SVD");
    OpPtr op = std::make_shared<SVDOp>(std::vector<OpProp>{{"full_matrices", r.getBool("full_matrices", true)},
                                                           {"compute_uv", r.getBool("compute_uv", true)}});
    r.check(*op);
    return op;
}
OpPtr makeOpMatrixPinv(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    PropReader r(params, "MatrixPinv");
    OpPtr op = std::make_shared<MatrixPinvOp>(std::vector<OpProp>{{"hermitian", r.getBool("hermitian", false)}});
    r.check(*op);
    return op;
}
OpPtr makeOpLstsq(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    static const OpPtr op = std::make_shared<LstsqOp>();
    PropReader(params, "Lstsq").check(*op);
    return op;
}

OpPtr makeEigh(const std::string& uplo) { return makeOpEigh({{"UPLO", uplo}}, nullptr); }
OpPtr makeEigvalsh(bool lower) { return makeOpEigvalsh({{"lower", lower}}, nullptr); }
OpPtr makeSVD(bool fullMatrices, bool computeUv) {
    return makeOpSVD({{"full_matrices", fullMatrices}, {"compute_uv", computeUv}}, nullptr);
}
OpPtr makeMatrixPinv(bool hermitian) { return makeOpMatrixPinv({{"hermitian", hermitian}}, nullptr); }
OpPtr makeLstsq() { return makeOpLstsq(nlohmann::json::object(), nullptr); }

} // namespace tl
