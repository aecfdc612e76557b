// logdiffexp_to_log1mexpdiff: log(exp(x) - exp(y)) -> x + log1mexp(y - x) (PyTensor's
// pattern rewrite of that name; stabilize): the log-probability of an interval from two
// log-CDFs. exp(800) - exp(799) is inf - inf = NaN; the difference of the logs is -1,
// and log1mexp(-1) is finite. Where y > x both forms are NaN, as log of a negative.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

using C = ScalarOpCode;

struct LogDiffExpMatch : RewriteMatch {
    Variable* x = nullptr;
    Variable* y = nullptr;
};

class LogdiffexpToLog1mexpdiff final : public NodeRewrite {
public:
    std::string_view name() const override { return "logdiffexp_to_log1mexpdiff"; }
    std::vector<std::string> tags() const override { return {"fast_run", "stabilize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != C::Log) return MatchResult::fail("not log");
        const Node* sub = rw::elemwiseOwner(*node.input(0), C::Sub);
        if (!sub) return MatchResult::fail("not log of a difference");
        const Node* ex = rw::elemwiseOwner(*sub->input(0), C::Exp);
        const Node* ey = rw::elemwiseOwner(*sub->input(1), C::Exp);
        if (!ex || !ey) return MatchResult::fail("not log(exp(x) - exp(y))");
        auto m = std::make_unique<LogDiffExpMatch>();
        m->x = ex->input(0);
        m->y = ey->input(0);
        // x + log1mexp(y - x) has the log's type when x and y have its dtype (the shape is
        // their broadcast either way).
        const DType d = node.output(0)->type().dtype;
        if (m->x->type().dtype != d || m->y->type().dtype != d) return MatchResult::fail("x or y has another dtype than the log");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const LogDiffExpMatch&>(match);
        Variable* diff = rw::makeElemwiseOf(rewriter, C::Sub, {m.y, m.x});
        Variable* r = rw::makeElemwiseOf(rewriter, C::Add, {m.x, rw::makeElemwiseOf(rewriter, C::Log1mexp, {diff})});
        rewriter.replace(node.output(0), r);
    }
};

} // namespace

const NodeRewrite& logdiffexpToLog1mexpdiff() {
    static const LogdiffexpToLog1mexpdiff r;
    return r;
}

} // namespace tl
