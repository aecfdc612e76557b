#pragma once
// Copying nodes from one graph into another under construction: Graph::clone,
// Composite bodies, rebuilt Scan steps and the scan structure rewrites all
// copy a node as "the same op on mapped inputs, the same output types and
// names", keeping ids where the copy stands for the same computation (so the
// trace and the GUI can follow a node across the copy) or taking fresh ones
// where it is a new computation in a graph that already has those ids.
#include "ir/GraphAssembler.h"

#include <unordered_map>
#include <vector>

namespace tl {

/// Variables of the graph being built standing for variables of the source.
using VariableMap = std::unordered_map<const Variable*, Variable*>;

enum class CopyIds { Keep, Fresh };

/// `n`'s op applied to `inputs` (variables of `dst`) with n's output types and names.
Node* copyNode(GraphAssembler& dst, const Node& n, std::vector<Variable*> inputs, CopyIds ids);

/// A constant of `dst` with `c`'s value, type and name.
Variable* copyConstant(GraphAssembler& dst, const Variable& c, CopyIds ids);

/// Copies the constants of `src` missing from `map` and its nodes in topological
/// order into `dst`, recording each copy in `map`. `map` must hold a `dst`
/// variable for every input of `src` (or any variable to substitute); a node whose
/// outputs are all in `map` already is not copied.
void copyGraphInto(GraphAssembler& dst, const Graph& src, VariableMap& map, CopyIds ids);

} // namespace tl
