// The factorizations of scipy.linalg: Cholesky (potrf, the other triangle zeroed),
// LU (P, L, U from getrf; PL and U with permute_l; row indices with p_indices),
// LUFactor (the packed factors and 0-based pivots, as lu_factor), the pivots turned
// into permutations (PivotToPermutations). QR is in LinalgQR.cpp.
#include "ops/ArrayOpUtil.h"
#include "ops/LapackCalls.h"
#include "ops/Linalg.h"
#include "ops/LinalgOp.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace tl {

namespace {

// ---------------------------------------------------------------- Cholesky

class CholeskyOp final : public LinalgOp {
public:
    explicit CholeskyOp(std::vector<OpProp> props) : LinalgOp(OpKind::Cholesky, "Cholesky", std::move(props)) {}
    AliasMap destroyMap() const override { return boolProp("overwrite_a") ? AliasMap{{0, {0}}} : AliasMap{}; }
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        arrayop::requireArity(in, 1, "Cholesky");
        linalg::requireNdim(*in[0], 2, "Cholesky input");
        return {Type::tensor(linalg::scipyDType(in[0]->dtype), in[0]->shape)};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        if (in[0].ndim() != 2) throw ExecError("Cholesky takes a matrix, got shape " + shapeToString(in[0].shape()));
        s = {in[0].shape()};
        d = {linalg::scipyDType(in[0].dtype())};
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace& ws) const override {
        if (linalg::computesInFloat(out[0].dtype())) run<float>(in[0], out[0], ws);
        else run<double>(in[0], out[0], ws);
    }

private:
    template <typename T> void run(const NDArray& x, const NDArray& out, linalg::Workspace& ws) const {
        const bool nanOnError = stringProp("on_error") == "nan";
        const int n = static_cast<int>(x.dim(0)), ld = std::max(n, 1);
        auto fillNaN = [&] {
            T* a = ws.get<T>(0, static_cast<size_t>(ld) * std::max(n, 1));
            std::fill(a, a + static_cast<size_t>(ld) * n, std::numeric_limits<T>::quiet_NaN());
            linalg::storeColMajor(a, ld, out);
        };
        if (x.size() == 0) return;
        if (boolProp("check_finite") && !linalg::allFinite(x)) {
            if (nanOnError) return fillNaN();
            throw ExecError("Cholesky: array must not contain infs or NaNs (check_finite=True)");
        }
        linalg::requireSquare(x, "Cholesky");
        T* a = ws.get<T>(0, static_cast<size_t>(ld) * n);
        // As SciPy does for C-ordered input: factor the transpose, whose column-major
        // copy is the row-major data read straight through, with the other triangle
        // (the factor of A^T from the upper triangle is the transpose of A's lower one).
        const NDArray xt = x.view({n, n}, {x.strides()[1], x.strides()[0]}, x.offset());
        linalg::loadColMajor(xt, a, ld);
        const bool lower = !boolProp("lower");  // of the transpose
        const int info = lapack::potrf<T>(linalg::uplo(lower), n, a, ld);
        if (info != 0) {
            if (nanOnError) return fillNaN();
            if (info > 0)
                throw ExecError("Cholesky: " + std::to_string(info) +
                                "-th leading minor of the array is not positive definite");
            throw ExecError("Cholesky: LAPACK rejected argument " + std::to_string(-info));
        }
        // SciPy's clean=True: the triangle potrf did not touch is zero.
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i)
                if (lower ? i < j : i > j) a[i + static_cast<size_t>(j) * ld] = T(0);
        linalg::storeColMajor(a, ld, out.view({n, n}, {out.strides()[1], out.strides()[0]}, out.offset()));
    }
};

// ---------------------------------------------------------------- LU, LUFactor

// The row order getrf's interchanges (1-based ipiv) apply: A[perm] = L U.
std::vector<int64_t> rowOrder(int m, const int* ipiv, int k) {
    std::vector<int64_t> perm(static_cast<size_t>(m));
    std::iota(perm.begin(), perm.end(), 0);
    for (int i = 0; i < k; ++i) std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(ipiv[i] - 1)]);
    return perm;
}

