// Solve, SolveTriangular and CholeskySolve: scipy.linalg's solve, solve_triangular
// and cho_solve on one core system A x = b, b a vector (b_ndim=1) or a matrix of
// right-hand sides (b_ndim=2). Solve's assume_a picks the LAPACK driver as SciPy
// does: gen getrf/getrs, sym and her sysv, pos potrf/potrs, tridiagonal gtsv and
// banded gbsv (with the bandwidth read off A). A singular or (pos) non-positive-
// definite A is an error, as SciPy raises LinAlgError.
#include "ops/ArrayOpUtil.h"
#include "ops/LapackCalls.h"
#include "ops/Linalg.h"
#include "ops/LinalgOp.h"

#include <algorithm>

namespace tl {

namespace {

enum class SolverKind { General, Triangular, Cholesky };

const char* classOf(SolverKind k) {
    return k == SolverKind::General ? "Solve" : k == SolverKind::Triangular ? "SolveTriangular" : "CholeskySolve";
}
OpKind kindOf(SolverKind k) {
    return k == SolverKind::General ? OpKind::Solve : k == SolverKind::Triangular ? OpKind::SolveTriangular : OpKind::CholeskySolve;
}

// A vector as an (n, 1) matrix view, a matrix as itself.
NDArray asColumns(const NDArray& v) {
    if (v.ndim() == 2) return v;
    return v.view({v.dim(0), 1}, {v.strides()[0], 0}, v.offset());
}

class SolveOp final : public LinalgOp {
public:
    SolveOp(SolverKind solver, std::vector<OpProp> props)
        : LinalgOp(kindOf(solver), classOf(solver), std::move(props)), m_solver(solver) {
        m_bNdim = intProp("b_ndim");
        m_lower = boolProp("lower");
        m_checkFinite = boolProp("check_finite");
        if (solver == SolverKind::General) {
            m_assume = stringProp("assume_a");
            m_overwriteA = boolProp("overwrite_a");
        }
        if (solver == SolverKind::Triangular) m_unitDiagonal = boolProp("unit_diagonal");
        m_overwriteB = boolProp("overwrite_b");
        if (m_bNdim != 1 && m_bNdim != 2) throw std::invalid_argument(className() + ": b_ndim must be 1 or 2");
        if (m_overwriteA && m_overwriteB)
            throw std::invalid_argument(className() + ": overwrite_a and overwrite_b cannot both be set (as in PyTensor)");
    }

    int bNdim() const { return m_bNdim; }
    AliasMap destroyMap() const override {
        if (m_overwriteA) return {{0, {0}}};
        if (m_overwriteB) return {{0, {1}}};
        return {};
    }

    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        const std::string op = className();
        arrayop::requireArity(in, 2, op);
        linalg::requireNdim(*in[0], 2, op + ": `A`");
        arrayop::requireTensor(*in[1], op + ": `b`");
        if (in[1]->ndim() != m_bNdim)
            throw OpTypeError(op + ": `b` must have " + std::to_string(m_bNdim) + " dims; got " + in[1]->toString() + " instead");
        return {Type::tensor(linalg::scipyDType(promote(in[0]->dtype, in[1]->dtype)), in[1]->shape)};
    }

    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        const std::string op = className();
        linalg::requireSquare(in[0], op);
        if (in[1].ndim() != m_bNdim || in[1].dim(0) != in[0].dim(0))
            throw ExecError(op + ": `A` " + shapeToString(in[0].shape()) + " and `b` " + shapeToString(in[1].shape()) +
                            " must have the same number of rows (b_ndim=" + std::to_string(m_bNdim) + ")");
        s = {in[1].shape()};
        d = {linalg::scipyDType(promote(in[0].dtype(), in[1].dtype()))};
    }

    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace& ws) const override {
        linalg::checkFinite(m_checkFinite, in[0], className());
        linalg::checkFinite(m_checkFinite, in[1], className());
        if (linalg::computesInFloat(out[0].dtype())) solve<float>(in, out, ws);
        else solve<double>(in, out, ws);
    }

