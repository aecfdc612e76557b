// batched_vector_b_solve_to_matrix_b_solve (PyTensor's, specialize): a batch of
// vector solves with one matrix is one solve with a matrix of right-hand sides,
//   Solve{b_ndim=1}(A: (n, n), b: (k, n))  ->  Solve{b_ndim=2}(A, b.T).T
// so LAPACK factors A once instead of once per batch element. For Solve,
// SolveTriangular and CholeskySolve. A's batch dims must all be broadcastable (they
// are squeezed away); b's batch dims beyond one are flattened into one first and
// restored after: b: (j, k, n) -> reshape to (j*k, n), solve, reshape to (j, k, n).
#include "ops/Blockwise.h"
#include "ops/Linalg.h"
#include "ops/PropsOp.h"
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

const PropsOp* vectorSolveCore(const Node& node) {
    const auto* props = static_cast<const PropsOp*>(
        rw::blockwiseCoreOf(&node, {OpKind::Solve, OpKind::SolveTriangular, OpKind::CholeskySolve}));
    return props && props->intProp("b_ndim") == 1 ? props : nullptr;
}

// The same solve op with b_ndim=2 (type(core_op)(**props, b_ndim=2)).
OpPtr withMatrixB(const PropsOp& core) {
    auto flag = [&](const char* name) { return core.boolProp(name); };
    switch (core.kind()) {
    case OpKind::Solve:
        return makeSolve(core.stringProp("assume_a"), flag("lower"), flag("check_finite"), 2, flag("overwrite_a"),
                         flag("overwrite_b"));
    case OpKind::SolveTriangular:
        return makeSolveTriangular(flag("unit_diagonal"), flag("lower"), flag("check_finite"), 2, flag("overwrite_b"));
    default:
        return makeCholeskySolve(flag("lower"), flag("check_finite"), 2, flag("overwrite_b"));
    }
}

class BatchedVectorBSolveToMatrixBSolve final : public NodeRewrite {
public:
    std::string_view name() const override { return "batched_vector_b_solve_to_matrix_b_solve"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (!vectorSolveCore(node)) return MatchResult::fail("not a Blockwise solve of vectors (b_ndim=1)");
        if (node.input(1)->type().ndim() == 1) return MatchResult::fail("b is not batched");
        const Type& a = node.input(0)->type();
        for (int d = 0; d + 2 < a.ndim(); ++d)
            if (!a.broadcastable(d)) return MatchResult::fail("the matrix is batched too");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        Variable* a = node.input(0);
        Variable* b = node.input(1);
        if (a->type().ndim() > 2) {
            std::vector<int> keep{a->type().ndim() - 2, a->type().ndim() - 1};
            a = rw::dimShuffle(rewriter, a, keep);
        }
        const int bNdim = b->type().ndim();
        std::vector<Variable*> bShape;
        if (bNdim > 2) {
            for (int d = 0; d < bNdim; ++d) bShape.push_back(rw::dimOf(rewriter, b, d));
            b = rw::reshapeTo(rewriter, b, {rewriter.constant(rw::scalarArray(DType::Int64, -1)), bShape.back()});
        }
        OpPtr op = makeBlockwise(withMatrixB(*vectorSolveCore(node)), "(m,m),(m,n)->(m,n)");
        Variable* x = rw::applyBlockwise(rewriter, std::move(op), {a, rw::matrixTranspose(rewriter, b)})[0];
        x = rw::matrixTranspose(rewriter, x);
        if (bNdim > 2) x = rw::reshapeTo(rewriter, x, bShape);
        rewriter.replace(node.output(0), x);
    }
};

} // namespace

const NodeRewrite& batchedVectorBSolveToMatrixBSolve() {
    static const BatchedVectorBSolveToMatrixBSolve r;
    return r;
}

} // namespace tl
