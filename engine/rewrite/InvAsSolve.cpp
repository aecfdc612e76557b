// inv_as_solve (PyTensor's, stabilize): a product with an inverse is a solve, which
// is cheaper and loses fewer digits than forming the inverse,
//   Dot(inv(A), b)  ->  Solve{gen}(A, b)
//   Dot(b, inv(A))  ->  Solve{gen}(A.T, b.T).T
// with PyTensor's pt.linalg.solve defaults (check_finite, b_ndim 1 for a vector b,
// else 2). Only MatrixInverse counts, not pinv. With the inverse on the right, b
// must be a matrix (PyTensor's .mT of a vector fails, and its rewrite with it).
// PyTensor's branch for a matrix tagged symmetric has no tag to read in an
// exported graph; tensorlens keeps the general form.
#include "ops/Blockwise.h"
#include "ops/Linalg.h"
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

// The matrix under a Blockwise{MatrixInverse}, or null.
Variable* invertedMatrix(const Variable& v) {
    return rw::blockwiseCoreOf(v, {OpKind::MatrixInverse}) ? v.owner()->input(0) : nullptr;
}

struct InvMatch : RewriteMatch {
    bool onLeft = true;
};

class InvAsSolve final : public NodeRewrite {
public:
    std::string_view name() const override { return "inv_as_solve"; }
    std::vector<std::string> tags() const override { return {"fast_run", "stabilize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Dot}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        // A Solve's result has its operands' float dtype; another would not replace the product.
        const DType dtype = node.output(0)->type().dtype;
        if ((dtype != DType::Float64 && dtype != DType::Float32) || node.input(0)->type().dtype != dtype ||
            node.input(1)->type().dtype != dtype)
            return MatchResult::fail("not a product of two arrays of the result's float dtype");
        auto m = std::make_unique<InvMatch>();
        if (invertedMatrix(*node.input(0))) return MatchResult::ok(std::move(m));
        if (!invertedMatrix(*node.input(1))) return MatchResult::fail("neither operand is an inv()");
        if (node.input(0)->type().ndim() < 2) return MatchResult::fail("inv() on the right of a vector (PyTensor's .mT of it fails)");
        m->onLeft = false;
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        auto solve = [&](Variable* a, Variable* b) {
            const int bNdim = std::min(b->type().ndim(), 2);
            return rw::applyLinalgBlockwise(rewriter, makeSolve("gen", false, true, bNdim), {a, b});
        };
        Variable* x;
        if (static_cast<const InvMatch&>(match).onLeft) {
            x = solve(invertedMatrix(*node.input(0)), node.input(1));
        } else {
            Variable* a = invertedMatrix(*node.input(1));
            x = rw::matrixTranspose(rewriter, solve(rw::matrixTranspose(rewriter, a), rw::matrixTranspose(rewriter, node.input(0))));
        }
        rewriter.replace(node.output(0), x);
    }
};

} // namespace

const NodeRewrite& invAsSolve() {
    static const InvAsSolve r;
    return r;
}

} // namespace tl
