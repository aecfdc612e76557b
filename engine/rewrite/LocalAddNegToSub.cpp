// local_add_neg_to_sub: x + (-y) -> x - y and (-x) + y -> y - x, as PyTensor's
// (specialize, where local_mul_specialize has turned canonicalize's -1 * y back into
// -y). One node instead of two; the result is the same number (x + (-y) rounds as x - y).
// Only a two-input add; the negated operand's dtype is its input's, so the type is kept.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct SubOperands : RewriteMatch {
    Variable *minuend = nullptr, *subtrahend = nullptr;
};

class LocalAddNegToSub final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_add_neg_to_sub"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != ScalarOpCode::Add) return MatchResult::fail("not add");
        if (node.numInputs() != 2) return MatchResult::fail("not two inputs");
        // PyTensor's order: the second operand negated first, then the first.
        for (int neg : {1, 0}) {
            const Node* n = rw::elemwiseOwner(*node.input(neg), ScalarOpCode::Neg);
            if (!n) continue;
            auto m = std::make_unique<SubOperands>();
            m->minuend = node.input(1 - neg);
            m->subtrahend = n->input(0);
            return MatchResult::ok(std::move(m));
        }
        return MatchResult::fail("no negated operand");
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const SubOperands&>(match);
        Variable* sub = rw::makeElemwiseOf(rewriter, ScalarOpCode::Sub, {m.minuend, m.subtrahend});
        rewriter.replace(node.output(0), rw::castTo(rewriter, sub, node.output(0)->type().dtype));
    }
};

} // namespace

const NodeRewrite& localAddNegToSub() {
    static const LocalAddNegToSub r;
    return r;
}

} // namespace tl
