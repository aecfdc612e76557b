// inline_ofg_expansion: PyTensor's rewrite of that name (FAST_RUN and FAST_COMPILE,
// position -0.01, before the first merge). An OpFromGraph built with inline=True is
// replaced by its inner graph applied to the node's inputs; inline=False stays one node
// (PyTensor compiles and runs it as a function of its own; tensorlens runs its inner
// graph). Nested inline OpFromGraphs are expanded in turn.
//   layer{inline=True}(x, W) -> Add(Tanh(Squeeze{axis=1}(Matmul(W, ExpandDims{axis=1}(x)))), x)
#include "ops/OpFromGraph.h"
#include "rewrite/InlineGraphOp.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class InlineOfgExpansion final : public NodeRewrite {
public:
    std::string_view name() const override { return "inline_ofg_expansion"; }
    std::vector<std::string> tags() const override { return {"fast_run", "fast_compile"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::OpFromGraph}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const auto& op = static_cast<const OpFromGraphOp&>(node.op());
        if (!op.isInline()) return MatchResult::fail("inline=False: the OpFromGraph stays one node");
        if (!op.destroyMap().empty()) return MatchResult::fail("it destroys an input (its destroy_map would be lost)");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        rw::inlineGraphOp(rewriter, node);
    }
};

} // namespace

const NodeRewrite& inlineOfgExpansion() {
    static const InlineOfgExpansion r;
    return r;
}

} // namespace tl
