// local_dot_to_dot22: Dot(x, y) of two float matrices of one dtype -> Dot22(x, y), the
// op PyTensor's BLAS rewrites start from (PyTensor's local_dot_to_dot22, the first
// pass of its BlasOpt, position 1.7). pt.dot of vectors reaches it as a Dot of
// ExpandDims, and local_dot22_to_ger_or_gemv turns those into Gemv or Ger.
//   Dot(A, B) -> Dot22(A, B)        float32 or float64, both the same
#include "ops/BlasOps.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class LocalDotToDot22 final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_dot_to_dot22"; }
    std::vector<std::string> tags() const override { return {"fast_run", "fast_compile", "blas"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Dot}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const Type& x = node.input(0)->type();
        const Type& y = node.input(1)->type();
        // PyTensor upcasts nothing here: an int or mixed product stays a Dot.
        if (x.dtype != y.dtype) return MatchResult::fail("the inputs have different dtypes");
        if (!isFloat(x.dtype)) return MatchResult::fail("not a float product");
        if (x.ndim() != 2 || y.ndim() != 2) return MatchResult::fail("not two matrices");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        rewriter.replace(node.output(0), rewriter.create(makeDot22(), {node.input(0), node.input(1)})->output(0));
    }
};

} // namespace

const NodeRewrite& localDotToDot22() {
    static const LocalDotToDot22 r;
    return r;
}

} // namespace tl
