// local_mul_to_sqr: x * x -> sqr(x), one read of x and one multiplication by itself, as
// PyTensor's (specialize). Only a two-input mul whose inputs are the same variable; the
// canonizer has gathered x * x * y into one mul by then, which this leaves alone.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class LocalMulToSqr final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_mul_to_sqr"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != ScalarOpCode::Mul) return MatchResult::fail("not mul");
        if (node.numInputs() != 2 || node.input(0) != node.input(1)) return MatchResult::fail("not x * x");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        Variable* sq = rw::makeElemwiseOf(rewriter, ScalarOpCode::Sqr, {node.input(0)});
        rewriter.replace(node.output(0), rw::castTo(rewriter, sq, node.output(0)->type().dtype));
    }
};

} // namespace

const NodeRewrite& localMulToSqr() {
    static const LocalMulToSqr r;
    return r;
}

} // namespace tl
