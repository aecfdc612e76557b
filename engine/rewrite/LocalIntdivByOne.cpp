// local_intdiv_by_one: x // 1 -> x, as PyTensor's (canonicalize); integer division by a
// constant of ones is the identity (floor of a float x is not: x // 1.0 on 2.5 is 2.0,
// so only integer x). Only where the ones do not broadcast x to a larger shape; the
// result is cast to the division's dtype when that differs from x's.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class LocalIntdivByOne final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_intdiv_by_one"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != ScalarOpCode::IntDiv) return MatchResult::fail("not int_div");
        if (!rw::isConstantEqualTo(*node.input(1), 1.0)) return MatchResult::fail("the divisor is not a constant of ones");
        const Type& x = node.input(0)->type();
        if (!isInteger(x.dtype)) return MatchResult::fail("x is not an integer (floor(x) is not x)");
        if (!rw::sameBroadcastPattern(x, node.output(0)->type())) return MatchResult::fail("the ones broadcast x");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        rewriter.replace(node.output(0), rw::castTo(rewriter, node.input(0), node.output(0)->type().dtype));
    }
};

} // namespace

const NodeRewrite& localIntdivByOne() {
    static const LocalIntdivByOne r;
    return r;
}

} // namespace tl
