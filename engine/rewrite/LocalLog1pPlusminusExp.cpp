// local_log1p_plusminus_exp: log1p(exp(x)) -> softplus(x) and log1p(-exp(x)) ->
// log1mexp(x) (PyTensor's name; stabilize). With local_log1p before it, log(1 + exp(x))
// becomes softplus(x): finite at x = 800, where exp overflows.
#include "rewrite/StabilizePattern.h"

namespace tl {

namespace {

using C = ScalarOpCode;

class LocalLog1pPlusminusExp final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_log1p_plusminus_exp"; }
    std::vector<std::string> tags() const override { return {"fast_run", "stabilize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != C::Log1p) return MatchResult::fail("not log1p");
        if (const Node* e = rw::elemwiseOwner(*node.input(0), C::Exp)) return rw::chainMatch(node, e->input(0), {C::Softplus}, C::Softplus);
        if (const Node* neg = rw::elemwiseOwner(*node.input(0), C::Neg))
            if (const Node* e = rw::elemwiseOwner(*neg->input(0), C::Exp)) return rw::chainMatch(node, e->input(0), {C::Log1mexp}, C::Log1mexp);
        return MatchResult::fail("not log1p(exp(x)) or log1p(-exp(x))");
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const rw::ChainMatch&>(match);
        rewriter.replace(node.output(0), rw::makeElemwiseOf(rewriter, m.variant, {m.x}));
    }
};

} // namespace

const NodeRewrite& localLog1pPlusminusExp() {
    static const LocalLog1pPlusminusExp r;
    return r;
}

} // namespace tl
