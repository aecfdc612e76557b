// reuse_decomposition_multiple_solves (PyTensor's, specialize): the solves of one
// matrix A -- with A itself, with ExpandDims of it, or with its transpose -- share
// one factorization of A:
//   Solve{gen}(A, b1), Solve{gen}(A.T, b2)
//     -> LUFactor(A) = (LU, p); SolveTriangular(LU, SolveTriangular(LU, b1[perm(p)]))
//        and the transposed factor's two solves of b2, its rows put back
//   Solve{pos}(A, b1), Solve{pos}(A, b2) -> CholeskySolve(Cholesky(A), b1), ...(b2)
// A single solve is left alone unless A is broadcast over a batch dim that b is not:
// then the one factorization serves the whole batch. The factorization checks
// finiteness when any of the solves did, and a Cholesky is of the triangle the
// solve the rewrite started from names (as PyTensor's; the solves of a positive
// definite A agree on it). PyTensor also splits assume_a="tridiagonal" solves, into
// its LUFactorTridiagonal and SolveLUFactorTridiagonal ops, which tensorlens does
// not have: such a solve stays one Solve. Other assumptions are not split (PyTensor's
// neither).
#include "rewrite/Rewrites.h"
#include "rewrite/SplitDecompositionAndSolve.h"

namespace tl {

namespace {

struct ReuseMatch : RewriteMatch {
    rw::SolveSplit split;
};

class ReuseDecompositionMultipleSolves final : public NodeRewrite {
public:
    std::string_view name() const override { return "reuse_decomposition_multiple_solves"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }
    bool matchReadsSiblings() const override { return true; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        std::string why;
        std::optional<rw::SolveSplit> split = rw::findSolveSplit(node, /*eager=*/false, why);
        if (!split) return MatchResult::fail(options, [&] { return why; });
        auto m = std::make_unique<ReuseMatch>();
        m->split = std::move(*split);
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node&, const RewriteMatch& match, const RewriteOptions&) const override {
        rw::applySolveSplit(rewriter, static_cast<const ReuseMatch&>(match).split);
    }
};

} // namespace

const NodeRewrite& reuseDecompositionMultipleSolves() {
    static const ReuseDecompositionMultipleSolves r;
    return r;
}

} // namespace tl
