#pragma once
// The rewrite trace: every change the pipeline made, as replayable primitive
// edits grouped into steps (SEMANTICS.md §6). The GUI steps through it; the
// JSON form is documented in docs/trace-format.md.
#include "ir/Graph.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tl {

/// Everything needed to recreate a node during replay.
struct NodeSnapshot {
    NodeId id = 0;
    OpPtr op;
    std::vector<VarId> inputs;
    std::vector<VarId> outputIds;
    std::vector<Type> outputTypes;
    std::vector<std::string> outputNames;
};

/// A constant added by a rewrite.
struct ConstantSnapshot {
    VarId id = 0;
    Type type;
    NDArray value;
};

/// One primitive graph edit, in the order the Rewriter made it.
struct GraphEdit {
    enum class Kind : uint8_t { CreateNode, EraseNode, AddConstant, EraseConstant, ReplaceVariable, SetInput, SetOutput, SetOp };
    Kind kind = Kind::CreateNode;
    NodeSnapshot node;           // CreateNode, EraseNode
    ConstantSnapshot constant;   // AddConstant, EraseConstant
    NodeId nodeId = -1;          // SetInput, SetOp
    int index = 0;               // SetInput, SetOutput
    VarId before = -1, after = -1;  // ReplaceVariable, SetInput, SetOutput
    OpPtr opBefore, opAfter;     // SetOp
};

/// The edit kind's name in trace files and messages ("create_node", "replace", ...).
const char* graphEditKindName(GraphEdit::Kind k);

/// A named fact about a node that changed (buffer shape, destroy map, merged state...).
struct AttributeChange {
    NodeId node = -1;
    std::string key;     // "buffer_shape", "destroy_map", "merged_state", "fused", "n_steps", "buffer_rule"
    std::string before;  // "(11, 7)"
    std::string after;   // "(1, 7)"
    std::string detail;  // why: "exact: the only reader of the oldest tap is elementwise"
};

/// A rewrite that looked at a node and did not fire (recorded with --explain).
struct MatchFailure {
    std::string rewrite;
    NodeId node = -1;
    std::string reason;
};

struct TraceStep {
    int index = 0;
    std::string phase;
    std::string rewrite;
    std::optional<NodeId> root;
    std::vector<GraphEdit> edits;
    std::vector<AttributeChange> attributes;
    /// Nodes created by cloning: new id -> source id (provenance through clones). A node
    /// built from several keeps the first; the step's attributes name the others.
    std::map<NodeId, NodeId> clonedFrom;
    double seconds = 0.0;

    std::vector<NodeId> createdNodes() const;
    std::vector<NodeId> erasedNodes() const;
    /// (old, new) variable pairs of ReplaceVariable / SetInput / SetOutput edits.
    std::vector<std::pair<VarId, VarId>> rewiredVariables() const;
};

class Trace {
public:
    Trace() = default;
    explicit Trace(std::unique_ptr<Graph> original) : m_original(std::move(original)) {}

    const Graph& original() const { return *m_original; }
    bool hasOriginal() const { return m_original != nullptr; }
    void setOriginal(std::unique_ptr<Graph> g) { m_original = std::move(g); }

    const std::vector<TraceStep>& steps() const { return m_steps; }
    std::vector<TraceStep>& steps() { return m_steps; }
    size_t size() const { return m_steps.size(); }

    /// Match failures recorded with explain on, keyed by the step they happened
    /// before (i.e. failures[k] happened while the graph was graphAt(k)).
    std::map<int, std::vector<MatchFailure>>& failures() { return m_failures; }
    const std::map<int, std::vector<MatchFailure>>& failures() const { return m_failures; }

    /// Settings the pipeline ran with (mode, excluded rewrites), for display and re-runs.
    std::map<std::string, std::string>& settings() { return m_settings; }
    const std::map<std::string, std::string>& settings() const { return m_settings; }

private:
    std::unique_ptr<Graph> m_original;
    std::vector<TraceStep> m_steps;
    std::map<int, std::vector<MatchFailure>> m_failures;
    std::map<std::string, std::string> m_settings;
};

/// A trace step that cannot be applied or undone; the message names the step
/// ("step 8 (trace index 7, merge in phase canonicalize)") and the edit.
struct TraceReplayError : GraphError {
    TraceReplayError(const std::string& what, bool intact) : GraphError(what), graphIntact(intact) {}
    /// False when the graph was left half edited (the replayer then drops it).
    bool graphIntact = true;
};

class StepUndo;  // rewrite/TraceUndo.h

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
