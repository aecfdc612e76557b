// transinv_to_invtrans (PyTensor's, canonicalize): the transpose of an inverse is the
// inverse of the transpose,
//   inv(X).T  ->  inv(X.T)
// the same transpose and the same Blockwise{MatrixInverse}, in the other order. A
// gradient through det or inv leaves inv(X).T; as the inverse of X.T it merges with
// any other inverse of X.T the graph has.
#include "ops/Blockwise.h"
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class TransinvToInvtrans final : public NodeRewrite {
public:
    std::string_view name() const override { return "transinv_to_invtrans"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::DimShuffle}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (!rw::isMatrixTranspose(*node.output(0))) return MatchResult::fail("not a transpose of the last two axes");
        if (!rw::blockwiseCoreOf(*node.input(0), {OpKind::MatrixInverse}))
            return MatchResult::fail("not the transpose of an inv()");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const Node& inv = *node.input(0)->owner();
        Variable* transposed = rewriter.create(node.opPtr(), {inv.input(0)})->output(0);
        rewriter.replace(node.output(0), rewriter.create(inv.opPtr(), {transposed})->output(0));
    }
};

} // namespace

const NodeRewrite& transinvToInvtrans() {
    static const TransinvToInvtrans r;
    return r;
}

} // namespace tl