class LUOp final : public LinalgOp {
public:
    explicit LUOp(std::vector<OpProp> props) : LinalgOp(OpKind::LU, "LU", std::move(props)) {
        if (boolProp("permute_l") && boolProp("p_indices"))
            throw std::invalid_argument("LU: only one of permute_l and p_indices can be True");
    }
    AliasMap destroyMap() const override {
        if (!boolProp("overwrite_a")) return {};
        return boolProp("permute_l") ? AliasMap{{0, {0}}} : AliasMap{{1, {0}}};
    }
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        arrayop::requireArity(in, 1, "LU");
        linalg::requireNdim(*in[0], 2, "LU input");
        const Type& x = *in[0];
        const DType pd = boolProp("p_indices") ? DType::Int32 : x.dtype == DType::Float32 ? DType::Float32 : DType::Float64;
        // PyTensor types L and U like the input (square inputs); a non-square one gets unknown dims.
        const bool square = x.shape[0] != kUnknownDim && x.shape[0] == x.shape[1];
        const StaticShape mm = square ? x.shape : StaticShape{kUnknownDim, kUnknownDim};
        const Type l = Type::tensor(x.dtype, mm);
        if (boolProp("permute_l")) return {l, l};
        if (boolProp("p_indices")) return {Type::tensor(pd, {square ? x.shape[0] : kUnknownDim}), l, l};
        return {Type::tensor(pd, mm), l, l};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        if (in[0].ndim() != 2) throw ExecError("LU takes a matrix, got shape " + shapeToString(in[0].shape()));
        const int64_t m = in[0].dim(0), n = in[0].dim(1), k = std::min(m, n);
        const DType x = in[0].dtype();
        const DType pd = boolProp("p_indices") ? DType::Int32 : x == DType::Float32 ? DType::Float32 : DType::Float64;
        if (boolProp("permute_l")) {
            s = {{m, k}, {k, n}};
            d = {x, x};
        } else if (boolProp("p_indices")) {
            s = {{m}, {m, k}, {k, n}};
            d = {pd, x, x};
        } else {
            s = {{m, m}, {m, k}, {k, n}};
            d = {pd, x, x};
        }
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace& ws) const override {
        if (in[0].dtype() == DType::Float32) run<float>(in[0], out, ws);
        else run<double>(in[0], out, ws);
    }

