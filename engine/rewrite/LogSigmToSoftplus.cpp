// logsigm_to_softplus: log(sigmoid(x)) -> -softplus(-x) (PyTensor's name; stabilize).
// log(sigmoid(-800)) is log(0) = -inf; -softplus(800) is -800.
#include "rewrite/StabilizePattern.h"

namespace tl {

namespace {

using C = ScalarOpCode;

class LogSigmToSoftplus final : public NodeRewrite {
public:
    std::string_view name() const override { return "logsigm_to_softplus"; }
    std::vector<std::string> tags() const override { return {"fast_run", "stabilize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != C::Log) return MatchResult::fail("not log");
        const Node* s = rw::elemwiseOwner(*node.input(0), C::Sigmoid);
        if (!s) return MatchResult::fail("not log(sigmoid(x))");
        return rw::chainMatch(node, s->input(0), {C::Neg, C::Softplus, C::Neg});
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const rw::ChainMatch&>(match);
        rewriter.replace(node.output(0), rw::buildChain(rewriter, m.x, {C::Neg, C::Softplus, C::Neg}));
    }
};

} // namespace

const NodeRewrite& logSigmToSoftplus() {
    static const LogSigmToSoftplus r;
    return r;
}

} // namespace tl
