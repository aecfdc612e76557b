#pragma once
// OpFromGraph's run: its inner graph compiled once per context and executed on the
// node's inputs (PyTensor's OpFromGraph.perform calls the compiled inner function).
// It is the executor's, not the op's, because it runs a compiled graph, as Scan's loop.
#include "ops/OpFromGraph.h"

#include <span>

namespace tl {

class ExecContext;

/// Runs `op`'s inner graph on `inputs` into `outputs`. Outputs that share memory with an
/// input, an inner constant or an earlier output are copies, so the caller owns them as
/// it owns any kernel's result. Throws ExecError naming a bad input or the failing inner node.
void runOpFromGraph(ExecContext& ctx, const OpFromGraphOp& op, std::span<const NDArray> inputs, std::span<NDArray> outputs);

} // namespace tl
