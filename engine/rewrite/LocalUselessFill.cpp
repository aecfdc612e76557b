// local_useless_fill: fill(s, v) -> v (Second, pt.fill / pt.second) when s provably
// does not stretch v: every dim of s broadcasts into v's (rw::broadcastsInto), e.g.
//   fill(cost, 1.0)                  with a 0-d cost (the seed of pytensor.grad)
//   fill(log(x), x / y)              where x / y has x's shape and more
// PyTensor's local_useless_fill (canonicalize, useless; shape_unsafe) compares
// broadcastable patterns only, which tensorlens's run-time broadcasting of dims not
// statically 1 does not allow.
#include "rewrite/DimSources.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class LocalUselessFill final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_useless_fill"; }
    std::vector<std::string> tags() const override { return {"fast_run", "fast_compile", "useless", "canonicalize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != ScalarOpCode::Second) return MatchResult::fail("not a fill (Second)");
        const Variable& shapeRef = *node.input(0);
        const Variable& value = *node.input(1);
        if (value.type().dtype != node.output(0)->type().dtype) return MatchResult::fail("the fill casts the value");
        if (!rw::compatibleTypes(value.type(), node.output(0)->type())) return MatchResult::fail("the value's type differs");
        if (!rw::broadcastsInto(shapeRef, value))
            return MatchResult::fail("the shape reference may stretch the value");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        rewriter.replace(node.output(0), node.input(1));
    }
};

} // namespace

const NodeRewrite& localUselessFill() {
    static const LocalUselessFill r;
    return r;
}

} // namespace tl
