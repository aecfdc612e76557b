#pragma once
// The node order PyTensor's FunctionGraph.toposort() gives a compiled graph,
// which debugprint prints as topological indices. With destroyers present,
// PyTensor adds its DestroyHandler's orderings (every other client of a
// destroyed value's root and views runs before the destroyer) and sorts with
// walk_toposort: a depth-first discovery from the outputs (last output first),
// then Kahn's algorithm over a FIFO of ready nodes. Without destroyers it uses
// the plain stack-based toposort. Where PyTensor iterates its own import order
// (clients of a variable), node ids stand in for it.
#include "ir/Graph.h"

#include <vector>

namespace tl {

/// PyTensor's topological order of `g`'s nodes (iterative).
std::vector<const Node*> pytensorToposort(const Graph& g);

} // namespace tl
