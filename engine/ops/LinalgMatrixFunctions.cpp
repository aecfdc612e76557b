// Matrix functions made of BLAS products and LAPACK solves: Expm (scaling and
// squaring with Pade approximants, Higham 2005, the algorithm behind
// scipy.linalg.expm), SolveContinuousLyapunov (Bartels-Stewart through the real
// Schur form, gees + trsyl, as scipy.linalg.solve_continuous_lyapunov),
// BilinearSolveDiscreteLyapunov (SciPy's bilinear transform to a continuous one),
// and the structural BlockDiagonal and KroneckerProduct.
#include "ops/ArrayOpUtil.h"
#include "ops/LapackCalls.h"
#include "ops/Linalg.h"
#include "ops/LinalgDense.h"
#include "ops/LinalgOp.h"

#include <algorithm>
#include <cmath>

namespace tl {

namespace {

using Mat = NDArray;  // a C-contiguous float64 matrix

Mat asMat(const NDArray& a) { return a.astype(DType::Float64); }
// x = sum_k c_k m_k, all n x n.
Mat combination(std::initializer_list<std::pair<double, const Mat*>> terms, int64_t n) {
    Mat r = dense::zeros(n, n);
    double* pr = r.data<double>();
    for (auto [c, m] : terms) {
        const double* pm = m->data<double>();
        for (int64_t i = 0; i < n * n; ++i) pr[i] += c * pm[i];
    }
    return r;
}

// ---------------------------------------------------------------- Expm

Mat expm(const Mat& a0) {
    const int64_t n = a0.dim(0);
    if (n == 0) return a0.copy();
    static constexpr double theta[] = {1.495585217958292e-2, 2.539398330063230e-1, 9.504178996162932e-1,
                                       2.097847961257068e0, 5.371920351148152e0};
    static constexpr double b3[] = {120, 60, 12, 1};
    static constexpr double b5[] = {30240, 15120, 3360, 420, 30, 1};
    static constexpr double b7[] = {17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1};
    static constexpr double b9[] = {17643225600., 8821612800., 2075673600., 302702400., 30270240.,
                                    2162160., 110880., 3960., 90., 1.};
    static constexpr double b13[] = {64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
                                     129060195264000., 10559470521600., 670442572800., 33522128640.,
                                     1323241920., 40840800., 960960., 16380., 182., 1.};
    const double nrm = dense::norm1(a0);
    const Mat I = dense::identity(n);
    Mat U, V;
    int squarings = 0;
    const double* small[] = {b3, b5, b7, b9};
    const int degree[] = {3, 5, 7, 9};
    int pick = -1;
    for (int k = 0; k < 4; ++k)
        if (nrm <= theta[k]) {
            pick = k;
            break;
        }
    if (pick >= 0) {
        // U = A sum_j b[2j+1] A^(2j), V = sum_j b[2j] A^(2j)
        const double* b = small[pick];
        const int m = degree[pick];
        const Mat a2 = dense::matmul(a0, a0);
        Mat p = I, usum = dense::zeros(n, n), vsum = dense::zeros(n, n);
        for (int k = 0; k <= m; k += 2) {
            usum = combination({{1.0, &usum}, {b[k + 1], &p}}, n);
            vsum = combination({{1.0, &vsum}, {b[k], &p}}, n);
            if (k + 2 <= m) p = dense::matmul(p, a2);
        }
        U = dense::matmul(a0, usum);
        V = vsum;
    } else {
        squarings = std::max(0, static_cast<int>(std::ceil(std::log2(nrm / theta[4]))));
        Mat a = a0.copy();
        const double scale = std::ldexp(1.0, -squarings);
        for (int64_t i = 0; i < n * n; ++i) a.data<double>()[i] *= scale;
        const Mat a2 = dense::matmul(a, a), a4 = dense::matmul(a2, a2), a6 = dense::matmul(a2, a4);
        const double* b = b13;
        const Mat u1 = combination({{b[13], &a6}, {b[11], &a4}, {b[9], &a2}}, n);
        const Mat u2 = combination({{b[7], &a6}, {b[5], &a4}, {b[3], &a2}, {b[1], &I}}, n);
        const Mat uInner = dense::matmul(a6, u1);
        const Mat uAll = combination({{1.0, &uInner}, {1.0, &u2}}, n);
        U = dense::matmul(a, uAll);
        const Mat v1 = combination({{b[12], &a6}, {b[10], &a4}, {b[8], &a2}}, n);
        const Mat v2 = combination({{b[6], &a6}, {b[4], &a4}, {b[2], &a2}, {b[0], &I}}, n);
        const Mat vInner = dense::matmul(a6, v1);
        V = combination({{1.0, &vInner}, {1.0, &v2}}, n);
    }
    const Mat p = combination({{1.0, &V}, {1.0, &U}}, n), q = combination({{1.0, &V}, {-1.0, &U}}, n);
    Mat r = dense::solve(q, p, "Expm");
    for (int s = 0; s < squarings; ++s) r = dense::matmul(r, r);
    return r;
}

class SquareFunctionOp final : public LinalgOp {
public:
    // Expm (one input), SolveContinuousLyapunov or BilinearSolveDiscreteLyapunov (A, Q).
    explicit SquareFunctionOp(OpKind kind) : LinalgOp(kind, std::string(opKindName(kind)), {}) {}
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        const std::string op = className();
        arrayop::requireArity(in, kind() == OpKind::Expm ? 1 : 2, op);
        DType d = in[0]->dtype;
        for (size_t i = 0; i < in.size(); ++i) {
            linalg::requireNdim(*in[i], 2, op + " input " + std::to_string(i));
            d = promote(d, in[i]->dtype);
        }
        // PyTensor: matrix(dtype=...), no static shape.
        return {Type::tensor(d, {kUnknownDim, kUnknownDim})};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        DType dt = in[0].dtype();
        for (const NDArray& a : in) {
            linalg::requireSquare(a, className());
            if (a.dim(0) != in[0].dim(0))
                throw ExecError(className() + ": A and Q must have the same shape, got " + shapeToString(in[0].shape()) +
                                " and " + shapeToString(a.shape()));
            dt = promote(dt, a.dtype());
        }
        s = {in[0].shape()};
        d = {dt};
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace&) const override {
        const Mat r = kind() == OpKind::Expm                       ? expm(asMat(in[0]))
                      : kind() == OpKind::SolveContinuousLyapunov ? continuousLyapunov(asMat(in[0]), asMat(in[1]), className())
                                                                  : lyapunov(asMat(in[0]), asMat(in[1]));
        linalg::Workspace ws;
        const int64_t n = r.dim(0);
        double* col = ws.get<double>(0, static_cast<size_t>(std::max<int64_t>(n, 1) * std::max<int64_t>(n, 1)));
        linalg::loadColMajor(r, col, std::max<int64_t>(n, 1));
        linalg::storeColMajor(col, std::max<int64_t>(n, 1), out[0]);
    }

private:
    // SciPy's solve_discrete_lyapunov(a, q, method="bilinear"): A X A^T - X + Q = 0.
    static Mat lyapunov(const Mat& a, const Mat& q) {
        const int64_t n = a.dim(0);
        if (n == 0) return a.copy();
        const std::string op = "BilinearSolveDiscreteLyapunov";
        const Mat I = dense::identity(n), aT = dense::transposed(a);
        const Mat aTpI = combination({{1.0, &aT}, {1.0, &I}}, n), aTmI = combination({{1.0, &aT}, {-1.0, &I}}, n);
        const Mat aHIinv = dense::solve(aTpI, I, op);
        const Mat b = dense::matmul(aTmI, aHIinv);
        const Mat apI = combination({{1.0, &a}, {1.0, &I}}, n);
        Mat c = dense::matmul(dense::matmul(dense::solve(apI, I, op), q), aHIinv);
        for (int64_t i = 0; i < n * n; ++i) c.data<double>()[i] *= -2.0;  // the right-hand side -c
        return continuousLyapunov(dense::transposed(b), c, op);
    }
    // X with A X + X A^T = Q (scipy.linalg.solve_continuous_lyapunov), via A = U R U^T.
    static Mat continuousLyapunov(const Mat& a, const Mat& q, const std::string& op) {
        if (a.dim(0) == 0) return a.copy();
        const int n = static_cast<int>(a.dim(0)), ld = std::max(n, 1);
        linalg::Workspace ws;
        double* r = ws.get<double>(0, static_cast<size_t>(ld) * ld);
        double* u = ws.get<double>(1, static_cast<size_t>(ld) * ld);
        double* wr = ws.get<double>(2, static_cast<size_t>(ld));
        double* wi = ws.get<double>(3, static_cast<size_t>(ld));
        linalg::loadColMajor(a, r, ld);
        int info = lapack::gees<double>(n, r, ld, wr, wi, u, ld, ws);
        if (info != 0) throw ExecError(op + ": the Schur decomposition did not converge");
        Mat R = NDArray::empty(DType::Float64, {n, n}), U = NDArray::empty(DType::Float64, {n, n});
        linalg::storeColMajor(r, ld, R);
        linalg::storeColMajor(u, ld, U);
        const Mat f = dense::matmul(dense::matmul(dense::transposed(U), q), U);
        double* y = ws.get<double>(4, static_cast<size_t>(ld) * ld);
        linalg::loadColMajor(f, y, ld);
        double scale = 1.0;
        info = lapack::trsyl<double>('N', 'T', 1, n, n, r, ld, r, ld, y, ld, &scale);
        if (info < 0) throw ExecError(op + ": LAPACK rejected argument " + std::to_string(-info));
        // info == 1: eigenvalues nearly cancel; SciPy warns and uses the perturbed solution.
        Mat Y = NDArray::empty(DType::Float64, {n, n});
        linalg::storeColMajor(y, ld, Y);
        // SciPy multiplies by the scale trsyl returns (1 unless it had to avoid overflow).
        for (int64_t i = 0; i < static_cast<int64_t>(n) * n; ++i) Y.data<double>()[i] *= scale;
        return dense::matmul(dense::matmul(U, Y), dense::transposed(U));
    }
};

// ---------------------------------------------------------------- BlockDiagonal

class BlockDiagonalOp final : public LinalgOp {
public:
    explicit BlockDiagonalOp(int n) : LinalgOp(OpKind::BlockDiagonal, "BlockDiagonal", {{"n_inputs", n}}) {
        if (n < 1) throw std::invalid_argument("BlockDiagonal: n_inputs must be greater than 0");
    }
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        const int n = intProp("n_inputs");
        if (static_cast<int>(in.size()) != n)
            throw OpTypeError("BlockDiagonal: expected " + std::to_string(n) + " matrices, got " + std::to_string(in.size()));
        DType d = in[0]->dtype;
        StaticShape s{0, 0};
        for (const Type* t : in) {
            linalg::requireNdim(*t, 2, "BlockDiagonal input");
            d = promote(d, t->dtype);
            for (int k = 0; k < 2; ++k) s[k] = s[k] == kUnknownDim || t->shape[k] == kUnknownDim ? kUnknownDim : s[k] + t->shape[k];
        }
        return {Type::tensor(d, s)};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        DType dt = in[0].dtype();
        Shape shape{0, 0};
        for (const NDArray& a : in) {
            if (a.ndim() != 2) throw ExecError("BlockDiagonal: all inputs must have dimension 2, got " + shapeToString(a.shape()));
            dt = promote(dt, a.dtype());
            shape[0] += a.dim(0);
            shape[1] += a.dim(1);
        }
        s = {shape};
        d = {dt};
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace&) const override {
        const NDArray& o = out[0];
        const NDArray zeros = NDArray::zeros(o.dtype(), o.shape());
        o.assign(zeros);
        int64_t r = 0, c = 0;
        for (const NDArray& a : in) {
            const NDArray block = o.view(a.shape(), o.strides(), o.offset() + r * o.strides()[0] + c * o.strides()[1]);
            block.assign(a);
            r += a.dim(0);
            c += a.dim(1);
        }
    }
};

