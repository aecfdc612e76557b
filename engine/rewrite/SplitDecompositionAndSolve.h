#pragma once
// PyTensor's _split_decomp_and_solve_steps, shared by reuse_decomposition_multiple_solves
// (specialize, on the outer graph) and scan_split_non_sequence_decomposition_and_solve
// (inside a loop's step): the solves of one matrix A -- with A itself, with ExpandDims
// of it, or with its transpose -- become one factorization of A and solves with the
// factor (rewrite/LinalgRewriteUtil.h builds both).
#include "ir/Rewriter.h"

#include <optional>
#include <string>
#include <vector>

namespace tl::rw {

struct SolveSplit {
    struct Use {
        Node* solve;      // a Blockwise{Solve}
        bool transposed;  // it solves with A's transpose
    };
    Variable* a = nullptr;  // the matrix factored, under any ExpandDims or transpose
    std::vector<Use> solves;
    std::string assumeA;     // "gen" (LUFactor) or "pos" (Cholesky)
    bool lower = false;      // the Cholesky factor's triangle: the first solve's
    bool checkFinite = false;  // any of the solves checked
};

/// The split that starts at Blockwise{Solve} node `solve`, or nullopt with `why` set.
/// Unless `eager`, a single solve is split only when its matrix is broadcast over a
/// batch dim that b is not (the one factorization then serves the whole batch).
std::optional<SolveSplit> findSolveSplit(const Node& solve, bool eager, std::string& why);

/// Puts the split in: one factorization of split.a, and each solve replaced by the
/// solves with the factor, cast and padded to the old output's type.
void applySolveSplit(Rewriter& rw, const SolveSplit& split);

} // namespace tl::rw
