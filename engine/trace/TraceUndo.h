#pragma once
// Applying one trace step to a graph while deriving its inverse, and undoing it
// again: what makes a backward move through a trace cost as much as the step's
// own edits instead of a replay from a checkpoint. The inverse is read off the
// live graph just before each edit (what an erased node was, which clients a
// replace moved, the op a set_op swapped out), so it is exact even for traces
// loaded from files that store only ids for erasures.
#include "ir/Rewriter.h"
#include "trace/Trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tl {

/// The inverse of one applied step: primitive edits to run in order (the
/// reverse of the step's edits), with the snapshots they need.
class StepUndo {
public:
    /// True once filled by a successful applyTraceStep.
    bool ready() const { return m_ready; }
    /// Number of inverse edits (cost of undoing the step).
    size_t size() const { return m_ops.size(); }
    void clear();

private:
    friend void applyTraceStep(Rewriter&, const TraceStep&, int, StepUndo&);
    friend void undoTraceStep(Rewriter&, const TraceStep&, int, const StepUndo&);
    friend void failApply(Rewriter&, const TraceStep&, int, int, const std::string&, StepUndo&);

    struct Op {
        enum class Kind : uint8_t { EraseNode, RestoreNode, EraseConstant, RestoreConstant, SetInput, SetOutput, SetOp };
        Kind kind = Kind::EraseNode;
        int32_t edit = 0;   // the step's edit this undoes, for messages
        int32_t index = 0;  // SetInput/SetOutput: position; Restore*/SetOp: payload slot
        int64_t id = 0;     // node (EraseNode, SetInput, SetOp) or constant (EraseConstant) id
        int64_t var = 0;    // SetInput/SetOutput: the variable put back
    };
    /// Runs the inverses of the first `count` ops, last first.
    void run(Rewriter& rw, size_t count, const TraceStep& step, int position) const;

    std::vector<Op> m_ops;  // in the order the forward edits ran
    std::vector<NodeSnapshot> m_nodes;
    std::vector<ConstantSnapshot> m_constants;
    std::vector<OpPtr> m_opsBefore;
    bool m_ready = false;
};

/// "step 8 (trace index 7, collapse_pass in phase toy)": how errors name a step.
std::string describeTraceStep(const TraceStep& step, int position);

/// Applies `step` (at `position` in its trace) to the rewriter's graph, checking
/// every edit before making it, and fills `undo` with the inverse. Every edit goes
/// through the rewriter, so its listeners see a replayed step as they saw the live
/// one. On a bad edit the edits already made are undone and TraceReplayError names
/// the step and the edit; the graph is then as before unless the error says
/// `graphIntact == false`.
void applyTraceStep(Rewriter& rw, const TraceStep& step, int position, StepUndo& undo);

/// Undoes `step` on the rewriter's graph, which must be the graph right after it;
/// `undo` must come from applying the same step to the graph before it. Throws
/// TraceReplayError naming the step and edit when an inverse edit does not apply
/// (then the graph is partly undone: throw it away).
void undoTraceStep(Rewriter& rw, const TraceStep& step, int position, const StepUndo& undo);

} // namespace tl
