// local_neg_to_mul: neg(x) -> mul(-1, x) (PyTensor's name; canonicalize), so the
// product canonizer sees through a negation: -(g / s) * s cancels s. Specialize's
// local_mul_specialize turns a remaining mul(-1, x) back into neg(x). Not for bool
// or unsigned x (no -1 of their dtype).
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class LocalNegToMul final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_neg_to_mul"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != ScalarOpCode::Neg) return MatchResult::fail("not neg");
        const DType d = node.input(0)->type().dtype;
        if (d == DType::Bool || isUnsigned(d)) return MatchResult::fail("no -1 of an unsigned or bool dtype");
        if (!node.input(0)->type().holdsNumbers() || node.input(0)->type().isScalarType()) return MatchResult::fail("not a tensor");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        Variable* x = node.input(0);
        Variable* minusOne = rewriter.constant(rw::scalarArray(x->type().dtype, -1));
        rewriter.replace(node.output(0), rw::makeElemwiseOf(rewriter, ScalarOpCode::Mul, {minusOne, x}));
    }
};

} // namespace

const NodeRewrite& localNegToMul() {
    static const LocalNegToMul r;
    return r;
}

} // namespace tl
