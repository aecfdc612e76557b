#pragma once
// What one rewrite step changed, in the terms the canvas highlights: nodes
// added, nodes erased (drawn as ghosts), edges rewired, buffer shapes changed,
// states merged, nodes fused, buffer bytes before and after.
#include "trace/GraphFacts.h"
#include "trace/Trace.h"
#include "trace/TraceRecorder.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tl {

/// Input `index` of `consumer` (or graph output `index` when consumer is -1)
/// read `before` and now reads `after`.
struct RewiredEdge {
    NodeId consumer = -1;
    int index = 0;
    VarId before = -1, after = -1;
    NodeId producerBefore = -1, producerAfter = -1;  // -1: an input or constant
    std::string shapeBefore, shapeAfter;             // "(11, 7)"
};

/// A buffer (or any variable read by `node`) whose shape changed: the badge `(11, 7) → (1, 7)`.
struct ShapeBadge {
    NodeId node = -1;     // the node the badge sits on (the Scan reading the buffer)
    int input = -1;       // which input of `node`, when known
    std::string label;    // "sit_sot-0" for Scan buffers, else empty
    std::string before, after;
    std::string detail;   // the rule that sized it, from the trace ("exact: ...")
    std::string text() const { return before + " \u2192 " + after; }
};

/// "sit_sot-2 merged into sit_sot-0" on Scan `scan`.
struct MergedState {
    NodeId scan = -1;
    std::string text;
    std::string detail;
};

struct StepDiff {
    int step = 0;  // 1-based: the changes from graphAt(step - 1) to graphAt(step)
    std::string phase, rewrite;
    std::optional<NodeId> root;
    std::vector<NodeId> added;          // in graphAt(step), not in graphAt(step - 1)
    std::vector<NodeSnapshot> erased;   // as they were in graphAt(step - 1): the ghosts
    std::vector<NodeId> opChanged;      // same node, a different op (inplace, renamed, resized)
    std::vector<RewiredEdge> rewired;
    std::vector<ShapeBadge> shapeChanges;
    std::vector<MergedState> mergedStates;
    std::vector<NodeId> fused;          // added Composite nodes
    std::vector<AttributeChange> attributes;
    std::map<NodeId, NodeId> clonedFrom;
    /// Erased node -> the added node that took its place (a clone, a rebuilt Scan,
    /// or the new producer its readers switched to, of the same op kind). The
    /// canvas draws the new node where the old one was instead of a ghost.
    std::map<NodeId, NodeId> replacedBy;
    BufferTotal buffersBefore, buffersAfter;  // of every loop of the graph

    /// Nothing a user could see changed.
    bool isNoOp() const;
    /// True when the step added, erased, rewired, re-opped or annotated `node`.
    bool touches(NodeId node) const;
    bool isAdded(NodeId node) const;
};

/// Computes the diff of trace step `step` (1-based) from the graphs before and after it.
StepDiff computeStepDiff(const TraceStep& traceStep, int step, const Graph& before, const Graph& after);

/// First half of computeStepDiff, when the two graphs cannot be alive at once
/// (one replayer): collect facts from `before`, then finish with `after`.
class StepDiffBuilder {
public:
    StepDiffBuilder(const TraceStep& traceStep, int step);
    void collectBefore(const Graph& before);
    StepDiff finish(const Graph& after);

private:
    const TraceStep& m_step;
    StepDiff m_diff;
    std::map<NodeId, std::vector<VarId>> m_inputsBefore;
    std::map<VarId, std::string> m_shapeBefore;
    std::map<VarId, NodeId> m_ownerBefore;
    std::map<NodeId, std::vector<BufferRow>> m_buffersBefore;  // Scans erased or re-opped by the step
    std::vector<VarId> m_outputsBefore;
    bool m_outputsTouched = false;
};

} // namespace tl
