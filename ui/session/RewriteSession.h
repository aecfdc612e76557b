#pragma once
// The model every view of the window shares (docs/conventions.md#the-window-is-a-thin-view): the
// original graph, its rewrite trace, the current step and the selection.
// No widgets: tests drive it headless.
//
// Steps are numbered from 1: step k is trace.steps()[k - 1], and position k
// shows graphAt(k), the graph after the first k steps, with diff(k)
// highlighted. Position 0 is the original graph.
#include "model/InnerGraphDiff.h"
#include "model/NodeRef.h"
#include "trace/Trace.h"
#include "trace/TraceReplayer.h"
#include "trace/StepDiff.h"

#include <QFuture>
#include <QObject>
#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace tl {

/// One link of a node's history, newest first.
struct ProvenanceLink {
    NodeId node = -1;
    int step = 0;                // 1-based step that created `node`; 0: in the original graph
    std::string rewrite, phase;  // of that step
    std::optional<NodeId> from;  // the node it was cloned from (its history continues there)
    std::optional<NodeId> root;  // the node the rewrite was applied to
    std::string op;              // op name of `node` when created
    /// "created by step 41 scan_save_mem from node 17" / "node 3 is in the original graph".
    std::string text() const;
};

/// A rewrite that looked at a node and did not fire (recorded with --explain).
struct ExplainEntry {
    int position = 0;  // the graph it looked at: graphAt(position)
    std::string rewrite, reason;
};

/// Steps of one phase, in order.
struct PhaseGroup {
    std::string phase;
    std::vector<int> steps;  // 1-based
};

class RewriteSession : public QObject {
    Q_OBJECT
public:
    explicit RewriteSession(QObject* parent = nullptr);
    ~RewriteSession() override;

    // ---- opening ----------------------------------------------------------
    /// Shows a graph with no rewrite history (0 steps).
    void openGraph(std::unique_ptr<Graph> graph, const QString& source = {});
    /// Shows a trace; its original graph is position 0. Throws std::invalid_argument without one.
    void openTrace(std::unique_ptr<Trace> trace, const QString& source = {});
    bool isOpen() const { return m_trace != nullptr; }
    /// The file or example name the graph came from ("" when unknown).
    const QString& source() const { return m_source; }
    const Trace& trace() const { return *m_trace; }

    // ---- steps --------------------------------------------------------------
    int stepCount() const { return m_trace ? static_cast<int>(m_trace->size()) : 0; }
    const std::vector<TraceStep>& steps() const;
    /// Step k (1-based).
    const TraceStep& step(int k) const { return m_trace->steps().at(static_cast<size_t>(k - 1)); }
    /// Steps grouped by phase, consecutive steps of one phase form one group.
    std::vector<PhaseGroup> phases() const;
    /// Changes nothing a user could see or run differently (from the edits alone, no
    /// replay needed): see stepChangesNothing; merging equal constants is such a step.
    bool isNoOpStep(int k) const;
    /// Steps (1-based) that created, erased, rewired, re-opped or annotated `node`, or used it as root.
    const std::vector<int>& stepsTouching(NodeId node) const;
    bool stepTouches(int k, const std::set<NodeId>& nodes) const;

    // ---- the current position -------------------------------------------------
    int currentStep() const { return m_current; }
    /// Moves to position k (clamped to [0, stepCount()]); emits currentStepChanged.
    void setCurrentStep(int k);
    void next() { setCurrentStep(m_current + 1); }
    void previous() { setCurrentStep(m_current - 1); }
    void first() { setCurrentStep(0); }
    void last() { setCurrentStep(stepCount()); }
    /// The graph at the current position; valid until the position changes.
    const Graph& currentGraph();
    /// How many graphs or traces were opened: what was read from currentGraph()
    /// still describes it while openCount() and currentStep() are unchanged.
    int openCount() const { return m_openCount; }
    /// Work reading currentGraph() on another thread (a view's walk, started on
    /// currentStepStarting): the session waits for it to end before the current
    /// graph changes or goes (a step, an open, the session's end), so the graph
    /// stays intact while it is read.
    void addCurrentGraphReader(QFuture<void> reader);
    /// The diff leading to the current position, or null at position 0.
    const StepDiff* currentDiff();

