// The gradient ops PyTensor's grad writes for the symmetric eigenproblems:
//  - EighGrad{UPLO} (nlinalg.py): the gradient wrt x of Eigh(x) from the eigenpairs
//    (w, v) and the output gradients (gw, gv): g = v (diag(gw) + F) v^T with
//    F[n, m] = (v[:, m] . gv[:, n]) / (w[n] - w[m]) off the diagonal;
//  - EigvalshGrad{lower} (slinalg.py): the gradients wrt a and b of the generalized
//    eigenvalues of (a, b), from the eigenvectors of scipy.linalg.eigh(a, b) (sygvd,
//    SciPy's driver): ga = v diag(gw) v^T, gb = -v diag(gw * w) v^T.
// A decomposition reads one triangle only (eigh(a, 'L') is a function of tril(a)), so
// each gradient is folded onto that triangle as PyTensor does: tril(g) + triu(g, 1)^T
// ('L', lower) or triu(g) + tril(g, -1)^T, zeros in the other.
#include "ops/ArrayOpUtil.h"
#include "ops/LapackCalls.h"
#include "ops/Linalg.h"
#include "ops/LinalgDense.h"
#include "ops/LinalgOp.h"

#include <algorithm>
#include <type_traits>
#include <vector>

namespace tl {

namespace {

template <typename T> constexpr DType kDType = std::is_same_v<T, float> ? DType::Float32 : DType::Float64;

DType promoted(std::span<const Type* const> in) {
    DType d = in[0]->dtype;
    for (const Type* t : in) d = promote(d, t->dtype);
    return d;
}

// Writes the n x n row-major g, folded onto the lower (or upper) triangle, into out
// (cast to out's dtype as NumPy's astype does).
template <typename T> void storeFolded(const NDArray& g, bool lower, const NDArray& out) {
    const int64_t n = g.dim(0);
    const T* p = g.data<T>();
    std::vector<T> f(static_cast<size_t>(n * n), T(0));  // column-major
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) {
            if (lower ? i < j : i > j) continue;
            f[static_cast<size_t>(i + j * n)] = i == j ? p[i * n + i] : p[i * n + j] + p[j * n + i];
        }
    linalg::storeColMajor(f.data(), n, out);
}

void requireShape(const NDArray& a, const Shape& s, const std::string& op, const char* what) {
    if (a.shape() != s)
        throw ExecError(op + ": " + what + " has shape " + shapeToString(a.shape()) + ", expected " + shapeToString(s));
}

// ---------------------------------------------------------------- EighGrad

class EighGradOp final : public LinalgOp {
public:
    explicit EighGradOp(std::vector<OpProp> props) : LinalgOp(OpKind::EighGrad, "EighGrad", std::move(props)) {}
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        arrayop::requireArity(in, 5, "EighGrad");
        const char* names[] = {"EighGrad x", "EighGrad w", "EighGrad v", "EighGrad gw", "EighGrad gv"};
        for (size_t i = 0; i < 5; ++i) linalg::requireNdim(*in[i], i == 1 || i == 3 ? 1 : 2, names[i]);
        // PyTensor: matrix(dtype=upcast(x, w, v, gw, gv)), its dims unknown.
        return {Type::tensor(promoted(in), {kUnknownDim, kUnknownDim})};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        const int64_t n = in[0].dim(0);
        requireShape(in[1], {n}, "EighGrad", "w");
        requireShape(in[2], {n, n}, "EighGrad", "v");
        requireShape(in[3], {n}, "EighGrad", "gw");
        requireShape(in[4], {n, n}, "EighGrad", "gv");
        DType dt = in[0].dtype();
        for (const NDArray& a : in) dt = promote(dt, a.dtype());
        s = {{n, n}};
        d = {dt};
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace&) const override {
        // NumPy keeps float32 operands in float32; anything wider or integer is float64.
        if (out[0].dtype() == DType::Float32) run<float>(in, out[0]);
        else run<double>(in, out[0]);
    }

private:
    template <typename T> void run(std::span<const NDArray> in, const NDArray& out) const {
        const int64_t n = in[0].dim(0);
        if (n == 0) return;
        const NDArray w = in[1].astype(kDType<T>), v = in[2].astype(kDType<T>), gw = in[3].astype(kDType<T>),
                      gv = in[4].astype(kDType<T>);
        const NDArray c = dense::matmul(dense::transposedView(v), gv);  // c[m, k] = v[:, m] . gv[:, k]
        // g = sum_n outer(v[:, n], gw[n] v[:, n] + sum_{m != n} v[:, m] c[m, n] / (w[n] - w[m]))
        //   = v M v^T with M[n, n] = gw[n], M[n, m] = c[m, n] / (w[n] - w[m]). A repeated
        // eigenvalue divides by zero, giving inf or NaN as PyTensor's does.
        NDArray m = NDArray::empty(kDType<T>, {n, n});
        const T *pw = w.data<T>(), *pg = gw.data<T>(), *pc = c.data<T>();
        T* pm = m.data<T>();
        for (int64_t r = 0; r < n; ++r)
            for (int64_t k = 0; k < n; ++k) pm[r * n + k] = r == k ? pg[r] : pc[k * n + r] / (pw[r] - pw[k]);
        const NDArray g = dense::matmul(dense::matmul(v, m), dense::transposedView(v));
        storeFolded<T>(g, stringProp("UPLO") == "L", out);
    }
};

