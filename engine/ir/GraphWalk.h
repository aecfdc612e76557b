#pragma once
// Walks over a graph that several layers share (the executor's plan, Rop, the
// inner-graph copies of Composite and Scan rewrites). All are iterative: no
// recursion on graph depth.
#include "ir/Graph.h"

#include <span>
#include <unordered_set>
#include <vector>

namespace tl {

/// The nodes the values `roots` depend on (their owners and everything upstream).
std::unordered_set<const Node*> nodesFeeding(std::span<const Variable* const> roots);

/// Those nodes in `g`'s topological order (Graph::toposort restricted to them).
std::vector<Node*> nodesFeedingInOrder(const Graph& g, std::span<const Variable* const> roots);

} // namespace tl
