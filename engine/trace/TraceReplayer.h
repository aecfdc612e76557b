#pragma once
// Moving through a trace: the graph after any number of steps, in either
// direction, at the cost of the steps walked (docs/trace-format.md).
#include "trace/Trace.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tl {

class StepUndo;  // trace/TraceUndo.h

/// graphAt(k): the graph after the first k steps (graphAt(0) is the original).
/// One graph is edited in place: moving forward applies the steps' edits, moving
/// backward applies their inverses (derived while the steps were applied), so an
/// adjacent move in either direction costs the size of one step's delta. Long
/// jumps start from whichever is cheapest: the current graph, the original or a
/// checkpoint (a copy kept where walking from the previous one costs about as
/// much as copying the graph, so checkpoints cost little time or memory).
/// Steps may be appended to the trace while a replayer uses it; nothing else in
/// it may change.
class TraceReplayer {
public:
    /// Checkpoints are taken only at multiples of `checkpointEvery` steps.
    explicit TraceReplayer(const Trace& trace, int checkpointEvery = 32);
    ~TraceReplayer();
    TraceReplayer(const TraceReplayer&) = delete;
    TraceReplayer& operator=(const TraceReplayer&) = delete;

    /// The graph after k steps (k is clamped to [0, size]); the reference stays
    /// valid until the next call. Throws TraceReplayError naming the step when a
    /// step does not apply; the replayer stays usable (steps before it still work).
    const Graph& graphAt(int k);
    /// The position of the graph graphAt returned last (-1 before the first call,
    /// or after an error that left the graph unusable).
    int current() const { return m_current; }
    /// Whole-graph copies kept for long jumps (the original is not counted).
    size_t checkpointCount() const { return m_checkpoints.size(); }

private:
    void sync();
    int64_t walkCost(int from, int to) const;
    int64_t copyCost(const Graph& g) const;
    bool canWalk(int from, int to) const;
    void step(bool forward);
    void maybeCheckpoint();

    const Trace& m_trace;
    int m_every;
    std::vector<int64_t> m_cost;  // m_cost[k]: cost of applying steps [0, k)
    std::vector<StepUndo> m_undo;  // m_undo[s]: inverse of step s, once applied
    int m_undoReady = 0;           // steps [0, m_undoReady) all have their inverse
    std::map<int, std::unique_ptr<Graph>> m_checkpoints;
    std::unique_ptr<Graph> m_graph;
    std::unique_ptr<StepUndo> m_scratch;
    int m_current = -1;
};

} // namespace tl
