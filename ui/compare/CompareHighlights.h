#pragma once
// What the comparison window marks on its two graphs: nodes only one side has,
// and on each loop what tensorlens does differently from PyTensor (badges
// "sit_sot-0: (2, 7) → (1, 7)", "sit_sot-2 merged into sit_sot-0"). A node is
// shared when both graphs hold a node of the same id and the same op, which is
// what keeps its place in both pictures.
#include "compare/Comparison.h"
#include "layout/GraphLayout.h"
#include "scene/Highlights.h"

namespace tl {

/// Which side of the window a graph is on.
enum class CompareSide { PyTensor, Tensorlens };

/// Badges for the loops of `vg` (the graph of `side`) when the lane is at its final
/// graph: per loop, the states whose buffers tensorlens sizes differently, the states it
/// merges, the change in scalar ops and exps per step. `rewritten` says the tensorlens
/// side is tensorlens on PyTensor's graph (its loops are the comparison's rewritten ones).
std::vector<Highlights::Badge> comparisonBadges(const Comparison& c, const VisualGraph& vg, CompareSide side, bool rewritten);

/// The highlights of one side: nodes the other graph lacks (added on the tensorlens side,
/// ghosts-to-be on PyTensor's), the badges, and the banner.
Highlights comparisonHighlights(const Comparison& c, const Graph& mine, const Graph& other, const VisualGraph& vg,
                                CompareSide side, bool atEnd, bool rewritten, const QString& title);

/// Where `other`'s nodes that `mine` lacks start: at the node of `mine` they stand
/// for, and their bodies where its body is. The graphs are matched as a step's bodies
/// are (same id and kind of op, the same op on matched inputs, the node readers
/// switched to: the loop scan_merge_states rebuilt from PyTensor's), then what is left
/// follows `trace`'s clone provenance (`trace` led to `other`; may be null).
PlacementHints provenanceHints(const Graph& mine, const Graph& other, const Trace* trace);

/// Positions to start the other side from: `layout` of `vg` restricted to the nodes
/// `other` shares (same id, same op), so shared nodes sit at the same place in both,
/// and to the nodes `hints` point at.
PositionCache sharedPositions(const VisualGraph& vg, const GraphLayout& layout, const Graph& mine, const Graph& other,
                              const PlacementHints& hints = {});

} // namespace tl
