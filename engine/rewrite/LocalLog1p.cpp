// local_log1p: log(1 + x) -> log1p(x) and log(1 - x) -> log1p(-x) (PyTensor's
// local_log1p; stabilize and specialize). log1p keeps the digits that 1 + x rounds
// away for small x: log(1 + 1e-17) is 0, log1p(1e-17) 1e-17.
//   log(add(c1, ..., x, y))  -> log1p(x + y)    constants c summing to 1
//   log(sub(1, x))           -> log1p(neg(x))
// Only where the result keeps the output's type (a constant that broadcasts the rest
// to a larger shape would need an alloc; PyTensor adds one, tensorlens leaves the log).
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <cmath>

namespace tl {

namespace {

struct Log1pMatch : RewriteMatch {
    std::vector<Variable*> rest;  // summed, then log1p
    bool negate = false;          // log1p(neg(rest))
};

class LocalLog1p final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_log1p"; }
    std::vector<std::string> tags() const override { return {"fast_run", "stabilize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != ScalarOpCode::Log) return MatchResult::fail("not log");
        const Variable& arg = *node.input(0);
        auto m = std::make_unique<Log1pMatch>();
        if (const Node* add = rw::elemwiseOwner(arg, ScalarOpCode::Add)) {
            double constants = 0;
            bool any = false;
            for (Variable* in : add->inputs()) {
                if (auto u = rw::uniqueValue(*in)) {
                    constants += u->item();
                    any = true;
                } else {
                    m->rest.push_back(in);
                }
            }
            if (!any || std::fabs(constants - 1.0) > 1e-8) return MatchResult::fail("the constants of the sum do not add up to 1");
            if (m->rest.empty()) return MatchResult::fail("only constants (constant folding's case)");
        } else if (const Node* sub = rw::elemwiseOwner(arg, ScalarOpCode::Sub)) {
            if (!rw::isConstantEqualTo(*sub->input(0), 1.0)) return MatchResult::fail("not 1 - x");
            m->rest = {sub->input(1)};
            m->negate = true;
        } else {
            return MatchResult::fail("not log of a sum or difference");
        }
        const Type& out = node.output(0)->type();
        std::vector<Type> ts;
        for (Variable* v : m->rest) ts.push_back(v->type());
        std::optional<Type> t = ts.size() == 1 ? std::optional<Type>(ts[0]) : rw::elemwiseTypeOf(ScalarOpCode::Add, ts);
        if (t && m->negate) t = rw::elemwiseTypeOf(ScalarOpCode::Neg, {*t});
        if (t) t = rw::elemwiseTypeOf(ScalarOpCode::Log1p, {*t});
        if (!t || t->dtype != out.dtype || !rw::sameBroadcastPattern(*t, out) || !out.accepts(*t))
            return MatchResult::fail("log1p of the rest has another type than the log");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const Log1pMatch&>(match);
        Variable* x = m.rest.size() == 1 ? m.rest[0] : rw::makeElemwiseOf(rewriter, ScalarOpCode::Add, m.rest);
        if (m.negate) x = rw::makeElemwiseOf(rewriter, ScalarOpCode::Neg, {x});
        rewriter.replace(node.output(0), rw::makeElemwiseOf(rewriter, ScalarOpCode::Log1p, {x}));
    }
};

} // namespace

const NodeRewrite& localLog1p() {
    static const LocalLog1p r;
    return r;
}

} // namespace tl
