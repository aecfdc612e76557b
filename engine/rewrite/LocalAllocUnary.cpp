// local_alloc_unary: f(Alloc(x, *shape)) -> Alloc(f(x), *shape) for an elementwise f of
// one input, as PyTensor's (specialize): f runs on x's entries once each instead of on
// every copy the Alloc made (exp of a scalar broadcast to a million entries is one exp).
// The value is the same, entry for entry; f's result is cast to f's dtype before the
// Alloc. Only an Elemwise of one input and one output that destroys nothing.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class LocalAllocUnary final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_alloc_unary"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (node.numInputs() != 1 || node.numOutputs() != 1) return MatchResult::fail("not an Elemwise of one input");
        if (!node.op().destroyMap().empty()) return MatchResult::fail("the Elemwise works in place");
        const Node* alloc = node.input(0)->owner();
        if (!alloc || alloc->op().kind() != OpKind::Alloc) return MatchResult::fail("not of an Alloc");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const Node& alloc = *node.input(0)->owner();
        Variable* fx = rewriter.create(node.opPtr(), {alloc.input(0)})->output(0);
        std::vector<Variable*> ins{rw::castTo(rewriter, fx, node.output(0)->type().dtype)};
        for (int i = 1; i < alloc.numInputs(); ++i) ins.push_back(alloc.input(i));
        rewriter.replace(node.output(0), rewriter.create(alloc.opPtr(), std::move(ins))->output(0));
    }
};

} // namespace

const NodeRewrite& localAllocUnary() {
    static const LocalAllocUnary r;
    return r;
}

} // namespace tl
