// local_sum_prod_all_to_none: Sum{axis=(0, 1)} of a matrix -> Sum{axes=None}, and
// Prod likewise, as PyTensor's (canonicalize): naming every axis and naming none are
// the same reduction, and one spelling lets merge see two of them as one node (and the
// printed graph match PyTensor's). The axes may be listed in any order or negative.
// Only Sum and Prod (not ProdWithoutZeros, Max or a CAReduce{Composite}), as PyTensor's.
#include "ops/Reduce.h"
#include "rewrite/Rewrites.h"

#include <set>

namespace tl {

namespace {

class LocalSumProdAllToNone final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_sum_prod_all_to_none"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Reduce}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const auto& op = static_cast<const ReduceOp&>(node.op());
        if (op.reduceKind() != ReduceKind::Sum && op.reduceKind() != ReduceKind::Prod) return MatchResult::fail("not Sum or Prod");
        if (!op.axes()) return MatchResult::fail("already axes=None");
        const int ndim = node.input(0)->type().ndim();
        std::set<int> axes;
        for (int a : *op.axes()) axes.insert(a < 0 ? a + ndim : a);
        if (static_cast<int>(axes.size()) != ndim || (ndim > 0 && (*axes.begin() != 0 || *axes.rbegin() != ndim - 1)))
            return MatchResult::fail("not every axis");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const auto& op = static_cast<const ReduceOp&>(node.op());
        rewriter.replace(node.output(0), rewriter.create(op.withAxes(std::nullopt), {node.input(0)})->output(0));
    }
};

} // namespace

const NodeRewrite& localSumProdAllToNone() {
    static const LocalSumProdAllToNone r;
    return r;
}

} // namespace tl
