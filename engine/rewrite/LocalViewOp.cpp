// local_view_op: ViewOp(x) -> x (PyTensor's name; useless and canonicalize). ViewOp and
// the subclasses pytensor.gradient uses to steer grad (ZeroGrad, DisconnectedGrad,
// GradClip, GradScale) compute nothing once the gradient is built. Print is not a
// ViewOp and stays: it runs for what it prints.
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class LocalViewOp final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_view_op"; }
    std::vector<std::string> tags() const override { return {"fast_run", "fast_compile", "useless", "canonicalize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::ViewOp}; }

    MatchResult match(const Node&, const RewriteOptions&) const override { return MatchResult::ok(std::make_unique<RewriteMatch>()); }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        rewriter.replace(node.output(0), node.input(0));
    }
};

} // namespace

const NodeRewrite& localViewOp() {
    static const LocalViewOp r;
    return r;
}

} // namespace tl