private:
    template <typename T> void run(const NDArray& x, std::span<const NDArray> out, linalg::Workspace& ws) const {
        linalg::checkFinite(boolProp("check_finite"), x, "LU");
        const int m = static_cast<int>(x.dim(0)), n = static_cast<int>(x.dim(1)), k = std::min(m, n), ld = std::max(m, 1);
        T* a = ws.get<T>(0, static_cast<size_t>(ld) * std::max(n, 1));
        int* ipiv = ws.ints(0, static_cast<size_t>(std::max(k, 1)));
        linalg::loadColMajor(x, a, ld);
        // A singular matrix still factors (a zero on U's diagonal), as SciPy returns it.
        if (k > 0) lapack::getrf<T>(m, n, a, ld, ipiv);
        const std::vector<int64_t> perm = rowOrder(m, ipiv, k);
        T* l = ws.get<T>(1, static_cast<size_t>(ld) * std::max(k, 1));
        T* u = ws.get<T>(2, static_cast<size_t>(std::max(k, 1)) * std::max(n, 1));
        for (int j = 0; j < k; ++j)
            for (int i = 0; i < m; ++i)
                l[i + static_cast<size_t>(j) * ld] = i == j ? T(1) : i > j ? a[i + static_cast<size_t>(j) * ld] : T(0);
        const int ldu = std::max(k, 1);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < k; ++i) u[i + static_cast<size_t>(j) * ldu] = i <= j ? a[i + static_cast<size_t>(j) * ld] : T(0);
        if (boolProp("permute_l")) {
            // P L: row perm[i] of the result is row i of L.
            T* pl = ws.get<T>(3, static_cast<size_t>(ld) * std::max(k, 1));
            for (int j = 0; j < k; ++j)
                for (int i = 0; i < m; ++i) pl[perm[static_cast<size_t>(i)] + static_cast<size_t>(j) * ld] = l[i + static_cast<size_t>(j) * ld];
            linalg::storeColMajor(pl, ld, out[0]);
            linalg::storeColMajor(u, ldu, out[1]);
            return;
        }
        if (boolProp("p_indices")) {
            // p with A = L[p] @ U: the inverse of the row order.
            std::vector<double> p(static_cast<size_t>(m));
            for (int i = 0; i < m; ++i) p[static_cast<size_t>(perm[static_cast<size_t>(i)])] = i;
            linalg::storeVector(p.data(), out[0]);
        } else {
            T* pm = ws.get<T>(3, static_cast<size_t>(ld) * ld);
            std::fill(pm, pm + static_cast<size_t>(ld) * m, T(0));
            for (int j = 0; j < m; ++j) pm[perm[static_cast<size_t>(j)] + static_cast<size_t>(j) * ld] = T(1);
            linalg::storeColMajor(pm, ld, out[0]);
        }
        linalg::storeColMajor(l, ld, out[1]);
        linalg::storeColMajor(u, ldu, out[2]);
    }
};

class LUFactorOp final : public LinalgOp {
public:
    explicit LUFactorOp(std::vector<OpProp> props) : LinalgOp(OpKind::LUFactor, "LUFactor", std::move(props)) {}
    // PyTensor's own map: the pivots output destroys A.
    AliasMap destroyMap() const override { return boolProp("overwrite_a") ? AliasMap{{1, {0}}} : AliasMap{}; }
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        arrayop::requireArity(in, 1, "LUFactor");
        linalg::requireNdim(*in[0], 2, "LUFactor input");
        return {*in[0], Type::tensor(DType::Int32, {in[0]->shape[0]})};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        linalg::requireSquare(in[0], "LUFactor");
        s = {in[0].shape(), {in[0].dim(0)}};
        d = {in[0].dtype(), DType::Int32};
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace& ws) const override {
        if (in[0].dtype() == DType::Float32) run<float>(in[0], out, ws);
        else run<double>(in[0], out, ws);
    }

private:
    template <typename T> void run(const NDArray& x, std::span<const NDArray> out, linalg::Workspace& ws) const {
        linalg::checkFinite(boolProp("check_finite"), x, "LUFactor");
        const int n = static_cast<int>(x.dim(0)), ld = std::max(n, 1);
        T* a = ws.get<T>(0, static_cast<size_t>(ld) * ld);
        int* ipiv = ws.ints(0, static_cast<size_t>(ld));
        linalg::loadColMajor(x, a, ld);
        // SciPy only warns about a singular matrix here ("Diagonal number k is exactly zero").
        if (n > 0) lapack::getrf<T>(n, n, a, ld, ipiv);
        std::vector<double> piv(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) piv[static_cast<size_t>(i)] = ipiv[i] - 1;  // SciPy's pivots are 0-based
        linalg::storeColMajor(a, ld, out[0]);
        linalg::storeVector(piv.data(), out[1]);
    }
};

