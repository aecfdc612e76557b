// inline_optimized_einsum: PyTensor's specialize rewrite of that name. An Einsum
// (an OpFromGraph named Einsum, ops/OpFromGraph.h) whose contraction path was chosen
// with the operands' shapes known, or that has at most two operands, is replaced by
// its inner graph, so the products inside meet the BLAS rewrites and the rest of the
// graph's merges as any other. An Einsum built without that knowledge
// (optimized=False) stays one node: PyTensor's optimize_einsum_inner_graph would plan
// it again once rewrites make every shape static, which tensorlens does not do.
//   Einsum{self.subscripts='ij,jk->ik', self.path=((1, 0),), self.optimized=True}(A, B) -> Dot(A, B)
#include "ops/OpFromGraph.h"
#include "rewrite/InlineGraphOp.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class InlineOptimizedEinsum final : public NodeRewrite {
public:
    std::string_view name() const override { return "inline_optimized_einsum"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::OpFromGraph}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const auto& op = static_cast<const OpFromGraphOp&>(node.op());
        if (!op.einsum()) return MatchResult::fail("not an Einsum");
        if (!op.einsum()->optimized)
            return MatchResult::fail("optimized=False: its contraction path was chosen without every operand's shape");
        if (!op.destroyMap().empty()) return MatchResult::fail("it destroys an input (its destroy_map would be lost)");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        rw::inlineGraphOp(rewriter, node);
    }
};

} // namespace

const NodeRewrite& inlineOptimizedEinsum() {
    static const InlineOptimizedEinsum r;
    return r;
}

} // namespace tl