    // ---- any position ---------------------------------------------------------------
    /// The graph after k steps; the reference stays valid until the next graphAt
    /// call (a second replayer keeps currentGraph() intact).
    const Graph& graphAt(int k);
    /// A copy of graphAt(k) the caller owns (worker threads, the executor).
    std::unique_ptr<Graph> cloneGraphAt(int k);
    /// Changes made by step k (1-based): graphAt(k - 1) -> graphAt(k). Cached.
    const StepDiff& diff(int k);
    /// The body changes of step k (1-based). Cached with diff(k).
    const StepChanges& changes(int k);

    // ---- comparing two positions ------------------------------------------------------
    /// Shows the changes from position `base` to the current one instead of the last
    /// step's (-1: the step's own changes). Emits comparisonChanged.
    void setComparisonBase(int base);
    int comparisonBase() const { return m_compareBase; }
    /// What the views highlight: the current step's diff, or the changes since the
    /// comparison base; null at position 0 (or when the base is the current position).
    const StepDiff* shownDiff();
    const StepChanges* shownChanges();

    // ---- history of a node ------------------------------------------------------------
    /// Where `node` came from, newest link first, following clones back to the original graph.
    std::vector<ProvenanceLink> provenance(NodeId node) const;
    /// provenance() as lines of text.
    std::string provenanceText(NodeId node) const;
    /// Rewrites tried on `node` that did not fire (empty unless the trace was recorded with explain).
    std::vector<ExplainEntry> explain(NodeId node) const;

    // ---- selection, shared by canvas, dprint pane, inspector, timeline ------------------------
    /// The selected outer nodes (body nodes are in selectedRefs() only).
    const std::vector<NodeId>& selection() const { return m_selection; }
    /// Selects outer nodes.
    void setSelection(std::vector<NodeId> nodes);
    /// Every selected node, body nodes included, by path.
    const std::vector<NodeRef>& selectedRefs() const { return m_selectedRefs; }
    void setSelectedRefs(std::vector<NodeRef> refs);

signals:
    /// A new graph or trace was opened (everything must be rebuilt).
    void opened();
    /// The position changed to `current`, before currentStepChanged: a view may
    /// start reading currentGraph() on another thread here (addCurrentGraphReader),
    /// so that work runs while the other views update.
    void currentStepStarting(int current);
    /// Position changed from `previous` to `current`.
    void currentStepChanged(int current, int previous);
    void selectionChanged();
    void comparisonChanged();

private:
    void buildIndexes();
    void waitForReaders();
    const NDArray* constantValue(VarId v) const;

    std::unique_ptr<Trace> m_trace;
    int m_openCount = 0;
    std::vector<QFuture<void>> m_readers;  // addCurrentGraphReader
    std::unique_ptr<TraceReplayer> m_view;     // the current position
    std::unique_ptr<TraceReplayer> m_scratch;  // graphAt(), diffs
    int m_current = 0;
    QString m_source;
    std::map<int, StepDiff> m_diffs;
    std::map<int, StepChanges> m_changes;
    std::unordered_map<VarId, NDArray> m_constants;   // every constant the trace ever holds
    int m_compareBase = -1;
    int m_comparedFor = -1;                           // the position m_compared* describe
    TraceStep m_comparedStep;                         // the steps base+1..current as one
    std::optional<StepDiff> m_comparedDiff;
    StepChanges m_comparedChanges;
    std::map<NodeId, int> m_createdAt;                 // node -> 1-based step that created it
    std::map<NodeId, std::vector<int>> m_touching;     // node -> steps touching it
    std::vector<NodeId> m_selection;
    std::vector<NodeRef> m_selectedRefs;
};

} // namespace tl