class PivotToPermutationsOp final : public LinalgOp {
public:
    explicit PivotToPermutationsOp(std::vector<OpProp> props)
        : LinalgOp(OpKind::PivotToPermutations, "PivotToPermutations", std::move(props)) {}
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        arrayop::requireArity(in, 1, "PivotToPermutations");
        linalg::requireNdim(*in[0], 1, "PivotToPermutations input");
        return {Type::tensor(DType::Int64, in[0]->shape)};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        if (in[0].ndim() != 1) throw ExecError("PivotToPermutations only works on 1-D inputs");
        s = {in[0].shape()};
        d = {DType::Int64};
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace&) const override {
        const int64_t n = in[0].dim(0);
        std::vector<int64_t> p(static_cast<size_t>(n));
        std::iota(p.begin(), p.end(), 0);
        for (int64_t i = 0; i < n; ++i) {
            const double v = linalg::elementAs<double>(in[0], i, 0);
            int64_t j = static_cast<int64_t>(v);
            if (!(v >= -static_cast<double>(n) && v < static_cast<double>(n)))
                throw ExecError("PivotToPermutations: pivot " + std::to_string(i) + " is " + std::to_string(v) +
                                ", out of range for " + std::to_string(n) + " rows");
            if (j < 0) j += n;  // a negative index counts from the end, as in NumPy
            std::swap(p[static_cast<size_t>(i)], p[static_cast<size_t>(j)]);
        }
        std::vector<double> res(static_cast<size_t>(n));
        if (boolProp("inverse")) {
            for (int64_t i = 0; i < n; ++i) res[static_cast<size_t>(i)] = static_cast<double>(p[static_cast<size_t>(i)]);
        } else {  // argsort of a permutation is its inverse
            for (int64_t i = 0; i < n; ++i) res[static_cast<size_t>(p[static_cast<size_t>(i)])] = static_cast<double>(i);
        }
        linalg::storeVector(res.data(), out[0]);
    }
};

} // namespace

OpPtr makeOpCholesky(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    PropReader r(params, "Cholesky");
    OpPtr op = std::make_shared<CholeskyOp>(std::vector<OpProp>{{"lower", r.getBool("lower", true)},
                                                                {"check_finite", r.getBool("check_finite", false)},
                                                                {"on_error", r.getString("on_error", "raise", {"raise", "nan"})},
                                                                {"overwrite_a", r.getBool("overwrite_a", false)}});
    r.check(*op);
    return op;
}

OpPtr makeOpLU(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    PropReader r(params, "LU");
    OpPtr op = std::make_shared<LUOp>(std::vector<OpProp>{{"permute_l", r.getBool("permute_l", false)},
                                                          {"overwrite_a", r.getBool("overwrite_a", false)},
                                                          {"check_finite", r.getBool("check_finite", true)},
                                                          {"p_indices", r.getBool("p_indices", false)}});
    r.check(*op);
    return op;
}

OpPtr makeOpLUFactor(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    PropReader r(params, "LUFactor");
    OpPtr op = std::make_shared<LUFactorOp>(std::vector<OpProp>{{"overwrite_a", r.getBool("overwrite_a", false)},
                                                                {"check_finite", r.getBool("check_finite", true)}});
    r.check(*op);
    return op;
}

OpPtr makeOpPivotToPermutations(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    PropReader r(params, "PivotToPermutations");
    OpPtr op = std::make_shared<PivotToPermutationsOp>(std::vector<OpProp>{{"inverse", r.getBool("inverse", true)}});
    r.check(*op);
    return op;
}

OpPtr makeCholesky(bool lower, bool checkFinite, const std::string& onError, bool overwriteA) {
    return makeOpCholesky({{"lower", lower}, {"check_finite", checkFinite}, {"on_error", onError}, {"overwrite_a", overwriteA}},
                          nullptr);
}
OpPtr makeLU(bool permuteL, bool overwriteA, bool checkFinite, bool pIndices) {
    return makeOpLU({{"permute_l", permuteL}, {"overwrite_a", overwriteA}, {"check_finite", checkFinite}, {"p_indices", pIndices}},
                    nullptr);
}
OpPtr makeLUFactor(bool overwriteA, bool checkFinite) {
    return makeOpLUFactor({{"overwrite_a", overwriteA}, {"check_finite", checkFinite}}, nullptr);
}
OpPtr makePivotToPermutations(bool inverse) { return makeOpPivotToPermutations({{"inverse", inverse}}, nullptr); }

} // namespace tl
