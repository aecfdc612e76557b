// scalar_solve_to_division (PyTensor's, canonicalize and stabilize): a solve with a
// 1x1 matrix is a division,
//   Solve(a, b)                            -> b / a
//   SolveTriangular(a, b)                  -> b / a       (unit_diagonal: b broadcast with a, a taken as 1)
//   CholeskySolve(c, b)                    -> b / c**2
// where a's last two dims are statically 1. A vector b (b_ndim=1) is divided as a
// column, b[..., None], and the column axis dropped after, as PyTensor's rewrite does;
// the result is cast to the solve's dtype.
#include "ops/PropsOp.h"
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

const PropsOp* solveCore(const Node& node) {
    return static_cast<const PropsOp*>(
        rw::blockwiseCoreOf(&node, {OpKind::Solve, OpKind::SolveTriangular, OpKind::CholeskySolve}));
}

// x with a new axis of length 1 at the end (x[..., None]).
Variable* asColumn(Rewriter& rewriter, Variable* x) {
    std::vector<int> order;
    for (int d = 0; d < x->type().ndim(); ++d) order.push_back(d);
    order.push_back(-1);
    return rw::dimShuffle(rewriter, x, order);
}

// x without its last axis, which is statically 1 (squeeze(-1)).
Variable* dropLastAxis(Rewriter& rewriter, Variable* x) {
    std::vector<int> order;
    for (int d = 0; d + 1 < x->type().ndim(); ++d) order.push_back(d);
    return rw::dimShuffle(rewriter, x, order);
}

class ScalarSolveToDivision final : public NodeRewrite {
public:
    std::string_view name() const override { return "scalar_solve_to_division"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "stabilize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (!solveCore(node)) return MatchResult::fail("not a Blockwise solve (Solve, SolveTriangular, CholeskySolve)");
        if (!rw::isStaticallyOneByOne(node.input(0)->type()))
            return MatchResult::fail("the matrix is not statically 1x1");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const PropsOp& core = *solveCore(node);
        Variable* a = node.input(0);
        Variable* b = node.input(1);
        const bool vectorB = core.intProp("b_ndim") == 1;
        if (vectorB) b = asColumn(rewriter, b);
        Variable* x = nullptr;
        if (core.kind() == OpKind::SolveTriangular && core.boolProp("unit_diagonal")) {
            x = rw::makeElemwiseOf(rewriter, ScalarOpCode::Second, {a, b});
        } else if (core.kind() == OpKind::CholeskySolve) {
            Variable* two = rewriter.constant(rw::scalarArray(DType::Int8, 2));
            x = rw::makeElemwiseOf(rewriter, ScalarOpCode::TrueDiv, {b, rw::makeElemwiseOf(rewriter, ScalarOpCode::Pow, {a, two})});
        } else {
            x = rw::makeElemwiseOf(rewriter, ScalarOpCode::TrueDiv, {b, a});
        }
        if (vectorB) x = dropLastAxis(rewriter, x);
        rewriter.replace(node.output(0), rw::castTo(rewriter, x, node.output(0)->type().dtype));
    }
};

} // namespace

const NodeRewrite& scalarSolveToDivision() {
    static const ScalarSolveToDivision r;
    return r;
}

} // namespace tl
