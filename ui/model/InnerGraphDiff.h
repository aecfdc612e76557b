#pragma once
// What a step changed inside loop bodies (and Composite bodies): the trace
// records a rewritten body as one set_op on its Scan, or as a new Scan
// replacing the old one, so the nodes of the body that were added, erased or
// rewired are found by matching the body before against the body after. Same
// terms as StepDiff for the outer graph, so the canvas highlights both alike.
#include "model/NodeRef.h"
#include "trace/StepDiff.h"

#include <functional>
#include <map>
#include <vector>

namespace tl {

/// Input `index` of body node `consumer` (or body output `index` when consumer is
/// -1) read `before` and now reads `after` (variables of the body before / after).
struct InnerRewiredEdge {
    NodeId consumer = -1;
    int index = 0;
    VarId before = -1, after = -1;
};

/// The changes inside the body of one node.
struct InnerGraphDiff {
    NodeRef owner;        ///< the node whose body this is, after the step ({13})
    NodeRef ownerBefore;  ///< the node that held the body before ({12} when the Scan was rebuilt)
    std::vector<NodeId> added;         ///< body nodes (ids of the body after) that are new
    std::vector<NodeSnapshot> erased;  ///< body nodes as they were, gone after the step
    std::vector<NodeId> opChanged;     ///< same body node, another op
    std::vector<InnerRewiredEdge> rewired;
    /// Body node after -> the body node before it stands for (kept nodes and
    /// rebuilt copies under new ids): where the canvas draws it first.
    std::map<NodeId, NodeId> matchedFrom;
    /// Erased body node -> the added one drawn in its place (same kind of op).
    std::map<NodeId, NodeId> replacedBy;
    int nodesBefore = 0, nodesAfter = 0;

    bool empty() const { return added.empty() && erased.empty() && opChanged.empty() && rewired.empty(); }
    bool isAdded(NodeId id) const;
};

/// What a step changed beyond StepDiff: the bodies it rewrote and the ops it
/// replaced under the same name (a destroy map, a body).
struct StepChanges {
    std::vector<InnerGraphDiff> inner;
    std::vector<NodeId> sameNameOpChanged;
    /// The changes inside the body of `owner` (a node after the step), or null.
    const InnerGraphDiff* innerOf(const NodeRef& owner) const;
    bool empty() const { return inner.empty() && sameNameOpChanged.empty(); }
};

/// Matches body `before` against body `after`: nodes keep their identity when
/// they keep their id and kind of op (the engine keeps ids when a copy stands for
/// the same computation) or, failing that, when they apply the same op to matched
/// inputs. Bodies of matched nodes that differ are compared too (appended to `out`,
/// owners one level deeper).
void diffBodies(const Graph& before, const Graph& after, const NodeRef& ownerBefore, const NodeRef& owner,
                std::vector<InnerGraphDiff>& out);

/// Every body a step changed: nodes whose op was replaced by one with another body
/// (scan_inner_rewrites), and nodes that replaced a node with a body (a rebuilt
/// Scan, StepDiff::replacedBy). `after` is the graph after the step.
std::vector<InnerGraphDiff> innerGraphDiffs(const TraceStep& step, const StepDiff& diff, const Graph& after);

/// Outer nodes whose op changed without a change of name (a destroy map, a body):
/// StepDiff::opChanged lists only renamed ops.
std::vector<NodeId> sameNameOpChanges(const TraceStep& step, const StepDiff& diff, const Graph& after);

/// True when the step changes nothing a user can see or run differently: no node
/// added or erased, no op changed (by name, destroy map or body), no recorded
/// fact, and every rewired input reads an equal value (merging equal constants).
/// `constantValue` gives the value of a constant variable by id (null: not a constant).
bool stepChangesNothing(const TraceStep& step, const std::function<const NDArray*(VarId)>& constantValue);

} // namespace tl
