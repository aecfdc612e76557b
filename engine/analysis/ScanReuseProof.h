#pragma once
// The proof behind exact buffer sizing (docs/semantics.md#exact-buffer-sizing). With a buffer of
// exactly init_l rows, the row a new state is written into still holds the
// state's oldest tap: writing it there (preallocation) destroys that tap. That
// is safe when every other reader of the tap (or of a view of it) can run before
// the node that writes the new state, and the writer itself, if it reads the
// tap, is elementwise over it (Elemwise reads each block of elements before it
// writes that block). The proof is joint: the orders proven for earlier states
// constrain the later ones, so all can be honoured at once. The Scan executor
// re-derives the same orders on the step it runs (CompiledGraphOptions::rowReuse)
// and copies instead of writing in place where they no longer hold.
#include "ir/Graph.h"
#include "ops/ScanInfo.h"

#include <string>
#include <vector>

namespace tl {

struct ReuseProof {
    bool safe = false;
    /// Why (for the trace's buffer_rule): which reader blocks it, or which argument holds.
    std::string why;
};

/// One entry per traced state; only states with `candidate[s]` (mit_sot or sit_sot)
/// are examined, the others get safe = false and an empty reason.
std::vector<ReuseProof> proveRowReuse(const Graph& inner, const ScanInfo& info, const std::vector<bool>& candidate);

} // namespace tl
