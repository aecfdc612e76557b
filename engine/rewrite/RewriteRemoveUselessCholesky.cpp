// rewrite_remove_useless_cholesky (PyTensor's, canonicalize and stabilize): the
// Cholesky factor of an identity matrix is itself, in either triangle,
//   Cholesky(Eye(n, m, 0)) -> Eye(n, m, 0)
// Only an Eye whose offset is the constant 0.
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class RewriteRemoveUselessCholesky final : public NodeRewrite {
public:
    std::string_view name() const override { return "rewrite_remove_useless_cholesky"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "stabilize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (!rw::blockwiseCoreOf(*node.output(0), {OpKind::Cholesky})) return MatchResult::fail("not a cholesky()");
        if (!rw::isEyeOnDiagonal(*node.input(0))) return MatchResult::fail("not the factor of an Eye with k=0");
        if (node.input(0)->type().dtype != node.output(0)->type().dtype) return MatchResult::fail("the Eye's dtype is not the factor's");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        rewriter.replace(node.output(0), node.input(0));
    }
};

} // namespace

const NodeRewrite& rewriteRemoveUselessCholesky() {
    static const RewriteRemoveUselessCholesky r;
    return r;
}

} // namespace tl
