// rewrite_det_diag_to_prod_diag (PyTensor's, canonicalize and stabilize, "shape_unsafe"):
// the determinant of a matrix that is diagonal by construction is the product of its
// diagonal,
//   det(diag(v))        -> prod(v, axis=-1)
//   det(s * eye(n))     -> s ** n                        (s of static shape (..., 1, 1))
//   det(v * eye(n))     -> prod(v, axis=(-2, -1))        (v a row or a column)
//   det(X * eye(n))     -> prod(diagonal(X), axis=-1)
// cast to the determinant's dtype. Shape-unsafe as PyTensor's: a factor whose length
// does not match the identity's fails in the product before and not after.
#include "ops/Reduce.h"
#include "rewrite/DiagonalMatrixForms.h"
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

Variable* product(Rewriter& rewriter, Variable* x, std::vector<int> axes) {
    return rewriter.create(makeReduce(ReduceKind::Prod, std::move(axes)), {x})->output(0);
}

class RewriteDetDiagToProdDiag final : public NodeRewrite {
public:
    std::string_view name() const override { return "rewrite_det_diag_to_prod_diag"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "stabilize", "shape_unsafe"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (!rw::blockwiseCoreOf(*node.output(0), {OpKind::Det})) return MatchResult::fail("not a det()");
        if (!rw::diagonalOfAllocDiag(*node.input(0)) && !rw::eyeProductOf(*node.input(0)))
            return MatchResult::fail("its matrix is neither diag(v) nor a product with an identity");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        Variable* det = nullptr;
        if (Variable* v = rw::diagonalOfAllocDiag(*node.input(0))) {
            det = product(rewriter, v, {v->type().ndim() - 1});
        } else {
            const rw::EyeProduct p = *rw::eyeProductOf(*node.input(0));
            const int nd = p.x->type().ndim();
            switch (rw::diagonalFactorKind(p.x->type())) {
            case rw::DiagonalFactor::Scalar: {
                std::vector<int> batch;
                for (int d = 0; d + 2 < nd; ++d) batch.push_back(d);
                Variable* s = rw::dimShuffle(rewriter, p.x, batch);
                det = rw::makeElemwiseOf(rewriter, ScalarOpCode::Pow, {s, rw::dimOf(rewriter, p.eye, nd - 1)});
                break;
            }
            case rw::DiagonalFactor::Vector: det = product(rewriter, p.x, {nd - 2, nd - 1}); break;
            case rw::DiagonalFactor::Matrix: det = product(rewriter, rw::matrixDiagonal(rewriter, p.x), {nd - 2}); break;
            }
        }
        rewriter.replace(node.output(0), rw::castTo(rewriter, det, node.output(0)->type().dtype));
    }
};

} // namespace

const NodeRewrite& rewriteDetDiagToProdDiag() {
    static const RewriteDetDiagToProdDiag r;
    return r;
}

} // namespace tl
