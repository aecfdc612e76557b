// local_exp_log: a function of its own inverse, where the inverse is defined everywhere
// (PyTensor's; canonicalize, specialize):
//   log(exp(x))       -> x
//   log1p(expm1(x))   -> x
//   exp(softplus(x))  -> 1 + exp(x)
//   expm1(softplus(x))-> exp(x)
// As PyTensor's, these are exact in real arithmetic and better in floating point:
// log(exp(800)) is inf, the rewrite gives 800. The result is cast to the outer
// function's dtype where the inner one changed it (an integer x).
// local_exp_log_nan_switch (specialize) has the pairs whose inverse has a domain.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct ExpLogMatch : RewriteMatch {
    ScalarOpCode outer = ScalarOpCode::Exp, inner = ScalarOpCode::Exp;
    Variable* x = nullptr;
};

class LocalExpLog final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_exp_log"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        using C = ScalarOpCode;
        const auto outer = rw::plainElemwiseCode(node);
        if (!outer) return MatchResult::fail("not a plain Elemwise");
        const Node* in = node.input(0)->owner();
        const auto inner = in ? rw::plainElemwiseCode(*in) : std::nullopt;
        if (!inner) return MatchResult::fail("not of a plain Elemwise");
        const bool pair = (*outer == C::Log && *inner == C::Exp) || (*outer == C::Log1p && *inner == C::Expm1) ||
                          (*outer == C::Exp && *inner == C::Softplus) || (*outer == C::Expm1 && *inner == C::Softplus);
        if (!pair) return MatchResult::fail("not log(exp), log1p(expm1), exp(softplus) or expm1(softplus)");
        auto m = std::make_unique<ExpLogMatch>();
        m->outer = *outer;
        m->inner = *inner;
        m->x = in->input(0);
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        using C = ScalarOpCode;
        const auto& m = static_cast<const ExpLogMatch&>(match);
        Variable* r = m.x;
        if (m.inner == C::Softplus) {
            r = rw::makeElemwiseOf(rewriter, C::Exp, {m.x});
            if (m.outer == C::Exp) r = rw::makeElemwiseOf(rewriter, C::Add, {rewriter.constant(rw::scalarArray(DType::Int8, 1)), r});
        }
        rewriter.replace(node.output(0), rw::castTo(rewriter, r, node.output(0)->type().dtype));
    }
};

} // namespace

const NodeRewrite& localExpLog() {
    static const LocalExpLog r;
    return r;
}

} // namespace tl