// ---------------------------------------------------------------- KroneckerProduct

template <typename T> T multiply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) return a && b;
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
    else return a * b;
}

class KroneckerProductOp final : public LinalgOp {
public:
    explicit KroneckerProductOp(std::shared_ptr<const Graph> inner)
        : LinalgOp(OpKind::KroneckerProduct, "KroneckerProduct", {}), m_inner(std::move(inner)) {}
    // PyTensor's KroneckerProduct is an OpFromGraph printed with its inline flag.
    std::string name() const override { return "KroneckerProduct{inline=False}"; }
    std::shared_ptr<const Graph> innerGraph() const override { return m_inner; }
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        arrayop::requireArity(in, 2, "KroneckerProduct");
        arrayop::requireTensor(*in[0], "KroneckerProduct a");
        arrayop::requireTensor(*in[1], "KroneckerProduct b");
        if (in[0]->ndim() != in[1]->ndim())
            throw OpTypeError("KroneckerProduct: a " + in[0]->toString() + " and b " + in[1]->toString() +
                              " must have the same number of dims (kron pads the smaller)");
        // Its inner graph ends in a Reshape to a computed shape: no static dims.
        return {Type::tensor(promote(in[0]->dtype, in[1]->dtype), StaticShape(static_cast<size_t>(in[0]->ndim()), kUnknownDim))};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        if (in[0].ndim() != in[1].ndim())
            throw ExecError("KroneckerProduct: shapes " + shapeToString(in[0].shape()) + " and " + shapeToString(in[1].shape()) +
                            " have different numbers of dims");
        Shape shape;
        for (int k = 0; k < in[0].ndim(); ++k) shape.push_back(in[0].dim(k) * in[1].dim(k));
        s = {shape};
        d = {promote(in[0].dtype(), in[1].dtype())};
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace&) const override {
        const NDArray& o = out[0];
        const NDArray a = in[0].astype(o.dtype()), b = in[1].astype(o.dtype());
        const int nd = o.ndim();
        // out[i * bshape + j] = a[i] * b[j], walking a and b in C order.
        dispatchDType(o.dtype(), [&](auto t) {
            using T = decltype(t);
            const T* pa = a.data<T>();
            const T* pb = b.data<T>();
            T* po = o.data<T>();
            std::vector<int64_t> ia(static_cast<size_t>(nd), 0), ib(static_cast<size_t>(nd), 0);
            for (int64_t x = 0; x < a.size(); ++x) {
                std::fill(ib.begin(), ib.end(), 0);
                for (int64_t y = 0; y < b.size(); ++y) {
                    int64_t off = 0;
                    for (int k = 0; k < nd; ++k) off += (ia[k] * b.dim(k) + ib[k]) * o.strides()[k];
                    po[off] = multiply<T>(pa[x], pb[y]);
                    for (int k = nd - 1; k >= 0; --k) {
                        if (++ib[k] < b.dim(k)) break;
                        ib[k] = 0;
                    }
                }
                for (int k = nd - 1; k >= 0; --k) {
                    if (++ia[k] < a.dim(k)) break;
                    ia[k] = 0;
                }
            }
        });
    }

