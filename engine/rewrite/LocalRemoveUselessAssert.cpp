// local_remove_useless_assert: conditions that are constant true say nothing, as
// PyTensor's local_remove_useless_assert:
//   Assert(x, True, c)   -> Assert(x, c)
//   Assert(x, True)      -> x
// A constant false condition stays (the run must still fail), as does a variable one.
// CheckAndRaise, of which Assert is the AssertionError case, likewise.
#include "ops/Assert.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct AssertMatch : RewriteMatch {
    std::vector<Variable*> kept;  // conditions still to check
};

class LocalRemoveUselessAssert final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_remove_useless_assert"; }
    std::vector<std::string> tags() const override { return {"fast_run", "useless", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Assert, OpKind::CheckAndRaise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        auto m = std::make_unique<AssertMatch>();
        for (int i = 1; i < node.numInputs(); ++i) {
            Variable* c = node.input(i);
            const bool constantTrue = c->isConstant() && c->constantValue().size() == 1 && c->constantValue().item() != 0.0;
            if (!constantTrue) m->kept.push_back(c);
        }
        if (static_cast<int>(m->kept.size()) == node.numInputs() - 1)
            return MatchResult::fail("no condition is a constant true");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const AssertMatch&>(match);
        Variable* r = node.input(0);
        if (!m.kept.empty()) {
            std::vector<Variable*> ins{node.input(0)};
            ins.insert(ins.end(), m.kept.begin(), m.kept.end());
            r = rewriter.create(node.opPtr(), std::move(ins))->output(0);
        }
        rewriter.replace(node.output(0), r);
    }
};

} // namespace

const NodeRewrite& localRemoveUselessAssert() {
    static const LocalRemoveUselessAssert r;
    return r;
}

} // namespace tl
