#pragma once
// PyTensor's DestroyHandler as queries: which storage each variable aliases,
// which node destroys it, and the orderings that make destruction safe (every
// other reader of the old value runs before the destroyer).
#include "ir/Graph.h"
#include "ops/ScanInfo.h"

#include <optional>
#include <unordered_set>
#include <string>
#include <utility>
#include <vector>

namespace tl {

/// The variable whose storage `v` aliases through view_map / destroy_map (itself if none).
const Variable* aliasRoot(const Variable& v);

/// Whether a reader of `v`, or of a view of `v`, overwrites it in place (a node other
/// than `except`). Rewrites that make two values one, or move a reader of `v` into a
/// node that also depends on the overwriter, check it first: PyTensor's compiled
/// graphs, which tensorlens also rewrites, come with such readers.
bool overwrittenInPlace(const Variable& v, const Node* except = nullptr);
/// Every value of `g` that overwrittenInPlace would answer true for (no exception), in
/// one pass over the destroyers and their view chains: for a pass asking about many
/// values, some of them read by thousands of nodes (a loop count every loop reads).
std::unordered_set<const Variable*> overwrittenValues(const Graph& g);

/// Problems that make the graph's destruction unsafe: a constant, a graph input or a
/// graph output destroyed; two destroyers of one value; a destroyer that reads the
/// value through another input too; a value still needed after it was destroyed (a
/// cycle of data edges and orderings). Values are grouped by view_map only: the output
/// of a destroyer is a new value (chains of inplace ops are fine). Empty when valid.
/// `mutableInputs` lists the graph inputs (by position) the graph may overwrite, as
/// PyTensor's Supervisor leaves mutable inputs unprotected (scanMutableInnerInputs).
std::vector<std::string> destroyHandlerProblems(const Graph& g, const std::vector<int>& mutableInputs = {});

/// The inner inputs a Scan's step graph may overwrite, as PyTensor's Scan compiles
/// its inner function (Scan.prepare_fgraph, with scan__allow_output_prealloc): a
/// mit_mot tap that is also one of that state's output taps is an input with an
/// update, which makes it mutable; every other inner input is protected.
std::vector<int> scanMutableInnerInputs(const ScanInfo& info);

/// (reader, destroyer) pairs: `reader` must run before `destroyer`.
std::vector<std::pair<const Node*, const Node*>> destroyOrderings(const Graph& g);

/// Whether `node` may overwrite its input `inputIndex` (as an inplace rewrite would make it);
/// nullopt when safe, otherwise the reason it is not. O(graph) per call: passes asking
/// many times use DestroyChecker (rewrite/DestroyChecker.h).
std::optional<std::string> whyCannotDestroy(const Node& node, int inputIndex);

} // namespace tl
