// local_useless_alloc: Alloc(x, d0, ..., dn) -> x when the Alloc provably keeps x's
// shape and dtype:
//   Alloc(x: (3, 7), 3, 7)                      -> x
//   Alloc(x, Shape_i{0}(x), Shape_i{1}(x))      -> x
// PyTensor's local_useless_alloc (tagged shape_unsafe) fires whenever dtype and
// broadcastable pattern agree, which is wrong when a dim of unknown size is 1 at
// run time and the Alloc would have stretched it; tensorlens only fires when each
// dim is the static length of x or x's own Shape_i.
#include "ops/Shape.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

bool dimIsShapeOf(const Variable& dim, const Variable& x, int axis) {
    const Node* p = dim.owner();
    return p && p->op().kind() == OpKind::ShapeI && p->input(0) == &x &&
           static_cast<const ShapeIOp&>(p->op()).axis() == axis;
}

class LocalUselessAlloc final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_useless_alloc"; }
    std::vector<std::string> tags() const override {
        return {"fast_run", "useless", "canonicalize", "specialize"};
    }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Alloc}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const Variable* x = node.input(0);
        const Type& xt = x->type();
        const Type& out = node.output(0)->type();
        if (xt.dtype != out.dtype || xt.ndim() != out.ndim())
            return MatchResult::fail("the Alloc changes the rank or dtype");
        for (int d = 0; d < out.ndim(); ++d) {
            const Variable* dim = node.input(1 + d);
            if (dimIsShapeOf(*dim, *x, d)) continue;
            auto c = rw::constantIntOf(*dim);
            if (c && xt.shape[d] != kUnknownDim && *c == xt.shape[d]) continue;
            return MatchResult::fail(options, [&] { return std::string("dim " + std::to_string(d) + " may differ from the value's length"); });
        }
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        rewriter.replace(node.output(0), node.input(0));
    }
};

} // namespace

const NodeRewrite& localUselessAlloc() {
    static const LocalUselessAlloc r;
    return r;
}

} // namespace tl
