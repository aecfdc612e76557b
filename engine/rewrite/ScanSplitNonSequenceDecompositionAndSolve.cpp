// scan_split_non_sequence_decomposition_and_solve (PyTensor's, scan_seqopt1 before
// scan_push_out_non_seq): a solve in a loop's step whose matrix is computed only from
// non_sequences and constants factors the same matrix at every step. The step's solves
// are split into the factorization and solves with the factor (as
// reuse_decomposition_multiple_solves splits them, even a single solve), so that
// scan_push_out_non_seq then takes the factorization out of the loop:
//   scan(x' = solve(I - dt*A, x + f), A)
//     -> scan(x' = lu_solve(LUFactor(I - dt*A), x + f), A)
//     -> LU, p = LUFactor(I - dt*A); scan(x' = lu_solve((LU, p), x + f), LU, p)
// Solves assumed tridiagonal stay one Solve (rewrite/SplitDecompositionAndSolve.h).
#include "ops/ScanOp.h"
#include "rewrite/RewriteBase.h"
#include "rewrite/Rewrites.h"
#include "rewrite/ScanRebuild.h"
#include "rewrite/SplitDecompositionAndSolve.h"

#include <unordered_set>

namespace tl {

namespace {

// graph_inputs([v]) are all constants or step inputs in `nonSeqs`.
bool onlyFromNonSequences(const Variable& v, const std::unordered_set<const Variable*>& nonSeqs) {
    std::vector<const Variable*> stack{&v};
    std::unordered_set<const Variable*> seen{&v};
    while (!stack.empty()) {
        const Variable* x = stack.back();
        stack.pop_back();
        if (!x->owner()) {
            if (!x->isConstant() && !nonSeqs.count(x)) return false;
            continue;
        }
        for (const Variable* in : x->owner()->inputs())
            if (seen.insert(in).second) stack.push_back(in);
    }
    return true;
}

std::unordered_set<const Variable*> stepNonSequences(const ScanOp& scan, const Graph& step) {
    const ScanInfo& info = scan.info();
    return {step.inputs().begin() + info.innerInNonSeqs(), step.inputs().begin() + info.numInnerInputs()};
}

// The first solve of `step`, in topological order, that splits and whose matrix comes
// from non_sequences only.
std::optional<rw::SolveSplit> firstSplit(const Graph& step, const std::unordered_set<const Variable*>& nonSeqs,
                                         std::string& why) {
    why = "no solve in the step";
    for (const Node* n : step.toposort()) {
        if (n->kind() != OpKind::Blockwise) continue;
        std::string reason;
        std::optional<rw::SolveSplit> split = rw::findSolveSplit(*n, /*eager=*/true, reason);
        if (!split) {
            if (reason != "not a Blockwise{Solve}") why = "the step's solves: " + reason;
            continue;
        }
        if (onlyFromNonSequences(*n->input(0), nonSeqs)) return split;
        why = "every solve's matrix depends on a sequence or a state";
    }
    return std::nullopt;
}

class ScanSplitNonSequenceDecompositionAndSolve final : public NodeRewrite {
public:
    std::string_view name() const override { return "scan_split_non_sequence_decomposition_and_solve"; }
    std::vector<std::string> tags() const override { return {"fast_run", "scan", "scan_pushout"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Scan}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const auto& scan = static_cast<const ScanOp&>(node.op());
        if (scan.info().nNonSeqs == 0) return MatchResult::fail("no non_sequences");
        const Graph& step = *scan.inner();
        if (step.countOfKind(OpKind::Blockwise) == 0) return MatchResult::fail("no solve in the step");
        std::string why;
        if (!firstSplit(step, stepNonSequences(scan, step), why)) return MatchResult::fail(options, [&] { return why; });
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rw, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const auto& scan = static_cast<const ScanOp&>(node.op());
        std::shared_ptr<Graph> step = scan.inner()->clone();
        const std::unordered_set<const Variable*> nonSeqs = stepNonSequences(scan, *step);
        int splits = 0;
        {
            Rewriter inner(*step);
            // One split at a time, each from a fresh topological order: a split replaces
            // every solve of its matrix, and the next is looked for among what is left.
            std::string why;
            while (std::optional<rw::SolveSplit> split = firstSplit(*step, nonSeqs, why)) {
                rw::applySolveSplit(inner, *split);
                ++splits;
            }
            inner.pruneDead();
        }
        Node* fresh = rw.create(makeScan(scan.info(), step, scan.scanName(), scan.inplaceStates(), scan.reuseProvenSafe()),
                                std::vector<Variable*>(node.inputs().begin(), node.inputs().end()));
        rw.cloned(fresh->id(), node.id());
        rw.attribute(fresh->id(), "split_solves", "", std::to_string(splits) + " factorization(s) of non_sequence matrices");
        replaceOutputsWith(rw, node, *fresh);
    }
};

} // namespace

const NodeRewrite& scanSplitNonSequenceDecompositionAndSolve() {
    static const ScanSplitNonSequenceDecompositionAndSolve r;
    return r;
}

} // namespace tl
