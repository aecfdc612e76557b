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
#include "ops/Blockwise.h"
#include "ops/PropsOp.h"
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

const PropsOp* solveCore(const Node& node) {
    return static_cast<const PropsOp*>(rw::blockwiseCoreOf(&node, {OpKind::Solve}));
}

struct SolveUse {
    Node* solve;
    bool transposed;
};

// find_solve_clients: the Blockwise{Solve} nodes reading `a` as their matrix, directly
// or through ExpandDims on the left.
void findSolveClients(const Variable& a, const std::string& assumeA, bool transposed, std::vector<SolveUse>& found) {
    for (const Client& c : a.clients()) {
        if (c.isGraphOutput()) continue;
        const PropsOp* core = solveCore(*c.node);
        if (c.index == 0 && core && core->stringProp("assume_a") == assumeA)
            found.push_back({c.node, transposed});
        else if (rw::isLeftExpandDims(*c.node))
            findSolveClients(*c.node->output(0), assumeA, transposed, found);
    }
}

struct ReuseMatch : RewriteMatch {
    Variable* a = nullptr;
    std::vector<SolveUse> solves;
    std::string assumeA;
    bool lower = false;
    bool checkFinite = false;
};

class ReuseDecompositionMultipleSolves final : public NodeRewrite {
public:
    std::string_view name() const override { return "reuse_decomposition_multiple_solves"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const PropsOp* core = solveCore(node);
        if (!core) return MatchResult::fail("not a Blockwise{Solve}");
        const std::string assumeA = core->stringProp("assume_a");
        if (assumeA == "tridiagonal")
            return MatchResult::fail("assume_a='tridiagonal': PyTensor's tridiagonal LU ops are not tensorlens ops");
        if (!rw::decomposable(assumeA))
            return MatchResult::fail(options, [&] { return "assume_a='" + assumeA + "' is not factored (only gen and pos)"; });

        // get_root_A: the matrix under an ExpandDims on the left or a transpose.
        Variable* a = node.input(0);
        if (const Node* owner = a->owner(); owner && (rw::isLeftExpandDims(*owner) || rw::isMatrixTranspose(*a)))
            a = owner->input(0);
        auto m = std::make_unique<ReuseMatch>();
        findSolveClients(*a, assumeA, false, m->solves);
        for (const Client& c : a->clients())
            if (!c.isGraphOutput() && rw::isMatrixTranspose(*c.node->output(0)))
                findSolveClients(*c.node->output(0), assumeA, true, m->solves);
        if (m->solves.empty()) return MatchResult::fail("no solve reads the matrix under this one's");

        if (m->solves.size() == 1) {
            // One solve: worth it only when the factorization is shared across a batch.
            const auto& op = static_cast<const BlockwiseOp&>(node.op());
            const Type* types[] = {&node.input(0)->type(), &node.input(1)->type()};
            const int batch = op.batchNdim(types);
            const Node& only = *m->solves[0].solve;
            const Type& ta = only.input(0)->type();
            const Type& tb = only.input(1)->type();
            bool shared = false;
            for (int d = 0; d < batch && d < ta.ndim() && d < tb.ndim(); ++d) shared |= ta.broadcastable(d) && !tb.broadcastable(d);
            if (!shared) return MatchResult::fail("a single solve, not broadcast over a batch of b");
        }
        m->a = a;
        m->assumeA = assumeA;
        m->lower = core->boolProp("lower");
        for (const SolveUse& use : m->solves) m->checkFinite |= solveCore(*use.solve)->boolProp("check_finite");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node&, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const ReuseMatch&>(match);
        const rw::SolveFactor factor = rw::decomposeA(rewriter, m.a, m.assumeA, m.checkFinite, m.lower);
        // Every replacement is built before any is put in: replacing the last use of a
        // solve erases it, and another solve may read it.
        std::vector<std::pair<VarId, Variable*>> replacements;
        for (const SolveUse& use : m.solves) {
            const PropsOp& core = *solveCore(*use.solve);
            Variable* old = use.solve->output(0);
            Variable* x = rw::solveDecomposed(rewriter, factor, use.solve->input(1), use.transposed,
                                              core.intProp("b_ndim"), core.boolProp("check_finite"));
            // atleast_Nd(x, old.ndim).astype(old.dtype), as PyTensor ends each.
            x = rw::castTo(rewriter, rw::expandLeft(rewriter, x, old->type().ndim()), old->type().dtype);
            replacements.emplace_back(old->id(), x);
        }
        for (auto [id, x] : replacements)
            if (Variable* old = rewriter.graph().findVariable(id)) rewriter.replace(old, x);
    }
};

} // namespace

const NodeRewrite& reuseDecompositionMultipleSolves() {
    static const ReuseDecompositionMultipleSolves r;
    return r;
}

} // namespace tl
