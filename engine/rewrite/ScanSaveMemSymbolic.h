#pragma once
// scan_save_mem when n_steps is only known at run time (a scan over a sequence of
// unknown length: n_steps = Shape_i{0}(M), or minimum(...) of several). docs/rewrites/scan_save_mem.md#symbolic-n_steps.
//
//   x[-1], x[-k:] (reads counted from the end)  -> a constant buffer of max(k, init_l + 1)
//       rows (pytensor) / max(k, init_l) where the reuse proof allows (exact); the reads
//       are re-indexed into the circular buffer the executor rotates, oldest row first.
//   x[:k], x[i] (every read stops at a constant row) -> n_steps = minimum(n_steps, k),
//       the buffers rebuilt at minimum(n_steps, k) + init_l rows.
//
// Only the buffers scan() builds (and Rop's zero-filled ones) are recognised: their
// length must be n_steps + init_l (nit_sots: n_steps). Anything else is left as it is.
#include "rewrite/RewriteBase.h"
#include "rewrite/ScanBufferReads.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tl {

/// One output (traced state, then nit_sot) of a symbolic-n_steps plan.
struct SymbolicItemPlan {
    bool traced = true;
    int state = 0;            // traced state, or nit_sot index
    int64_t initRows = 0;
    enum class Action { Keep, Shrink, Reduce, Remove } action = Action::Keep;
    int64_t rows = 0;         // Shrink: the constant rows
    bool reuse = false;       // new reuseProvenSafe (traced states)
    std::string rule;         // why, for the trace
};

struct SymbolicSaveMemMatch : RewriteMatch {
    bool reduce = false;      // n_steps -> minimum(n_steps, bound)
    int64_t bound = 0;
    std::string stepsRule;    // what was decided about n_steps and why
    std::vector<SymbolicItemPlan> items;
    std::vector<SymbolicOutputReads> reads;  // per item
};

/// The plan for a Scan whose n_steps is not a constant, or the reason there is none.
MatchResult matchSymbolicSaveMem(const Node& node, const RewriteOptions& options);

/// Applies matchSymbolicSaveMem's plan (the rewrite's trace facts included).
void applySymbolicSaveMem(Rewriter& rewriter, Node& node, const SymbolicSaveMemMatch& match);

} // namespace tl
