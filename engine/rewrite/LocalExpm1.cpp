// local_expm1: exp(a) - 1 -> expm1(a), and exp(a) + -1 in either order (PyTensor's
// local_expm1; canonicalize, stabilize and specialize). expm1 keeps the digits that
// exp(a) - 1 cancels for small a: exp(1e-9) - 1 is 1.00000008e-9, expm1 1e-9.
// Only a two-input add or sub whose constant holds 1 (or -1) in every element and does
// not broadcast exp(a) to a larger shape.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct Expm1Match : RewriteMatch {
    Variable* argument = nullptr;  // a of exp(a)
};

class LocalExpm1 final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_expm1"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "stabilize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const auto code = rw::plainElemwiseCode(node);
        if (code != ScalarOpCode::Sub && code != ScalarOpCode::Add) return MatchResult::fail("not add or sub");
        if (node.numInputs() != 2) return MatchResult::fail("not two inputs");
        const Node* e = nullptr;
        if (code == ScalarOpCode::Sub) {
            if (rw::isConstantEqualTo(*node.input(1), 1.0)) e = rw::elemwiseOwner(*node.input(0), ScalarOpCode::Exp);
        } else {
            for (int i = 0; i < 2 && !e; ++i)
                if (rw::isConstantEqualTo(*node.input(1 - i), -1.0)) e = rw::elemwiseOwner(*node.input(i), ScalarOpCode::Exp);
        }
        if (!e) return MatchResult::fail("not exp(a) - 1");
        const Type& out = node.output(0)->type();
        const Type& t = e->output(0)->type();
        if (t.dtype != out.dtype || !rw::sameBroadcastPattern(t, out)) return MatchResult::fail("the constant changes the type");
        auto m = std::make_unique<Expm1Match>();
        m->argument = e->input(0);
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const Expm1Match&>(match);
        rewriter.replace(node.output(0), rw::makeElemwiseOf(rewriter, ScalarOpCode::Expm1, {m.argument}));
    }
};

} // namespace

const NodeRewrite& localExpm1() {
    static const LocalExpm1 r;
    return r;
}

} // namespace tl
