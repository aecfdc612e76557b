// local_0_dot_x (PyTensor's, canonicalize and stabilize): a matrix product with a
// constant operand of zeros is zeros of the product's shape,
//   Dot(zeros((3, 6)), M: (6, ?))  ->  Alloc(0.0, 3, Shape_i{1}(M))
// so neither the product nor, once nothing else reads it, the other operand's graph is
// computed. Tagged shape_unsafe as in PyTensor: the inner lengths are no longer
// compared (a (3, 6) by (5, 2) product would have failed). Only a constant itself
// counts (PyTensor's only_process_constants), every element 0; only a product of two
// matrices (PyTensor's Dot is 2-d; tensorlens's also takes the vectors older graphs hold).
#include "ops/Alloc.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

bool constantZeros(const Variable& v) {
    if (!v.isConstant()) return false;
    const std::optional<NDArray> u = rw::uniqueValue(v);
    return u && u->item() == 0.0;
}

class Local0DotX final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_0_dot_x"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "stabilize", "shape_unsafe"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Dot}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (node.input(0)->type().ndim() != 2 || node.input(1)->type().ndim() != 2)
            return MatchResult::fail("not a product of two matrices");
        if (!constantZeros(*node.input(0)) && !constantZeros(*node.input(1)))
            return MatchResult::fail("neither operand is a constant of zeros");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const DType dtype = node.output(0)->type().dtype;
        Variable* rows = rw::dimOf(rewriter, node.input(0), 0);
        Variable* cols = rw::dimOf(rewriter, node.input(1), 1);
        Variable* zero = rewriter.constant(rw::scalarArray(dtype, 0));
        rewriter.replace(node.output(0), rewriter.create(makeAlloc(), {zero, rows, cols})->output(0));
    }
};

} // namespace

const NodeRewrite& local0DotX() {
    static const Local0DotX r;
    return r;
}

} // namespace tl
