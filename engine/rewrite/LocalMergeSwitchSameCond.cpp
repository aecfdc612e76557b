// local_merge_switch_same_cond (PyTensor's, canonicalize): an add, mul or binary
// Elemwise whose inputs are all switches on the same condition becomes one switch
// of the op applied to each side, so each side can simplify on its own:
//   switch(c, a, b) + switch(c, x, y)       -> switch(c, a + x, b + y)
//   maximum(switch(c, a, 0), switch(c, x, 0)) -> switch(c, maximum(a, x), maximum(0, 0))
// Gradients of `switch`/`where` produce such sums (one switch per use of the
// branch). Both sides are computed where each switch computed both of its
// branches, so no value is evaluated that was not before.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class LocalMergeSwitchSameCond final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_merge_switch_same_cond"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const std::optional<ScalarOpCode> code = rw::plainElemwiseCode(node);
        if (!code || !(*code == ScalarOpCode::Add || *code == ScalarOpCode::Mul || scalarOpInfo(*code).arity == 2))
            return MatchResult::fail("not an add, a mul or a binary Elemwise");
        const Variable* cond = nullptr;
        std::vector<Type> sides[2];
        for (const Variable* in : node.inputs()) {
            const Node* sw = rw::elemwiseOwner(*in, ScalarOpCode::Switch);
            if (!sw) return MatchResult::fail("an input is not a switch");
            if (cond && sw->input(0) != cond) return MatchResult::fail("the switches have different conditions");
            cond = sw->input(0);
            sides[0].push_back(sw->input(1)->type());
            sides[1].push_back(sw->input(2)->type());
        }
        const std::optional<Type> whenTrue = rw::elemwiseTypeOf(*code, sides[0]);
        const std::optional<Type> whenFalse = rw::elemwiseTypeOf(*code, sides[1]);
        if (!whenTrue || !whenFalse) return MatchResult::fail("the op rejects one side's inputs");
        const std::optional<Type> merged = rw::elemwiseTypeOf(ScalarOpCode::Switch, {cond->type(), *whenTrue, *whenFalse});
        if (!merged || !rw::compatibleTypes(node.output(0)->type(), *merged))
            return MatchResult::fail("the merged switch would have another dtype or shape");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const ScalarOpCode code = *rw::plainElemwiseCode(node);
        Variable* cond = node.input(0)->owner()->input(0);
        std::vector<Variable*> sides[2];
        for (const Variable* in : node.inputs()) {
            sides[0].push_back(in->owner()->input(1));
            sides[1].push_back(in->owner()->input(2));
        }
        Variable* whenTrue = rw::makeElemwiseOf(rewriter, code, std::move(sides[0]));
        Variable* whenFalse = rw::makeElemwiseOf(rewriter, code, std::move(sides[1]));
        rewriter.replace(node.output(0), rw::makeElemwiseOf(rewriter, ScalarOpCode::Switch, {cond, whenTrue, whenFalse}));
    }
};

} // namespace

const NodeRewrite& localMergeSwitchSameCond() {
    static const LocalMergeSwitchSameCond r;
    return r;
}

} // namespace tl
