// local_mul_switch_sink (PyTensor's, canonicalize and specialize): a product with a
// switch that has a constant-zero branch moves inside the other branch,
//   mul(A, switch(c, 0, y), B) -> switch(c, 0, mul(A, B, y))
//   mul(A, switch(c, y, 0), B) -> switch(c, mul(A, B, y), 0)
// so where the switch picks 0 the result is 0 even when A or B is inf or NaN there.
// This is what makes the gradient of switch(x == 0, 0, x * log(x)) 0 at x = 0
// instead of NaN (0 * -inf). Only when the result keeps the product's type.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct SinkMatch : RewriteMatch {
    int factor = 0;      // the mul input that is the switch
    int zeroBranch = 0;  // 0: switch(c, 0, y), 1: switch(c, y, 0)
};

class LocalMulSwitchSink final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_mul_switch_sink"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != ScalarOpCode::Mul) return MatchResult::fail("not mul");
        const Type& out = node.output(0)->type();
        bool sawSwitch = false;
        for (int i = 0; i < node.numInputs(); ++i) {
            const Node* sw = node.input(i)->owner();
            if (!sw || rw::plainElemwiseCode(*sw) != ScalarOpCode::Switch) continue;
            sawSwitch = true;
            const std::optional<int> zero = rw::zeroBranchOfSwitch(*sw);
            if (!zero) continue;
            std::vector<Type> factors;
            for (int j = 0; j < node.numInputs(); ++j)
                factors.push_back(j == i ? sw->input(2 - *zero)->type() : node.input(j)->type());
            const std::optional<Type> product = rw::elemwiseTypeOf(ScalarOpCode::Mul, factors);
            if (!product) continue;
            const std::optional<Type> result = rw::switchKeepingZeroBranchType(*sw, *zero, *product);
            if (!result || !rw::sameBroadcastPattern(*result, out) || !out.accepts(*result)) continue;
            auto m = std::make_unique<SinkMatch>();
            m->factor = i;
            m->zeroBranch = *zero;
            return MatchResult::ok(std::move(m));
        }
        return MatchResult::fail(sawSwitch ? "no switch factor has a constant 0 branch that keeps the product's type"
                                           : "no factor is a switch");
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const SinkMatch&>(match);
        Node* sw = node.input(m.factor)->owner();
        std::vector<Variable*> factors(node.inputs().begin(), node.inputs().end());
        factors[m.factor] = sw->input(2 - m.zeroBranch);
        Variable* product = rw::makeElemwiseOf(rewriter, ScalarOpCode::Mul, std::move(factors));
        rewriter.replace(node.output(0), rw::switchKeepingZeroBranch(rewriter, *sw, m.zeroBranch, product));
    }
};

} // namespace

const NodeRewrite& localMulSwitchSink() {
    static const LocalMulSwitchSink r;
    return r;
}

} // namespace tl
