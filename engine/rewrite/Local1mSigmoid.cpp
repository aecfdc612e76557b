// local_1msigmoid: 1 - sigmoid(x) -> sigmoid(-x) (PyTensor's name; stabilize and
// specialize). 1 - sigmoid(40) is 0; sigmoid(-40) is 4.2e-18.
#include "rewrite/StabilizePattern.h"

namespace tl {

namespace {

using C = ScalarOpCode;

class Local1mSigmoid final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_1msigmoid"; }
    std::vector<std::string> tags() const override { return {"fast_run", "stabilize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != C::Sub || !rw::isConstantEqualTo(*node.input(0), 1.0))
            return MatchResult::fail("not 1 - y");
        const Node* s = rw::elemwiseOwner(*node.input(1), C::Sigmoid);
        if (!s) return MatchResult::fail("not 1 - sigmoid(x)");
        return rw::chainMatch(node, s->input(0), {C::Neg, C::Sigmoid});
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const rw::ChainMatch&>(match);
        rewriter.replace(node.output(0), rw::buildChain(rewriter, m.x, {C::Neg, C::Sigmoid}));
    }
};

} // namespace

const NodeRewrite& local1mSigmoid() {
    static const Local1mSigmoid r;
    return r;
}

} // namespace tl
