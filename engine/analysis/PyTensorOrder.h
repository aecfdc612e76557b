#pragma once
// The node order PyTensor's FunctionGraph.toposort() gives a compiled graph,
// which debugprint prints as topological indices. With destroyers present,
// PyTensor adds its DestroyHandler's orderings (every other client of a
// destroyed value's root and views runs before the destroyer) and sorts with
// walk_toposort: a depth-first discovery from the outputs (last output first),
// then Kahn's algorithm over a FIFO of ready nodes. Without destroyers it uses
// the plain stack-based toposort. Where PyTensor iterates its own import order
// (clients of a variable), node ids stand in for it.
//
// The plain toposort changed with PyTensor's graph-traversal speedup (pull request
// 1596, 2025): before it, the stack started from the outputs reversed, so the first
// output's nodes came first; since, the last output's do. A graph holding an op only
// an older PyTensor had (Unbroadcast, gone since 2.29) was printed by such a PyTensor
// and gets the older order (the seed report's first listing: its outputs are 13, 14).
#include "ir/Graph.h"

#include <vector>

namespace tl {

enum class PyTensorToposortRule {
    Auto,     ///< Before for graphs with ops only older PyTensors had, Current otherwise
    Current,  ///< PyTensor 2.34: the plain toposort pops the last output first
    Before,   ///< older PyTensors: the plain toposort starts from the first output
};

/// PyTensor's topological order of `g`'s nodes (iterative).
std::vector<const Node*> pytensorToposort(const Graph& g, PyTensorToposortRule rule = PyTensorToposortRule::Auto);

/// The rule Auto picks for `g`.
PyTensorToposortRule pytensorToposortRuleFor(const Graph& g);

} // namespace tl
