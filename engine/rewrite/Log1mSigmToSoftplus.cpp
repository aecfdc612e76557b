// log1msigm_to_softplus: log(1 - sigmoid(x)) -> -softplus(x), and log1p_neg_sigmoid:
// log1p(-sigmoid(x)) -> -softplus(x), the form local_log1p leaves it in (PyTensor's
// two pattern rewrites of one identity; stabilize). log(1 - sigmoid(800)) is log(0) =
// -inf; -softplus(800) is -800.
#include "rewrite/StabilizePattern.h"

namespace tl {

namespace {

using C = ScalarOpCode;

class Log1mSigmToSoftplus final : public NodeRewrite {
public:
    std::string_view name() const override { return "log1msigm_to_softplus"; }
    std::vector<std::string> tags() const override { return {"fast_run", "stabilize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const auto code = rw::plainElemwiseCode(node);
        const Node* sig = nullptr;
        if (code == C::Log) {
            const Node* sub = rw::elemwiseOwner(*node.input(0), C::Sub);
            if (sub && rw::isConstantEqualTo(*sub->input(0), 1.0) &&
                rw::sameBroadcastPattern(sub->input(1)->type(), sub->output(0)->type()))
                sig = rw::elemwiseOwner(*sub->input(1), C::Sigmoid);
        } else if (code == C::Log1p) {
            if (const Node* neg = rw::elemwiseOwner(*node.input(0), C::Neg)) sig = rw::elemwiseOwner(*neg->input(0), C::Sigmoid);
        }
        if (!sig) return MatchResult::fail("not log(1 - sigmoid(x)) or log1p(-sigmoid(x))");
        return rw::chainMatch(node, sig->input(0), {C::Softplus, C::Neg});
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const rw::ChainMatch&>(match);
        rewriter.replace(node.output(0), rw::buildChain(rewriter, m.x, {C::Softplus, C::Neg}));
    }
};

} // namespace

const NodeRewrite& log1mSigmToSoftplus() {
    static const Log1mSigmToSoftplus r;
    return r;
}

} // namespace tl
