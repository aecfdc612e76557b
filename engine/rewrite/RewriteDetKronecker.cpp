// rewrite_det_kronecker (PyTensor's, canonicalize and stabilize): for an n x n matrix a
// and a p x p matrix b, det(kron(a, b)) = det(a)^p det(b)^n,
//   det(kron(a, b)) -> prod(MakeVector(det(a) ** p, det(b) ** n))
// with n and p the factors' lengths (constants where static, Shape_i otherwise), cast
// to the determinant's dtype. PyTensor writes the exponents as (n p) / n and (n p) / p,
// the same numbers. A factor that is not square (the product can still be) makes det
// fail, as in PyTensor; one statically known not to be is left alone.
#include "ops/Linalg.h"
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"
#include "rewrite/StructuredMatrixForms.h"

namespace tl {

namespace {

class RewriteDetKronecker final : public NodeRewrite {
public:
    std::string_view name() const override { return "rewrite_det_kronecker"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "stabilize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (!rw::blockwiseCoreOf(*node.output(0), {OpKind::Det})) return MatchResult::fail("not a det()");
        const Node* kron = rw::kroneckerOfMatrices(*node.input(0));
        if (!kron) return MatchResult::fail("its matrix is not a kron of two matrices");
        if (!rw::inputsMaybeSquare(*kron)) return MatchResult::fail("a factor is not square");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const DType dtype = node.output(0)->type().dtype;
        Variable* a = node.input(0)->owner()->input(0);
        Variable* b = node.input(0)->owner()->input(1);
        auto power = [&](Variable* m, Variable* exponent) {
            Variable* det = rw::applyLinalgBlockwise(rewriter, makeDet(), {m});
            return rw::castTo(rewriter, rw::makeElemwiseOf(rewriter, ScalarOpCode::Pow, {det, exponent}), dtype);
        };
        std::vector<Variable*> factors{power(a, rw::dimOf(rewriter, b, 1)), power(b, rw::dimOf(rewriter, a, 1))};
        rewriter.replace(node.output(0), rw::productOfScalars(rewriter, std::move(factors), dtype));
    }
};

} // namespace

const NodeRewrite& rewriteDetKronecker() {
    static const RewriteDetKronecker r;
    return r;
}

} // namespace tl
