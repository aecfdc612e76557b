// local_max_to_min (PyTensor's, phase uncanonicalize): pt.min builds -max(-x); the
// uncanonicalize phase turns it back into one reduction,
//   neg(Max{axes}(neg(x))) -> Min{axes}(x)
// (Max or CAReduce{maximum}). One pass over the data instead of three, and for
// integers the minimum itself: -max(-x) wraps at the dtype's minimum (int16: -(-32768)
// is -32768, so min([0, -32768]) came out 0).
#include "ops/Reduce.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

bool isMaxReduction(const Node& node) {
    if (node.op().kind() != OpKind::Reduce) return false;
    const auto& r = static_cast<const ReduceOp&>(node.op());
    if (r.reduceKind() == ReduceKind::Max) return true;
    return r.reduceKind() == ReduceKind::CAReduce && !r.composite() && r.scalarOp() == ScalarOpCode::Maximum;
}

class LocalMaxToMin final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_max_to_min"; }
    std::vector<std::string> tags() const override { return {"fast_run", "uncanonicalize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        if (rw::plainElemwiseCode(node) != ScalarOpCode::Neg) return MatchResult::fail("not neg");
        const Node* max = node.input(0)->owner();
        if (!max || !isMaxReduction(*max)) return MatchResult::fail("not the negation of a max");
        const Node* inner = max->input(0)->owner();
        if (!inner || rw::plainElemwiseCode(*inner) != ScalarOpCode::Neg) return MatchResult::fail("the max is not of a negation");
        const Type& x = inner->input(0)->type();
        const auto& r = static_cast<const ReduceOp&>(max->op());
        std::vector<Type> types;
        try {
            const Type* in = &x;
            types = ReduceOp(ReduceKind::Min, r.axes()).inferTypes(std::span<const Type* const>(&in, 1));
        } catch (const OpTypeError& e) {
            const std::string why = e.what();
            return MatchResult::fail(options, [&] { return "Min does not take the max's input: " + why; });
        }
        const Type& out = node.output(0)->type();
        if (types.size() != 1 || !rw::sameBroadcastPattern(types[0], out) || !out.accepts(types[0]))
            return MatchResult::fail("Min of the input would not have the negation's type");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const Node* max = node.input(0)->owner();
        const auto& r = static_cast<const ReduceOp&>(max->op());
        Variable* x = max->input(0)->owner()->input(0);
        rewriter.replace(node.output(0), rewriter.create(makeReduce(ReduceKind::Min, r.axes()), {x})->output(0));
    }
};

} // namespace

const NodeRewrite& localMaxToMin() {
    static const LocalMaxToMin r;
    return r;
}

} // namespace tl