private:
    template <typename T> void solve(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace& ws) const {
        const std::string op = className();
        const int n = static_cast<int>(in[0].dim(0)), ld = std::max(n, 1);
        const NDArray b = asColumns(in[1]);
        const int nrhs = static_cast<int>(b.dim(1));
        T* a = ws.get<T>(0, static_cast<size_t>(ld) * std::max(n, 1));
        T* x = ws.get<T>(1, static_cast<size_t>(ld) * std::max(nrhs, 1));
        linalg::loadColMajor(in[0], a, ld);
        linalg::loadColMajor(b, x, ld);
        if (n > 0 && nrhs > 0) {
            const char ul = linalg::uplo(m_lower);
            int info = 0;
            if (m_solver == SolverKind::Triangular) {
                info = lapack::trtrs<T>(ul, 'N', m_unitDiagonal ? 'U' : 'N', n, nrhs, a, ld, x, ld);
                if (info > 0)
                    throw ExecError(op + ": singular matrix: resolution failed at diagonal " + std::to_string(info - 1));
            } else if (m_solver == SolverKind::Cholesky) {
                info = lapack::potrs<T>(ul, n, nrhs, a, ld, x, ld);
            } else if (m_assume == "pos") {
                info = lapack::potrf<T>(ul, n, a, ld);
                if (info > 0)
                    throw ExecError(op + ": the matrix is not positive definite (the leading minor of order " +
                                    std::to_string(info) + " is not)");
                info = lapack::potrs<T>(ul, n, nrhs, a, ld, x, ld);
            } else if (m_assume == "sym" || m_assume == "her") {
                info = lapack::sysv<T>(ul, n, nrhs, a, ld, ws.ints(0, static_cast<size_t>(n)), x, ld, ws);
                if (info > 0) linalg::throwSingular(op, info, "Matrix is singular");
            } else if (m_assume == "tridiagonal") {
                T* dl = ws.get<T>(2, static_cast<size_t>(n));
                T* dd = ws.get<T>(3, static_cast<size_t>(n));
                T* du = ws.get<T>(4, static_cast<size_t>(n));
                for (int i = 0; i < n; ++i) {
                    dd[i] = a[i + static_cast<size_t>(i) * ld];
                    if (i + 1 < n) {
                        dl[i] = a[(i + 1) + static_cast<size_t>(i) * ld];
                        du[i] = a[i + static_cast<size_t>(i + 1) * ld];
                    }
                }
                info = lapack::gtsv<T>(n, nrhs, dl, dd, du, x, ld);
                if (info > 0) linalg::throwSingular(op, info, "Matrix is singular");
            } else if (m_assume == "banded") {
                // SciPy reads the bandwidth off A: the farthest nonzero below and above the diagonal.
                int kl = 0, ku = 0;
                for (int j = 0; j < n; ++j)
                    for (int i = 0; i < n; ++i)
                        if (a[i + static_cast<size_t>(j) * ld] != T(0)) {
                            kl = std::max(kl, i - j);
                            ku = std::max(ku, j - i);
                        }
                const int ldab = 2 * kl + ku + 1;
                T* ab = ws.get<T>(2, static_cast<size_t>(ldab) * n);
                std::fill(ab, ab + static_cast<size_t>(ldab) * n, T(0));
                for (int j = 0; j < n; ++j)
                    for (int i = std::max(0, j - ku); i <= std::min(n - 1, j + kl); ++i)
                        ab[(kl + ku + i - j) + static_cast<size_t>(j) * ldab] = a[i + static_cast<size_t>(j) * ld];
                info = lapack::gbsv<T>(n, kl, ku, nrhs, ab, ldab, ws.ints(0, static_cast<size_t>(n)), x, ld);
                if (info > 0) linalg::throwSingular(op, info, "Matrix is singular");
            } else {
                int* piv = ws.ints(0, static_cast<size_t>(n));
                info = lapack::getrf<T>(n, n, a, ld, piv);
                if (info > 0) linalg::throwSingular(op, info, "Matrix is singular");
                info = lapack::getrs<T>('N', n, nrhs, a, ld, piv, x, ld);
            }
            if (info < 0) throw ExecError(op + ": LAPACK rejected argument " + std::to_string(-info));
        }
        linalg::storeColMajor(x, ld, asColumns(out[0]));
    }

    SolverKind m_solver;
    int m_bNdim = 2;
    bool m_lower = false, m_checkFinite = true, m_overwriteA = false, m_overwriteB = false, m_unitDiagonal = false;
    std::string m_assume = "gen";
};

