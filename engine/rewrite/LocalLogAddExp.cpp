// local_log_add_exp: log(exp(x) + exp(y) + ...) -> m + log(switch(isinf(m), exp(m),
// exp(x - m)) + switch(isinf(m), exp(m), exp(y - m)) + ...) with m = maximum(x, y, ...)
// (PyTensor's local_log_add_exp; stabilize and specialize): pt.logaddexp and a mixture's
// log-likelihood written by hand. log(exp(800) + exp(799)) is inf once an exp overflows;
// the shifted terms sum to at least 1. The switch keeps all -inf arguments at -inf rather
// than NaN, and (as in PyTensor) makes the result differ from the pattern, so the rewrite
// does not match its own output.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

using C = ScalarOpCode;

struct LogAddExpMatch : RewriteMatch {
    std::vector<Variable*> args;  // the exps' arguments, in the sum's order
};

class LocalLogAddExp final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_log_add_exp"; }
    std::vector<std::string> tags() const override { return {"fast_run", "stabilize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != C::Log) return MatchResult::fail("not log");
        const Node* add = rw::elemwiseOwner(*node.input(0), C::Add);
        if (!add) return MatchResult::fail("not log of an add");
        auto m = std::make_unique<LogAddExpMatch>();
        for (const Variable* term : add->inputs()) {
            const Node* e = rw::elemwiseOwner(*term, C::Exp);
            if (!e) return MatchResult::fail("a term of the add is no exp");
            // The shifted form computes in the log's dtype only when every argument has it
            // (an integer argument would make maximum and sub integer). Its shape is the
            // arguments' broadcast, the add's.
            if (e->input(0)->type().dtype != node.output(0)->type().dtype) return MatchResult::fail("an exp or the log changes the dtype");
            m->args.push_back(e->input(0));
        }
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const LogAddExpMatch&>(match);
        Variable* max = m.args[0];
        for (size_t i = 1; i < m.args.size(); ++i) max = rw::makeElemwiseOf(rewriter, C::Maximum, {max, m.args[i]});
        Variable* isInf = rw::makeElemwiseOf(rewriter, C::IsInf, {max});
        Variable* expMax = rw::makeElemwiseOf(rewriter, C::Exp, {max});
        std::vector<Variable*> terms;
        for (Variable* a : m.args) {
            Variable* shifted = rw::makeElemwiseOf(rewriter, C::Exp, {rw::makeElemwiseOf(rewriter, C::Sub, {a, max})});
            terms.push_back(rw::makeElemwiseOf(rewriter, C::Switch, {isInf, expMax, shifted}));
        }
        Variable* total = terms.size() == 1 ? terms[0] : rw::makeElemwiseOf(rewriter, C::Add, terms);
        Variable* r = rw::makeElemwiseOf(rewriter, C::Add, {max, rw::makeElemwiseOf(rewriter, C::Log, {total})});
        rewriter.replace(node.output(0), r);
    }
};

} // namespace

const NodeRewrite& localLogAddExp() {
    static const LocalLogAddExp r;
    return r;
}

} // namespace tl
