#pragma once
// Scan's loop: runs the op's inner graph once per step over its trace buffers,
// as PyTensor's Scan.perform does (docs/semantics.md#scan-execution). It is the
// executor's, not the op's, because a step is a run of a compiled inner graph.
#include "ops/ScanOp.h"

#include <span>

namespace tl {

class ExecContext;

/// Runs `op` on `inputs` into `outputs` (the node's output cells, holding the
/// arrays of the previous call or empty). Throws ExecError naming what is wrong.
void runScanLoop(ExecContext& ctx, const ScanOp& op, std::span<const NDArray> inputs, std::span<NDArray> outputs);

} // namespace tl
