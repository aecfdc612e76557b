// rewrite_cholesky_diag_to_sqrt_diag (PyTensor's, canonicalize and stabilize): the
// Cholesky factor of a matrix that is diagonal by construction is the square root of
// its diagonal, in either triangle,
//   cholesky(A)               -> sqrt(A)                   (A of static shape (..., 1, 1))
//   cholesky(diag(v))         -> diag(v ** 0.5)            (v a vector)
//   cholesky(x * eye(n))      -> eye(n) * x ** 0.5         (x a scalar, a row or a column)
//   cholesky(X * eye(n))      -> eye(n) * diagonal(X) ** 0.5   (padded to eye's batch rank)
// A negative entry gives NaN where the factorization would fail (or give NaN with
// on_error='nan').
#include "rewrite/DiagonalMatrixForms.h"
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

Variable* squareRoot(Rewriter& rewriter, Variable* x) {
    Variable* half = rewriter.constant(NDArray::scalar(DType::Float64, 0.5));
    return rw::makeElemwiseOf(rewriter, ScalarOpCode::Pow, {x, half});
}

class RewriteCholeskyDiagToSqrtDiag final : public NodeRewrite {
public:
    std::string_view name() const override { return "rewrite_cholesky_diag_to_sqrt_diag"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "stabilize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (!rw::blockwiseCoreOf(*node.output(0), {OpKind::Cholesky})) return MatchResult::fail("not a cholesky()");
        const Variable& m = *node.input(0);
        if (!rw::isStaticallyOneByOne(m.type()) && !rw::vectorOfAllocDiag(m) && !rw::eyeProductOf(m))
            return MatchResult::fail("its matrix is not 1x1, diag(v) of a vector or a product with an identity");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        Variable* m = node.input(0);
        Variable* factor = nullptr;
        if (rw::isStaticallyOneByOne(m->type())) {
            factor = rw::makeElemwiseOf(rewriter, ScalarOpCode::Sqrt, {m});
        } else if (Variable* v = rw::vectorOfAllocDiag(*m)) {
            factor = rewriter.create(m->owner()->opPtr(), {squareRoot(rewriter, v)})->output(0);
        } else {
            const rw::EyeProduct p = *rw::eyeProductOf(*m);
            Variable* x = p.x;
            if (rw::diagonalFactorKind(x->type()) == rw::DiagonalFactor::Matrix) {
                x = rw::matrixDiagonal(rewriter, x);
                if (p.eye->type().ndim() > 2) x = rw::padBeforeLast(rewriter, x);
            }
            factor = rw::makeElemwiseOf(rewriter, ScalarOpCode::Mul, {p.eye, squareRoot(rewriter, x)});
        }
        rewriter.replace(node.output(0), rw::castTo(rewriter, factor, node.output(0)->type().dtype));
    }
};

} // namespace

const NodeRewrite& rewriteCholeskyDiagToSqrtDiag() {
    static const RewriteCholeskyDiagToSqrtDiag r;
    return r;
}

} // namespace tl
