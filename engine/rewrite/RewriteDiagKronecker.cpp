// rewrite_diag_kronecker (PyTensor's, canonicalize and stabilize): the diagonal of the
// Kronecker product of two square matrices is the flattened outer product of theirs,
//   diag(kron(a, b)) -> reshape(dot(diag(a)[:, None], diag(b)[None, :]), (-1,))
// cast to the diagonal's dtype. Only where it holds: the main diagonal of kron of two
// matrices that are statically square. PyTensor's takes any: with a non-square factor
// the product's diagonal crosses the factors' off-diagonal entries, a wrong value with
// no error.
#include "ops/Diagonal.h"
#include "ops/Dot.h"
#include "ops/Reshape.h"
#include "rewrite/DiagonalMatrixForms.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"
#include "rewrite/StructuredMatrixForms.h"

namespace tl {

namespace {

class RewriteDiagKronecker final : public NodeRewrite {
public:
    std::string_view name() const override { return "rewrite_diag_kronecker"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "stabilize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::ExtractDiag}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const Node* kron = rw::kroneckerOfMatrices(*node.input(0));
        if (!kron) return MatchResult::fail("not the diagonal of a kron of two matrices");
        if (static_cast<const ExtractDiagOp&>(node.op()).offset() != 0) return MatchResult::fail("not the main diagonal");
        if (!rw::isStaticallySquare(kron->input(0)->type()) || !rw::isStaticallySquare(kron->input(1)->type()))
            return MatchResult::fail("a factor is not statically square: its diagonal would not be the product's");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const Node* kron = node.input(0)->owner();
        Variable* column = rw::dimShuffle(rewriter, rw::matrixDiagonal(rewriter, kron->input(0)), {0, -1});
        Variable* row = rw::dimShuffle(rewriter, rw::matrixDiagonal(rewriter, kron->input(1)), {-1, 0});
        Variable* outer = rewriter.create(makeDot(), {column, row})->output(0);
        Variable* shape = rewriter.constant(NDArray::fromVector(DType::Int64, {1}, {-1.0}));
        Variable* flat = rewriter.create(makeReshape(1), {outer, shape})->output(0);
        rewriter.replace(node.output(0), rw::castTo(rewriter, flat, node.output(0)->type().dtype));
    }
};

} // namespace

const NodeRewrite& rewriteDiagKronecker() {
    static const RewriteDiagKronecker r;
    return r;
}

} // namespace tl
