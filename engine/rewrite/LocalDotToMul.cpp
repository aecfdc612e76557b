// local_dot_to_mul: a product whose summed dim has static length 1 sums nothing, so
// it is an elementwise product (PyTensor's rewrite of that name, canonicalize and
// specialize):
//   Dot(x (1,1), y (1,n))           -> mul(x, y)
//   Matmul(x (b,m,1), y (b,1,n))    -> mul(x, y)
// A Dot of a column by a row, (m,1) @ (1,n), stays: BLAS's Ger computes that outer
// product (local_dot22_to_ger_or_gemv), so only a Dot whose result also has a row or
// a column of length 1 goes; the drivers list it after
// local_eager_useless_unbatched_blockwise, so a Matmul of matrices is a Dot by then and
// its outer product also goes to Ger, as in PyTensor's compiled graphs. Only one side needs the static 1: the product requires
// the other's length to match at run time, where Elemwise broadcasts it.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class LocalDotToMul final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_dot_to_mul"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Dot, OpKind::Blockwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const bool matmul = node.kind() == OpKind::Blockwise;
        if (matmul && !rw::isMatmul(node)) return MatchResult::fail("not a Matmul");
        const Type& a = node.input(0)->type();
        const Type& b = node.input(1)->type();
        if (a.ndim() < 2 || b.ndim() < 2) return MatchResult::fail("a vector operand");
        auto dim = [](const Type& t, int fromEnd) { return t.shape[static_cast<size_t>(t.ndim() - fromEnd)]; };
        if (dim(a, 1) != 1 && dim(b, 2) != 1) return MatchResult::fail("the summed dim is not of static length 1");
        if (!matmul && dim(a, 2) != 1 && dim(b, 1) != 1)
            return MatchResult::fail("an outer product of a column and a row (left for Ger)");
        const std::optional<Type> product = rw::elemwiseTypeOf(ScalarOpCode::Mul, {a, b});
        const Type& out = node.output(0)->type();
        if (!product || product->dtype != out.dtype || !rw::compatibleTypes(*product, out))
            return MatchResult::fail("the elementwise product would have another type");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rw, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        rw.replace(node.output(0), rw::makeElemwiseOf(rw, ScalarOpCode::Mul, {node.input(0), node.input(1)}));
    }
};

} // namespace

const NodeRewrite& localDotToMul() {
    static const LocalDotToMul r;
    return r;
}

} // namespace tl
