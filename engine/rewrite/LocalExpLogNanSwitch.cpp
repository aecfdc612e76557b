// local_exp_log_nan_switch: a function of its own inverse where the inverse has a
// domain, as PyTensor's (specialize): outside it the original is NaN, so the result
// keeps a NaN there through a switch:
//   exp(log(x))        -> switch(x >= 0, x, nan)
//   exp(log1p(x))      -> switch(x >= -1, 1 + x, nan)
//   expm1(log(x))      -> switch(x >= 0, x - 1, nan)
//   expm1(log1p(x))    -> switch(x >= -1, x, nan)
//   exp(log1mexp(x))   -> switch(x <= 0, 1 - exp(x), nan)
//   expm1(log1mexp(x)) -> switch(x <= 0, -exp(x), nan)
//   softplus(log(x))   -> switch(x >= 0, log1p(x), nan)
//   log1mexp(log(x))   -> switch(x >= 0, log1p(-x), nan)
// A NaN x stays NaN (the comparison is false). The NaN is of the outer function's dtype.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

using C = ScalarOpCode;

struct NanSwitchMatch : RewriteMatch {
    C outer = C::Exp, inner = C::Exp;
    Variable* x = nullptr;
};

bool known(C outer, C inner) {
    switch (outer) {
        case C::Exp: return inner == C::Log || inner == C::Log1p || inner == C::Log1mexp;
        case C::Expm1: return inner == C::Log || inner == C::Log1p || inner == C::Log1mexp;
        case C::Softplus: case C::Log1mexp: return inner == C::Log;
        default: return false;
    }
}

class LocalExpLogNanSwitch final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_exp_log_nan_switch"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const auto outer = rw::plainElemwiseCode(node);
        if (!outer) return MatchResult::fail("not a plain Elemwise");
        const Node* in = node.input(0)->owner();
        const auto inner = in ? rw::plainElemwiseCode(*in) : std::nullopt;
        if (!inner || !known(*outer, *inner)) return MatchResult::fail("not a function of its inverse");
        auto m = std::make_unique<NanSwitchMatch>();
        m->outer = *outer;
        m->inner = *inner;
        m->x = in->input(0);
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const NanSwitchMatch&>(match);
        const DType dt = node.output(0)->type().dtype;
        auto lit = [&](int64_t v) { return rewriter.constant(rw::scalarArray(DType::Int8, v)); };
        auto f = [&](C code, std::vector<Variable*> ins) { return rw::makeElemwiseOf(rewriter, code, std::move(ins)); };
        Variable* x = m.x;
        Variable *cond = nullptr, *value = nullptr;
        if (m.inner == C::Log1p) {
            cond = f(C::Ge, {x, lit(-1)});
            value = m.outer == C::Exp ? f(C::Add, {lit(1), x}) : x;
        } else if (m.inner == C::Log1mexp) {
            cond = f(C::Le, {x, lit(0)});
            value = m.outer == C::Exp ? f(C::Sub, {lit(1), f(C::Exp, {x})}) : f(C::Neg, {f(C::Exp, {x})});
        } else {  // of log(x)
            cond = f(C::Ge, {x, lit(0)});
            switch (m.outer) {
                case C::Exp: value = x; break;
                case C::Expm1: value = f(C::Sub, {x, lit(1)}); break;
                case C::Softplus: value = f(C::Log1p, {x}); break;
                default: value = f(C::Log1p, {f(C::Neg, {x})}); break;  // log1mexp
            }
        }
        rewriter.replace(node.output(0), rw::valueOrNaN(rewriter, cond, value, dt));
    }
};

} // namespace

const NodeRewrite& localExpLogNanSwitch() {
    static const LocalExpLogNanSwitch r;
    return r;
}

} // namespace tl
