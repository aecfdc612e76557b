// local_fill_to_alloc: fill(s, v) -> Alloc(v, Shape_i(s, 0), ..., Shape_i(s, n-1)) when v
// provably broadcasts into s (the fill has s's shape; static dims of s become
// constants). The Alloc depends on s's shape only, not on its values, so once
// local_track_shape_i reads those lengths off s's own sources, what computed s can
// go: ones_like(x * y) needs only x's shape. A fill where neither operand provably
// covers the other stays. PyTensor runs it in stabilize and specialize and, as here,
// as its own pass after stabilize (position 1.51), shape_unsafe.
#include "rewrite/DimSources.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class LocalFillToAlloc final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_fill_to_alloc"; }
    std::vector<std::string> tags() const override { return {"fast_run", "stabilize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != ScalarOpCode::Second) return MatchResult::fail("not a fill (Second)");
        const Variable& shapeRef = *node.input(0);
        const Variable& value = *node.input(1);
        const Type& out = node.output(0)->type();
        if (value.type().dtype != out.dtype || shapeRef.type().ndim() != out.ndim())
            return MatchResult::fail("the fill casts the value or changes its rank");
        if (!rw::broadcastsInto(value, shapeRef)) return MatchResult::fail("the value may stretch the shape reference");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        rewriter.replace(node.output(0), rw::allocLike(rewriter, node.input(1), node.input(0)));
    }
};

} // namespace

const NodeRewrite& localFillToAlloc() {
    static const LocalFillToAlloc r;
    return r;
}

} // namespace tl
