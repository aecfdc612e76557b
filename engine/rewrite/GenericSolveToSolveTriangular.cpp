// generic_solve_to_solve_triangular (PyTensor's, canonicalize and stabilize): a
// general solve with a Cholesky factor is a triangular solve,
//   Solve{gen}(Cholesky{lower}(A), b)  ->  SolveTriangular{lower}(Cholesky{lower}(A), b)
// with solve_triangular's defaults (no unit diagonal, check_finite) and the solve's
// b_ndim. PyTensor's second branch, for the transpose of a factor, tests the
// Blockwise itself for being a Cholesky and so never fires; tensorlens's neither.
#include "ops/Blockwise.h"
#include "ops/Linalg.h"
#include "ops/PropsOp.h"
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

// The core op of a Blockwise node of `kind`, or null.
const PropsOp* blockwiseCore(const Node* node, OpKind kind) {
    return static_cast<const PropsOp*>(rw::blockwiseCoreOf(node, {kind}));
}

class GenericSolveToSolveTriangular final : public NodeRewrite {
public:
    std::string_view name() const override { return "generic_solve_to_solve_triangular"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "stabilize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const PropsOp* solve = blockwiseCore(&node, OpKind::Solve);
        if (!solve) return MatchResult::fail("not a Blockwise{Solve}");
        if (solve->stringProp("assume_a") != "gen") return MatchResult::fail("not a general solve (assume_a != 'gen')");
        if (!blockwiseCore(node.input(0)->owner(), OpKind::Cholesky)) return MatchResult::fail("its matrix is not a Cholesky factor");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const PropsOp& solve = *blockwiseCore(&node, OpKind::Solve);
        const bool lower = blockwiseCore(node.input(0)->owner(), OpKind::Cholesky)->boolProp("lower");
        OpPtr core = makeSolveTriangular(false, lower, true, solve.intProp("b_ndim"));
        rewriter.replace(node.output(0), rw::applyLinalgBlockwise(rewriter, core, {node.input(0), node.input(1)}));
    }
};

} // namespace

const NodeRewrite& genericSolveToSolveTriangular() {
    static const GenericSolveToSolveTriangular r;
    return r;
}

} // namespace tl