// ---------------------------------------------------------------- EigvalshGrad

class EigvalshGradOp final : public LinalgOp {
public:
    explicit EigvalshGradOp(std::vector<OpProp> props)
        : LinalgOp(OpKind::EigvalshGrad, "EigvalshGrad", std::move(props)) {}
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        arrayop::requireArity(in, 3, "EigvalshGrad");
        linalg::requireNdim(*in[0], 2, "EigvalshGrad a");
        linalg::requireNdim(*in[1], 2, "EigvalshGrad b");
        linalg::requireNdim(*in[2], 1, "EigvalshGrad gw");
        const Type m = Type::tensor(promoted(in), {kUnknownDim, kUnknownDim});
        return {m, m};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        linalg::requireSquare(in[0], "EigvalshGrad");
        const int64_t n = in[0].dim(0);
        requireShape(in[1], {n, n}, "EigvalshGrad", "b");
        requireShape(in[2], {n}, "EigvalshGrad", "gw");
        const DType dt = promote(promote(in[0].dtype(), in[1].dtype()), in[2].dtype());
        s = {{n, n}, {n, n}};
        d = {dt, dt};
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace& ws) const override {
        // SciPy decomposes in float32 when a and b are float32 or narrower (ops/LinalgOp.h);
        // the products with gw are NumPy's, float32 only when gw keeps them so.
        const bool single = linalg::scipyDType(promote(in[0].dtype(), in[1].dtype())) == DType::Float32;
        const bool singleProducts = single && promote(DType::Float32, in[2].dtype()) == DType::Float32;
        if (singleProducts) run<float, float>(in, out, ws);
        else if (single) run<float, double>(in, out, ws);
        else run<double, double>(in, out, ws);
    }

private:
    // TD: the decomposition's type, TP: the products'.
    template <typename TD, typename TP>
    void run(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace& ws) const {
        for (int k = 0; k < 2; ++k) linalg::checkFinite(true, in[k], "EigvalshGrad");  // SciPy's check_finite default
        const int n = static_cast<int>(in[0].dim(0)), ld = std::max(n, 1);
        if (n == 0) return;
        const bool lower = boolProp("lower");
        TD* a = ws.get<TD>(0, static_cast<size_t>(ld) * ld);
        TD* b = ws.get<TD>(1, static_cast<size_t>(ld) * ld);
        TD* w = ws.get<TD>(2, static_cast<size_t>(ld));
        linalg::loadColMajor(in[0], a, ld);
        linalg::loadColMajor(in[1], b, ld);
        const int info = lapack::sygvd<TD>('V', linalg::uplo(lower), n, a, ld, b, ld, w, ws);
        if (info > n)
            throw ExecError("EigvalshGrad: the leading minor of order " + std::to_string(info - n) +
                            " of B is not positive definite");
        if (info > 0)
            throw ExecError("EigvalshGrad: the eigenvalue computation did not converge (LAPACK info " + std::to_string(info) + ")");
        if (info < 0) throw ExecError("EigvalshGrad: LAPACK rejected argument " + std::to_string(-info));
        // v scaled column by column: by gw for ga, by gw * w for gb; then (v D) v^T.
        const NDArray gw = in[2].astype(kDType<TP>);
        NDArray v = NDArray::empty(kDType<TP>, {n, n}), va = NDArray::empty(kDType<TP>, {n, n}),
                vb = NDArray::empty(kDType<TP>, {n, n});
        TP *pv = v.data<TP>(), *pa = va.data<TP>(), *pb = vb.data<TP>();
        const TP* pg = gw.data<TP>();
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < n; ++k) {
                const TP x = static_cast<TP>(a[i + static_cast<size_t>(k) * ld]);
                pv[i * n + k] = x;
                pa[i * n + k] = x * pg[k];
                pb[i * n + k] = -(x * (pg[k] * static_cast<TP>(w[k])));
            }
        storeFolded<TP>(dense::matmul(va, dense::transposedView(v)), lower, out[0]);
        storeFolded<TP>(dense::matmul(vb, dense::transposedView(v)), lower, out[1]);
    }
};

} // namespace

OpPtr makeOpEighGrad(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    PropReader r(params, "EighGrad");
    OpPtr op = std::make_shared<EighGradOp>(std::vector<OpProp>{{"UPLO", r.getString("UPLO", "L", {"L", "U"})}});
    r.check(*op);
    return op;
}
OpPtr makeOpEigvalshGrad(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    PropReader r(params, "EigvalshGrad");
    OpPtr op = std::make_shared<EigvalshGradOp>(std::vector<OpProp>{{"lower", r.getBool("lower", true)}});
    r.check(*op);
    return op;
}

OpPtr makeEighGrad(const std::string& uplo) { return makeOpEighGrad({{"UPLO", uplo}}, nullptr); }
OpPtr makeEigvalshGrad(bool lower) { return makeOpEigvalshGrad({{"lower", lower}}, nullptr); }

} // namespace tl