private:
    std::shared_ptr<const Graph> m_inner;
};

} // namespace

OpPtr makeExpm() {
    static const OpPtr op = std::make_shared<SquareFunctionOp>(OpKind::Expm);
    return op;
}
OpPtr makeSolveContinuousLyapunov() {
    static const OpPtr op = std::make_shared<SquareFunctionOp>(OpKind::SolveContinuousLyapunov);
    return op;
}
OpPtr makeBilinearSolveDiscreteLyapunov() {
    static const OpPtr op = std::make_shared<SquareFunctionOp>(OpKind::BilinearSolveDiscreteLyapunov);
    return op;
}
OpPtr makeBlockDiagonal(int nInputs) { return std::make_shared<BlockDiagonalOp>(nInputs); }
OpPtr makeKroneckerProduct() { return std::make_shared<KroneckerProductOp>(nullptr); }

OpPtr makeOpExpm(const nlohmann::json& p, std::shared_ptr<const Graph>) {
    PropReader(p, "Expm").check(*makeExpm());
    return makeExpm();
}
OpPtr makeOpBilinearSolveDiscreteLyapunov(const nlohmann::json& p, std::shared_ptr<const Graph>) {
    PropReader(p, "BilinearSolveDiscreteLyapunov").check(*makeBilinearSolveDiscreteLyapunov());
    return makeBilinearSolveDiscreteLyapunov();
}
OpPtr makeOpSolveContinuousLyapunov(const nlohmann::json& p, std::shared_ptr<const Graph>) {
    PropReader(p, "SolveContinuousLyapunov").check(*makeSolveContinuousLyapunov());
    return makeSolveContinuousLyapunov();
}
OpPtr makeOpBlockDiagonal(const nlohmann::json& p, std::shared_ptr<const Graph>) {
    PropReader r(p, "BlockDiagonal");
    const int n = r.getInt("n_inputs", 0);
    OpPtr op = makeBlockDiagonal(n);
    r.check(*op);
    return op;
}
OpPtr makeOpKroneckerProduct(const nlohmann::json& p, std::shared_ptr<const Graph> inner) {
    OpPtr op = std::make_shared<KroneckerProductOp>(std::move(inner));
    PropReader(p, "KroneckerProduct").check(*op);
    return op;
}

} // namespace tl
