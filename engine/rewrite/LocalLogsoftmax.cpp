// local_logsoftmax: log(softmax(x)) -> log_softmax(x) over the same axis (PyTensor's
// name; stabilize). log(softmax(100 * s)) is -inf where a probability underflows;
// log_softmax subtracts the log-sum-exp instead. (PyTensor also lifts Subtensor and
// DimShuffle nodes between the two; tensorlens matches the direct form.)
#include "ops/Softmax.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct SoftmaxMatch : RewriteMatch {
    const Node* softmax = nullptr;
};

class LocalLogsoftmax final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_logsoftmax"; }
    std::vector<std::string> tags() const override { return {"fast_run", "stabilize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != ScalarOpCode::Log) return MatchResult::fail("not log");
        const Node* s = node.input(0)->owner();
        if (!s || s->op().kind() != OpKind::Softmax) return MatchResult::fail("not log(softmax(x))");
        if (!(s->output(0)->type() == node.output(0)->type())) return MatchResult::fail("the log changes the dtype");
        auto m = std::make_unique<SoftmaxMatch>();
        m->softmax = s;
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const SoftmaxMatch&>(match);
        const auto& op = static_cast<const SoftmaxOp&>(m.softmax->op());
        rewriter.replace(node.output(0), rewriter.create(makeLogSoftmax(op.axis()), {m.softmax->input(0)})->output(0));
    }
};

} // namespace

const NodeRewrite& localLogsoftmax() {
    static const LocalLogsoftmax r;
    return r;
}

} // namespace tl
