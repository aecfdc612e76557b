// local_div_switch_sink (PyTensor's, canonicalize): a quotient whose numerator is a
// switch with a constant-zero branch moves inside the other branch,
//   div(switch(c, 0, y), A) -> switch(c, 0, div(y, A))
//   div(switch(c, y, 0), A) -> switch(c, div(y, A), 0)
// for true_div and int_div, so where the switch picks 0 the result is 0 even when A
// is 0, inf or NaN there. Only when the result keeps the quotient's type.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct SinkMatch : RewriteMatch {
    ScalarOpCode div = ScalarOpCode::TrueDiv;
    int zeroBranch = 0;  // 0: switch(c, 0, y), 1: switch(c, y, 0)
};

class LocalDivSwitchSink final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_div_switch_sink"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const std::optional<ScalarOpCode> code = rw::plainElemwiseCode(node);
        if (code != ScalarOpCode::TrueDiv && code != ScalarOpCode::IntDiv) return MatchResult::fail("not true_div or int_div");
        const Node* sw = node.input(0)->owner();
        if (!sw || rw::plainElemwiseCode(*sw) != ScalarOpCode::Switch) return MatchResult::fail("the numerator is not a switch");
        const std::optional<int> zero = rw::zeroBranchOfSwitch(*sw);
        if (!zero) return MatchResult::fail("neither branch of the numerator's switch is a constant 0");
        const std::optional<Type> quotient = rw::elemwiseTypeOf(*code, {sw->input(2 - *zero)->type(), node.input(1)->type()});
        if (!quotient) return MatchResult::fail("the other branch cannot be divided by the denominator");
        const std::optional<Type> result = rw::switchKeepingZeroBranchType(*sw, *zero, *quotient);
        const Type& out = node.output(0)->type();
        if (!result || !rw::sameBroadcastPattern(*result, out) || !out.accepts(*result))
            return MatchResult::fail("the sunk switch would not keep the quotient's type");
        auto m = std::make_unique<SinkMatch>();
        m->div = *code;
        m->zeroBranch = *zero;
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const SinkMatch&>(match);
        Node* sw = node.input(0)->owner();
        Variable* quotient = rw::makeElemwiseOf(rewriter, m.div, {sw->input(2 - m.zeroBranch), node.input(1)});
        rewriter.replace(node.output(0), rw::switchKeepingZeroBranch(rewriter, *sw, m.zeroBranch, quotient));
    }
};

} // namespace

const NodeRewrite& localDivSwitchSink() {
    static const LocalDivSwitchSink r;
    return r;
}

} // namespace tl
