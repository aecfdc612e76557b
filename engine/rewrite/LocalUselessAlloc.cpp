// local_useless_alloc: Alloc(x, d0, ..., dn) -> x when the Alloc provably keeps x's
// shape and dtype:
//   Alloc(x: (3, 7), 3, 7)                      -> x
//   Alloc(x, Shape_i{0}(x), Shape_i{1}(x))      -> x
//   Alloc(x, Shape_i{0}(exp(x) * 2))            -> x
// PyTensor's local_useless_alloc (tagged shape_unsafe) fires whenever dtype and
// broadcastable pattern agree, which is wrong when a dim of unknown size is 1 at
// run time and the Alloc would have stretched it; tensorlens only fires when every
// length the Alloc gives provably broadcasts into x's (rewrite/DimSources.h). Then
// each is x's own: an Alloc dim of 1 takes only an x of length 1.
#include "rewrite/DimSources.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class LocalUselessAlloc final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_useless_alloc"; }
    std::vector<std::string> tags() const override {
        return {"fast_run", "useless", "canonicalize", "stabilize", "specialize"};
    }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Alloc}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const Variable* x = node.input(0);
        const Type& xt = x->type();
        const Type& out = node.output(0)->type();
        if (xt.dtype != out.dtype || xt.ndim() != out.ndim())
            return MatchResult::fail("the Alloc changes the rank or dtype");
        if (!rw::broadcastsInto(*node.output(0), *x))
            return MatchResult::fail(options, [] { return std::string("a dim may differ from the value's length"); });
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
