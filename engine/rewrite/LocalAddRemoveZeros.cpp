// local_add_remove_zeros: constant zero terms leave a sum, as PyTensor's
// local_add_remove_zeros:
//   add(0, x, y) -> add(x, y)      add(x, 0) -> x
// Only when the result keeps the output's dtype and shape (a dropped zero must not
// have upcast or broadcast the rest); a sum of zeros only is constant folding's case.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct AddMatch : RewriteMatch {
    std::vector<Variable*> rest;
};

class LocalAddRemoveZeros final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_add_remove_zeros"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        auto code = rw::plainElemwiseCode(node);
        if (!code || *code != ScalarOpCode::Add) return MatchResult::fail("not add");
        const Type& out = node.output(0)->type();
        auto m = std::make_unique<AddMatch>();
        for (Variable* in : node.inputs())
            if (!rw::isConstantEqualTo(*in, 0.0)) m->rest.push_back(in);
        if (m->rest.size() == static_cast<size_t>(node.numInputs())) return MatchResult::fail("no zero term");
        if (m->rest.empty()) return MatchResult::fail("only zeros (constant folding's case)");
        std::vector<Type> ts;
        for (Variable* v : m->rest) ts.push_back(v->type());
        std::optional<Type> rt = ts.size() == 1 ? std::optional<Type>(ts.front()) : rw::elemwiseTypeOf(ScalarOpCode::Add, ts);
        if (!rt || rt->dtype != out.dtype || !rw::sameBroadcastPattern(*rt, out) || !out.accepts(*rt))
            return MatchResult::fail("the other terms do not keep the output's dtype and shape");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const AddMatch&>(match);
        Variable* r = m.rest.size() == 1 ? m.rest.front() : rw::makeElemwiseOf(rewriter, ScalarOpCode::Add, m.rest);
        rewriter.replace(node.output(0), r);
    }
};

} // namespace

const NodeRewrite& localAddRemoveZeros() {
    static const LocalAddRemoveZeros r;
    return r;
}

} // namespace tl
