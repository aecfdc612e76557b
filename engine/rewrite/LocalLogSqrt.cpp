// local_log_sqrt: log(sqrt(x)) -> 0.5 * log(x), as PyTensor's (specialize): one
// transcendental call instead of two, and no rounding of the root. Equal for every x:
// a negative x gives NaN either way, 0 gives -inf. The 0.5 has x's dtype (float32 for a
// float32 x), as PyTensor's; an integer x is left alone (0.5 in its dtype would be 0).
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class LocalLogSqrt final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_log_sqrt"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != ScalarOpCode::Log) return MatchResult::fail("not log");
        const Node* root = rw::elemwiseOwner(*node.input(0), ScalarOpCode::Sqrt);
        if (!root) return MatchResult::fail("not log(sqrt(x))");
        if (!isFloat(root->input(0)->type().dtype)) return MatchResult::fail("x is not a float");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        Variable* x = node.input(0)->owner()->input(0);
        Variable* half = rewriter.constant(NDArray::scalar(x->type().dtype, 0.5));
        Variable* r = rw::makeElemwiseOf(rewriter, ScalarOpCode::Mul, {half, rw::makeElemwiseOf(rewriter, ScalarOpCode::Log, {x})});
        rewriter.replace(node.output(0), rw::castTo(rewriter, r, node.output(0)->type().dtype));
    }
};

} // namespace

const NodeRewrite& localLogSqrt() {
    static const LocalLogSqrt r;
    return r;
}

} // namespace tl
