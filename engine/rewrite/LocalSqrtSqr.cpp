// local_sqrt_sqr: sqrt(sqr(x)) -> |x| and sqr(sqrt(x)) -> switch(x >= 0, x, nan), as
// PyTensor's (canonicalize, specialize). The first also holds where sqr(x) overflows
// (sqrt(sqr(1e200)) is inf, the rewrite gives 1e200); in the second sqrt(x) is NaN for
// a negative x, and so is the rewritten result. Cast to the outer function's dtype
// where the inner one changed it (sqrt of an integer is a float).
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class LocalSqrtSqr final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_sqrt_sqr"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const auto outer = rw::plainElemwiseCode(node);
        if (outer != ScalarOpCode::Sqrt && outer != ScalarOpCode::Sqr) return MatchResult::fail("not sqrt or sqr");
        const ScalarOpCode inner = *outer == ScalarOpCode::Sqrt ? ScalarOpCode::Sqr : ScalarOpCode::Sqrt;
        if (!rw::elemwiseOwner(*node.input(0), inner)) return MatchResult::fail("not sqrt(sqr(x)) or sqr(sqrt(x))");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        Variable* x = node.input(0)->owner()->input(0);
        const DType dt = node.output(0)->type().dtype;
        if (rw::plainElemwiseCode(node) == ScalarOpCode::Sqrt) {
            rewriter.replace(node.output(0), rw::castTo(rewriter, rw::makeElemwiseOf(rewriter, ScalarOpCode::Abs, {x}), dt));
            return;
        }
        Variable* nonNegative = rw::makeElemwiseOf(rewriter, ScalarOpCode::Ge, {x, rewriter.constant(rw::scalarArray(DType::Int8, 0))});
        rewriter.replace(node.output(0), rw::valueOrNaN(rewriter, nonNegative, x, dt));
    }
};

} // namespace

const NodeRewrite& localSqrtSqr() {
    static const LocalSqrtSqr r;
    return r;
}

} // namespace tl
