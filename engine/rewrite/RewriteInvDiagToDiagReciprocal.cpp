// rewrite_inv_diag_to_diag_reciprocal (PyTensor's, canonicalize and stabilize): the
// inverse of a matrix that is diagonal by construction has the reciprocal diagonal,
//   inv(diag(v))      -> diag(1 / v)                 (v a vector)
//   inv(x * eye(n))   -> eye(n) / x                  (x a scalar, a row or a column)
//   inv(X * eye(n))   -> eye(n) / diagonal(X)[..., None, :]
// and the same for pinv, cast to the inverse's dtype. The zeros off the diagonal stay
// zeros (0 / x); a zero on the diagonal gives inf where the inverse would fail.
#include "rewrite/DiagonalMatrixForms.h"
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class RewriteInvDiagToDiagReciprocal final : public NodeRewrite {
public:
    std::string_view name() const override { return "rewrite_inv_diag_to_diag_reciprocal"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "stabilize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (!rw::blockwiseCoreOf(*node.output(0), {OpKind::MatrixInverse, OpKind::MatrixPinv}))
            return MatchResult::fail("not an inv() or pinv()");
        if (!rw::vectorOfAllocDiag(*node.input(0)) && !rw::eyeProductOf(*node.input(0)))
            return MatchResult::fail("its matrix is neither diag(v) of a vector nor a product with an identity");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        Variable* inverse = nullptr;
        if (Variable* v = rw::vectorOfAllocDiag(*node.input(0))) {
            Variable* one = rewriter.constant(rw::scalarArray(DType::Int8, 1));
            Variable* reciprocal = rw::makeElemwiseOf(rewriter, ScalarOpCode::TrueDiv, {one, v});
            inverse = rewriter.create(node.input(0)->owner()->opPtr(), {reciprocal})->output(0);
        } else {
            const rw::EyeProduct p = *rw::eyeProductOf(*node.input(0));
            Variable* x = p.x;
            if (rw::diagonalFactorKind(x->type()) == rw::DiagonalFactor::Matrix)
                x = rw::padBeforeLast(rewriter, rw::matrixDiagonal(rewriter, x));
            inverse = rw::makeElemwiseOf(rewriter, ScalarOpCode::TrueDiv, {p.eye, x});
        }
        rewriter.replace(node.output(0), rw::castTo(rewriter, inverse, node.output(0)->type().dtype));
    }
};

} // namespace

const NodeRewrite& rewriteInvDiagToDiagReciprocal() {
    static const RewriteInvDiagToDiagReciprocal r;
    return r;
}

} // namespace tl
