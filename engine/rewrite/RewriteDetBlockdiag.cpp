// rewrite_det_blockdiag (PyTensor's, canonicalize and stabilize): the determinant of a
// block-diagonal matrix is the product of its blocks' determinants,
//   det(block_diag(a, b, c)) -> prod(MakeVector(det(a), det(b), det(c)))
// cast to the determinant's dtype. Only for an unbatched block_diag (PyTensor's takes a
// batch too, and its product then multiplies across the batch). A block that is not
// square (the block_diag can still be) makes det fail where the whole matrix had
// determinant 0, as in PyTensor; one statically known not to be is left alone.
#include "ops/Linalg.h"
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"
#include "rewrite/StructuredMatrixForms.h"

namespace tl {

namespace {

class RewriteDetBlockdiag final : public NodeRewrite {
public:
    std::string_view name() const override { return "rewrite_det_blockdiag"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "stabilize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (!rw::blockwiseCoreOf(*node.output(0), {OpKind::Det})) return MatchResult::fail("not a det()");
        const Node* blocks = rw::blockDiagonalOf(*node.input(0), true);
        if (!blocks) return MatchResult::fail("its matrix is not a block_diag of matrices");
        if (!rw::inputsMaybeSquare(*blocks)) return MatchResult::fail("a block is not square");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const DType dtype = node.output(0)->type().dtype;
        std::vector<Variable*> dets;
        for (Variable* m : node.input(0)->owner()->inputs())
            dets.push_back(rw::castTo(rewriter, rw::applyLinalgBlockwise(rewriter, makeDet(), {m}), dtype));
        rewriter.replace(node.output(0), rw::productOfScalars(rewriter, std::move(dets), dtype));
    }
};

} // namespace

const NodeRewrite& rewriteDetBlockdiag() {
    static const RewriteDetBlockdiag r;
    return r;
}

} // namespace tl
