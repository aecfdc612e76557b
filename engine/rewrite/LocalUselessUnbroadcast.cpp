// local_useless_unbroadcast: Unbroadcast of axes that are not broadcastable does
// nothing (PyTensor <= 2.28's local_useless_unbroadcast):
//   Unbroadcast{0}(x: (?, 7))      -> x
//   Unbroadcast{0, 1}(x: (1, 7))   -> Unbroadcast{0}(x)   (only the useful axes kept)
//   Unbroadcast{0}(x: (1, 7))      stays: it turns the static 1 into ?
#include "ops/Unbroadcast.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct UnbroadcastMatch : RewriteMatch {
    std::vector<int> keep;  // empty: the input itself
};

class LocalUselessUnbroadcast final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_useless_unbroadcast"; }
    std::vector<std::string> tags() const override {
        return {"fast_run", "fast_compile", "useless", "canonicalize", "specialize"};
    }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Unbroadcast}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const auto& op = static_cast<const UnbroadcastOp&>(node.op());
        const Type& t = node.input(0)->type();
        auto m = std::make_unique<UnbroadcastMatch>();
        for (int a : op.axes())
            if (a < t.ndim() && t.shape[a] == 1) m->keep.push_back(a);
        if (m->keep == op.axes()) return MatchResult::fail("every axis is broadcastable in the input");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const UnbroadcastMatch&>(match);
        Variable* r = m.keep.empty() ? node.input(0) : rewriter.create(makeUnbroadcast(m.keep), {node.input(0)})->output(0);
        rewriter.replace(node.output(0), r);
    }
};

} // namespace

const NodeRewrite& localUselessUnbroadcast() {
    static const LocalUselessUnbroadcast r;
    return r;
}

} // namespace tl
