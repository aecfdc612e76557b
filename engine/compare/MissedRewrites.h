#pragma once
// The rewrites tensorlens still makes on PyTensor's compiled graph, in words: one
// entry per change (a merged state, a buffer that shrinks, a loop pushed out), with
// tensorlens's reason and, where PyTensor's source says why it did not make it,
// that too (docs/missed.md#why-pytensor-did-not).
#include "rewrite/RewriteBase.h"
#include "trace/Trace.h"

#include <string>
#include <vector>

namespace tl {

struct MissedRewrite {
    int step = 0;              ///< 1-based step of the trace on PyTensor's graph
    std::string rewrite;       ///< "scan_merge_states"
    std::string phase;
    std::string target;        ///< what it changed: the loop's name, or the node ("Scan{...}", "Elemwise#4")
    std::string what;          ///< "sit_sot-2 merged into sit_sot-0", "sit_sot-0: (2, 7) -> (1, 7)"
    std::string why;           ///< tensorlens's reason
    std::string pytensorWhy;   ///< why PyTensor did not, from its source; empty when not known
    /// Follows from the entries before it (the fusion of a merged step, a copy a merge
    /// made unnecessary, inplace flags of rebuilt nodes): listed, not counted.
    bool consequence = false;
};

/// The entries of `trace` (tensorlens's pipeline run on PyTensor's compiled graph)
/// in step order. `mode` is the buffer sizing the trace ran with.
std::vector<MissedRewrite> missedRewrites(const Trace& trace, RewriteOptions::BufferMode mode);

/// The entries that are not consequences.
int countMissed(const std::vector<MissedRewrite>& missed);

} // namespace tl
