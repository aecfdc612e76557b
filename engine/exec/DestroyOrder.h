#pragma once
// What the executor must respect so that an op writing over an input (its
// destroy_map, or a Scan body's row reuse) never clobbers a value another node
// still reads: PyTensor's DestroyHandler orderings, computed for one plan.
#include "ir/Graph.h"

#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace tl {

struct DestroyOrder {
    /// reader -> the destroyers that must run after it.
    std::unordered_map<const Node*, std::vector<const Node*>> runBefore;
    /// destroyer -> the input positions it works on a copy of (it cannot be ordered safely).
    std::unordered_map<const Node*, std::vector<int>> copyInputs;
    /// Which memory a variable sits in: its view or destroyed input, followed one step.
    std::unordered_map<const Variable*, const Variable*> memParent;
    /// The destroyers with a copied input, in `topo` order.
    std::vector<const Node*> protectedDestroyers;
    /// Per requested row-reuse pair, whether it was granted (CompiledGraphOptions::rowReuse).
    std::vector<char> rowReuseGranted;
};

/// The orderings of `topo` (the needed nodes of `g` in toposort order; `needed`
/// the same set). A destroyer is protected (copies its input) when the destroyed
/// value is a constant, a graph input, a graph output, storage another node
/// destroyed earlier, another input of the same node, or read by a node that must
/// run after it. Row-reuse pairs (output j, input i) are granted after the real
/// destroyers, on the rules of CompiledGraphOptions::rowReuse.
DestroyOrder planDestroyOrder(const Graph& g, const std::vector<const Node*>& topo,
                              const std::unordered_set<const Node*>& needed,
                              const std::vector<std::pair<int, int>>& rowReuse);

/// The variable at the end of `parent`'s chain from `v`.
const Variable* aliasRoot(const std::unordered_map<const Variable*, const Variable*>& parent, const Variable* v);

} // namespace tl
