#pragma once
// Which Elemwise nodes elemwise_fusion puts into one Composite: a partition of
// the fuseable nodes into groups that are connected, share one broadcast
// pattern, and can each be contracted to a single node without creating a
// cycle. One pass over the graph in topological order (no recursion, no
// ancestor sets per candidate): see FusionGroups.cpp for the argument.
#include "ir/Graph.h"

#include <vector>

namespace tl {

/// Whether `n` may join a fused Composite: a non-inplace Elemwise (plain or
/// Composite) whose outputs are tensors of one broadcast pattern.
bool isFuseableElemwise(const Node& n);

struct FusionGroup {
    /// The members in topological order (at least two).
    std::vector<Node*> members;
};

/// The groups of two or more fuseable nodes, in topological order of their last
/// member. A group is joined through a producer/consumer edge or, when
/// `siblings` is set, through a shared full-size input (two elementwise
/// computations on the same array, as `exp(x) - 5` and `exp(x) * dx`). Nodes in
/// no group, and nodes no graph output needs, are left alone. Contracting every
/// group gives an acyclic graph.
std::vector<FusionGroup> findFusionGroups(const Graph& g, bool siblings = true);

} // namespace tl
