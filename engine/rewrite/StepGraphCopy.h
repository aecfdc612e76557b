#pragma once
// Rebuilding a loop's step graph and swapping the loop node: what the scan
// structure rewrites (merge, push-out, unused inputs, merged inputs) share.
#include "ir/Rewriter.h"

#include <unordered_map>

namespace tl {

/// Copies the constants and nodes of `src` into `dst` in topological order. `map`
/// must hold a `dst` variable for every input of `src` (or any variable to
/// substitute); a node whose outputs are all in `map` already is not copied.
void copyNodesInto(Graph& dst, const Graph& src, std::unordered_map<const Variable*, Variable*>& map);

/// Every used output k of `old` now reads output k of `fresh` (looked up by id:
/// replacing the last used output erases `old` with all its outputs).
void replaceOutputsWith(Rewriter& rw, const Node& old, Node& fresh);

} // namespace tl
