#pragma once
// A RewriteListener that turns the Rewriter's notifications into trace steps.
#include "ir/Rewriter.h"
#include "trace/Trace.h"

#include <chrono>

namespace tl {

class TraceRecorder : public RewriteListener {
public:
    /// Records into `trace`; `explain` keeps match failures too.
    TraceRecorder(Trace& trace, bool explain) : m_trace(trace), m_explain(explain) {}

    /// The phase name given to the steps that follow.
    void setPhase(std::string phase) { m_phase = std::move(phase); }

    void nodeCreated(const Node& n) override;
    void constantCreated(const Variable& c) override;
    void constantErased(const Variable& c) override;
    void nodeErased(const Node& n) override;
    void variableReplaced(const Variable& old, const Variable& now) override;
    void inputChanged(const Node& n, int index, const Variable& old, const Variable& now) override;
    void outputChanged(int index, const Variable& old, const Variable& now) override;
    void opChanged(const Node& n, const OpPtr& old, const OpPtr& now) override;
    void rewriteBegin(std::string_view rewrite, const Node* root) override;
    void rewriteEnd(std::string_view rewrite, bool changed) override;
    bool wantsMatchFailures() const override { return m_explain; }
    void matchFailure(std::string_view rewrite, const Node& node, std::string_view reason) override;
    void attributeChanged(NodeId node, std::string_view key, std::string_view before, std::string_view after,
                          std::string_view detail) override;
    void nodeCloned(NodeId created, NodeId source) override;

    /// True while a rewrite is open (between begin and end).
    bool recording() const { return m_open; }

private:
    TraceStep& current();
    Trace& m_trace;
    bool m_explain;
    bool m_open = false;
    std::string m_phase;
    TraceStep m_step;
    std::chrono::steady_clock::time_point m_start;
};

/// Snapshot of a node as it is now.
NodeSnapshot snapshotNode(const Node& n);

} // namespace tl
