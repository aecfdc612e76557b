// local_log_sum_exp: log(sum(exp(x), axes)) -> m + log(sum(switch(isinf(M), exp(M),
// exp(x - M)), axes)) with m = max(x, axes) and M = m with the reduced axes kept
// (PyTensor's local_log_sum_exp; stabilize and specialize). log(sum(exp(400 * s))) is
// inf once one exp overflows; the shifted sum is at least 1. The switch keeps an
// all -inf slice at -inf rather than NaN (and, as in PyTensor, makes the result differ
// from the pattern, so the rewrite does not match its own output). A DimShuffle between
// the log and the Sum (keepdims) is applied to the result.
#include "ops/DimShuffle.h"
#include "ops/Reduce.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <algorithm>

namespace tl {

namespace {

using C = ScalarOpCode;

struct LogSumExpMatch : RewriteMatch {
    const Node* sum = nullptr;
    const Node* dimShuffle = nullptr;  // keepdims, or null
    Variable* x = nullptr;             // exp's argument
};

class LocalLogSumExp final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_log_sum_exp"; }
    std::vector<std::string> tags() const override { return {"fast_run", "stabilize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != C::Log) return MatchResult::fail("not log");
        auto m = std::make_unique<LogSumExpMatch>();
        const Node* s = node.input(0)->owner();
        if (s && s->op().kind() == OpKind::DimShuffle) {
            m->dimShuffle = s;
            s = s->input(0)->owner();
        }
        if (!s || s->op().kind() != OpKind::Reduce || static_cast<const ReduceOp&>(s->op()).reduceKind() != ReduceKind::Sum)
            return MatchResult::fail("not log of a Sum");
        const Node* e = rw::elemwiseOwner(*s->input(0), C::Exp);
        if (!e) return MatchResult::fail("not log(sum(exp(x)))");
        m->sum = s;
        m->x = e->input(0);
        // The rebuilt sum must have the original's type: a Sum with another accumulator
        // dtype (sum(exp(x), dtype=...)) is left alone.
        if (s->output(0)->type().dtype != e->output(0)->type().dtype || m->x->type().dtype != e->output(0)->type().dtype)
            return MatchResult::fail("the sum or exp changes the dtype");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const LogSumExpMatch&>(match);
        const auto& sum = static_cast<const ReduceOp&>(m.sum->op());
        const int ndim = m.x->type().ndim();
        const std::vector<int> axes = sum.reducedAxes(ndim);
        Variable* max = rewriter.create(makeReduce(ReduceKind::Max, sum.axes()), {m.x})->output(0);
        // max with the reduced axes back as broadcastable dims.
        std::vector<int> order;
        for (int d = 0, kept = 0; d < ndim; ++d)
            order.push_back(std::find(axes.begin(), axes.end(), d) != axes.end() ? -1 : kept++);
        Variable* maxKeep = rewriter.create(makeDimShuffle(max->type().ndim(), order), {max})->output(0);
        Variable* shifted = rw::makeElemwiseOf(rewriter, C::Exp, {rw::makeElemwiseOf(rewriter, C::Sub, {m.x, maxKeep})});
        Variable* guarded = rw::makeElemwiseOf(rewriter, C::Switch, {rw::makeElemwiseOf(rewriter, C::IsInf, {maxKeep}),
                                                                    rw::makeElemwiseOf(rewriter, C::Exp, {maxKeep}), shifted});
        Variable* total = rewriter.create(m.sum->opPtr(), {guarded})->output(0);
        Variable* r = rw::makeElemwiseOf(rewriter, C::Add, {max, rw::makeElemwiseOf(rewriter, C::Log, {total})});
        if (m.dimShuffle) r = rewriter.create(m.dimShuffle->opPtr(), {r})->output(0);
        rewriter.replace(node.output(0), r);
    }
};

} // namespace

const NodeRewrite& localLogSumExp() {
    static const LocalLogSumExp r;
    return r;
}

} // namespace tl
