#pragma once
// The rewrite trace: every change the pipeline made, as replayable primitive
// edits grouped into steps (docs/semantics.md#trace-steps). The GUI steps through it; the
// JSON form is documented in docs/trace-format.md.
#include "ir/Graph.h"
#include "ir/GraphEdit.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tl {

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

} // namespace tl
