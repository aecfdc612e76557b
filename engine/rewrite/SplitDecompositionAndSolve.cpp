#include "rewrite/SplitDecompositionAndSolve.h"

#include "ops/Blockwise.h"
#include "ops/PropsOp.h"
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/LocalRewriteUtil.h"

namespace tl::rw {

namespace {

const PropsOp* solveCore(const Node& node) { return static_cast<const PropsOp*>(blockwiseCoreOf(&node, {OpKind::Solve})); }

// find_solve_clients: the Blockwise{Solve} nodes reading `a` as their matrix, directly
// or through ExpandDims on the left.
void findSolveClients(const Variable& a, const std::string& assumeA, bool transposed, std::vector<SolveSplit::Use>& found) {
    for (const Client& c : a.clients()) {
        if (c.isGraphOutput()) continue;
        const PropsOp* core = solveCore(*c.node);
        if (c.index == 0 && core && core->stringProp("assume_a") == assumeA)
            found.push_back({c.node, transposed});
        else if (isLeftExpandDims(*c.node))
            findSolveClients(*c.node->output(0), assumeA, transposed, found);
    }
}

// Whether the one solve's matrix is broadcast over a batch dim of its b.
bool sharedOverBatch(const Node& solve) {
    const auto& op = static_cast<const BlockwiseOp&>(solve.op());
    const Type* types[] = {&solve.input(0)->type(), &solve.input(1)->type()};
    const int batch = op.batchNdim(types);
    const Type& ta = solve.input(0)->type();
    const Type& tb = solve.input(1)->type();
    for (int d = 0; d < batch && d < ta.ndim() && d < tb.ndim(); ++d)
        if (ta.broadcastable(d) && !tb.broadcastable(d)) return true;
    return false;
}

} // namespace

std::optional<SolveSplit> findSolveSplit(const Node& node, bool eager, std::string& why) {
    const PropsOp* core = solveCore(node);
    if (!core) {
        why = "not a Blockwise{Solve}";
        return std::nullopt;
    }
    SolveSplit split;
    split.assumeA = core->stringProp("assume_a");
    if (split.assumeA == "tridiagonal") {
        why = "assume_a='tridiagonal': PyTensor's tridiagonal LU ops are not tensorlens ops";
        return std::nullopt;
    }
    if (!decomposable(split.assumeA)) {
        why = "assume_a='" + split.assumeA + "' is not factored (only gen and pos)";
        return std::nullopt;
    }
    // get_root_A: the matrix under an ExpandDims on the left or a transpose.
    Variable* a = node.input(0);
    if (const Node* owner = a->owner(); owner && (isLeftExpandDims(*owner) || isMatrixTranspose(*a))) a = owner->input(0);
    findSolveClients(*a, split.assumeA, false, split.solves);
    for (const Client& c : a->clients())
        if (!c.isGraphOutput() && isMatrixTranspose(*c.node->output(0)))
            findSolveClients(*c.node->output(0), split.assumeA, true, split.solves);
    if (split.solves.empty()) {
        why = "no solve reads the matrix under this one's";
        return std::nullopt;
    }
    if (!eager && split.solves.size() == 1 && !sharedOverBatch(*split.solves[0].solve)) {
        why = "a single solve, not broadcast over a batch of b";
        return std::nullopt;
    }
    split.a = a;
    split.lower = core->boolProp("lower");
    for (const SolveSplit::Use& use : split.solves) split.checkFinite |= solveCore(*use.solve)->boolProp("check_finite");
    return split;
}

void applySolveSplit(Rewriter& rewriter, const SolveSplit& split) {
    const SolveFactor factor = decomposeA(rewriter, split.a, split.assumeA, split.checkFinite, split.lower);
    // Every replacement is built before any is put in: replacing the last use of a
    // solve erases it, and another solve may read it.
    std::vector<std::pair<VarId, Variable*>> replacements;
    for (const SolveSplit::Use& use : split.solves) {
        const PropsOp& core = *solveCore(*use.solve);
        Variable* old = use.solve->output(0);
        Variable* x = solveDecomposed(rewriter, factor, use.solve->input(1), use.transposed, core.intProp("b_ndim"),
                                      core.boolProp("check_finite"));
        // atleast_Nd(x, old.ndim).astype(old.dtype), as PyTensor ends each.
        x = castTo(rewriter, expandLeft(rewriter, x, old->type().ndim()), old->type().dtype);
        replacements.emplace_back(old->id(), x);
    }
    for (auto [id, x] : replacements)
        if (Variable* old = rewriter.graph().findVariable(id)) rewriter.replace(old, x);
}

} // namespace tl::rw
