// rewrite_diag_blockdiag (PyTensor's, canonicalize and stabilize): the diagonal of a
// block-diagonal matrix is its blocks' diagonals one after another,
//   diag(block_diag(a, b, c)) -> join(0, diag(a), diag(b), diag(c))
// cast to the diagonal's dtype. Only where it holds: the main diagonal (offset 0) of an
// unbatched block_diag whose blocks are statically square. PyTensor's takes any
// ExtractDiag and any blocks; with a non-square block the diagonal runs off the blocks
// (block_diag of 2x3 and 3x2 has the diagonal a00, a11, 0, b10, b21... of length 5,
// the joined one a00, a11, b00, b11), a wrong value with no error.
#include "ops/Diagonal.h"
#include "ops/Join.h"
#include "rewrite/DiagonalMatrixForms.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"
#include "rewrite/StructuredMatrixForms.h"

#include <algorithm>

namespace tl {

namespace {

class RewriteDiagBlockdiag final : public NodeRewrite {
public:
    std::string_view name() const override { return "rewrite_diag_blockdiag"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "stabilize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::ExtractDiag}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const Node* blocks = rw::blockDiagonalOf(*node.input(0), true);
        if (!blocks) return MatchResult::fail("not the diagonal of a block_diag of matrices");
        if (static_cast<const ExtractDiagOp&>(node.op()).offset() != 0) return MatchResult::fail("not the main diagonal");
        if (!std::all_of(blocks->inputs().begin(), blocks->inputs().end(),
                         [](const Variable* m) { return rw::isStaticallySquare(m->type()); }))
            return MatchResult::fail("a block is not statically square: its diagonal would not be the block_diag's");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const Node* blocks = node.input(0)->owner();
        std::vector<Variable*> parts{rewriter.constant(rw::scalarArray(DType::Int8, 0))};
        for (Variable* m : blocks->inputs()) parts.push_back(rw::matrixDiagonal(rewriter, m));
        Variable* joined = rewriter.create(makeJoin(), parts)->output(0);
        rewriter.replace(node.output(0), rw::castTo(rewriter, joined, node.output(0)->type().dtype));
    }
};

} // namespace

const NodeRewrite& rewriteDiagBlockdiag() {
    static const RewriteDiagBlockdiag r;
    return r;
}

} // namespace tl