int requireBNdim(const PropReader& r) {
    const int b = r.getInt("b_ndim", 0);
    if (b != 1 && b != 2) throw std::invalid_argument("b_ndim must be 1 or 2, got " + std::to_string(b));
    return b;
}

} // namespace

OpPtr makeOpSolve(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    PropReader r(params, "Solve");
    std::string assume = r.getString("assume_a", "gen",
                                     {"gen", "sym", "her", "pos", "tridiagonal", "banded", "general", "symmetric",
                                      "hermitian", "positive definite"});
    // PyTensor keeps the short names.
    if (assume == "general") assume = "gen";
    else if (assume == "symmetric") assume = "sym";
    else if (assume == "hermitian") assume = "her";
    else if (assume == "positive definite") assume = "pos";
    OpPtr op = std::make_shared<SolveOp>(
        SolverKind::General,
        std::vector<OpProp>{{"assume_a", assume},
                            {"lower", r.getBool("lower", false)},
                            {"check_finite", r.getBool("check_finite", true)},
                            {"b_ndim", requireBNdim(r)},
                            {"overwrite_a", r.getBool("overwrite_a", false)},
                            {"overwrite_b", r.getBool("overwrite_b", false)}});
    r.check(*op);
    return op;
}

OpPtr makeOpSolveTriangular(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    PropReader r(params, "SolveTriangular");
    OpPtr op = std::make_shared<SolveOp>(SolverKind::Triangular,
                                         std::vector<OpProp>{{"unit_diagonal", r.getBool("unit_diagonal", false)},
                                                             {"lower", r.getBool("lower", false)},
                                                             {"check_finite", r.getBool("check_finite", true)},
                                                             {"b_ndim", requireBNdim(r)},
                                                             {"overwrite_b", r.getBool("overwrite_b", false)}});
    r.check(*op);
    return op;
}

OpPtr makeOpCholeskySolve(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    PropReader r(params, "CholeskySolve");
    OpPtr op = std::make_shared<SolveOp>(SolverKind::Cholesky,
                                         std::vector<OpProp>{{"lower", r.getBool("lower", true)},
                                                             {"check_finite", r.getBool("check_finite", true)},
                                                             {"b_ndim", requireBNdim(r)},
                                                             {"overwrite_b", r.getBool("overwrite_b", false)}});
    r.check(*op);
    return op;
}

OpPtr makeSolve(const std::string& assumeA, bool lower, bool checkFinite, int bNdim, bool overwriteA, bool overwriteB) {
    return makeOpSolve({{"assume_a", assumeA}, {"lower", lower}, {"check_finite", checkFinite}, {"b_ndim", bNdim},
                        {"overwrite_a", overwriteA}, {"overwrite_b", overwriteB}},
                       nullptr);
}

OpPtr makeSolveTriangular(bool unitDiagonal, bool lower, bool checkFinite, int bNdim, bool overwriteB) {
    return makeOpSolveTriangular({{"unit_diagonal", unitDiagonal}, {"lower", lower}, {"check_finite", checkFinite},
                                  {"b_ndim", bNdim}, {"overwrite_b", overwriteB}},
                                 nullptr);
}

OpPtr makeCholeskySolve(bool lower, bool checkFinite, int bNdim, bool overwriteB) {
    return makeOpCholeskySolve({{"lower", lower}, {"check_finite", checkFinite}, {"b_ndim", bNdim}, {"overwrite_b", overwriteB}},
                               nullptr);
}

} // namespace tl
