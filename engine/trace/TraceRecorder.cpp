#include "trace/TraceRecorder.h"

namespace tl {

NodeSnapshot snapshotNode(const Node& n) {
    NodeSnapshot s;
    s.id = n.id();
    s.op = n.opPtr();
    for (Variable* v : n.inputs()) s.inputs.push_back(v->id());
    for (Variable* o : n.outputs()) {
        s.outputIds.push_back(o->id());
        s.outputTypes.push_back(o->type());
        s.outputNames.push_back(o->name());
    }
    return s;
}

TraceStep& TraceRecorder::current() {
    if (!m_open) {
        // An edit outside any rewrite still belongs in the trace.
        rewriteBegin("(unnamed edit)", nullptr);
    }
    return m_step;
}

void TraceRecorder::attributeChanged(NodeId node, std::string_view key, std::string_view before,
                                     std::string_view after, std::string_view detail) {
    current().attributes.push_back(
        AttributeChange{node, std::string(key), std::string(before), std::string(after), std::string(detail)});
}

// The first source is the provenance link; a node built from several (merged loops, fused
// nodes) lists the others in its step's attributes.
void TraceRecorder::nodeCloned(NodeId created, NodeId source) { current().clonedFrom.emplace(created, source); }

void TraceRecorder::nodeCreated(const Node& n) {
    GraphEdit e;
    e.kind = GraphEdit::Kind::CreateNode;
    e.node = snapshotNode(n);
    current().edits.push_back(std::move(e));
}

void TraceRecorder::constantCreated(const Variable& c) {
    GraphEdit e;
    e.kind = GraphEdit::Kind::AddConstant;
    e.constant = ConstantSnapshot{c.id(), c.type(), c.constantValue(), c.name()};
    current().edits.push_back(std::move(e));
}

void TraceRecorder::constantErased(const Variable& c) {
    GraphEdit e;
    e.kind = GraphEdit::Kind::EraseConstant;
    e.constant = ConstantSnapshot{c.id(), c.type(), c.constantValue(), c.name()};
    current().edits.push_back(std::move(e));
}

void TraceRecorder::nodeErased(const Node& n) {
    GraphEdit e;
    e.kind = GraphEdit::Kind::EraseNode;
    e.node = snapshotNode(n);
    current().edits.push_back(std::move(e));
}

void TraceRecorder::variableReplaced(const Variable& old, const Variable& now) {
    GraphEdit e;
    e.kind = GraphEdit::Kind::ReplaceVariable;
    e.before = old.id();
    e.after = now.id();
    // Announced before the Rewriter prunes what lost its clients, so replay
    // rewires first and erases after, as recorded.
    current().edits.push_back(std::move(e));
}

void TraceRecorder::inputChanged(const Node& n, int index, const Variable& old, const Variable& now) {
    GraphEdit e;
    e.kind = GraphEdit::Kind::SetInput;
    e.nodeId = n.id();
    e.index = index;
    e.before = old.id();
    e.after = now.id();
    current().edits.push_back(std::move(e));
}

void TraceRecorder::outputChanged(int index, const Variable& old, const Variable& now) {
    GraphEdit e;
    e.kind = GraphEdit::Kind::SetOutput;
    e.index = index;
    e.before = old.id();
    e.after = now.id();
    current().edits.push_back(std::move(e));
}

void TraceRecorder::opChanged(const Node& n, const OpPtr& old, const OpPtr& now) {
    GraphEdit e;
    e.kind = GraphEdit::Kind::SetOp;
    e.nodeId = n.id();
    e.opBefore = old;
    e.opAfter = now;
    current().edits.push_back(std::move(e));
}

void TraceRecorder::rewriteBegin(std::string_view rewrite, const Node* root) {
    if (m_open) return;  // nested rewrites (a pass calling a node rewrite) record as one step
    m_open = true;
    m_step = TraceStep{};
    m_step.phase = m_phase;
    m_step.rewrite = std::string(rewrite);
    if (root) m_step.root = root->id();
    m_start = std::chrono::steady_clock::now();
}

void TraceRecorder::rewriteEnd(std::string_view rewrite, bool changed) {
    if (!m_open) return;
    if (rewrite != m_step.rewrite && m_step.rewrite != "(unnamed edit)") return;  // end of a nested rewrite
    m_open = false;
    m_step.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    if (!m_step.edits.empty() || !m_step.attributes.empty()) {
        m_step.index = static_cast<int>(m_trace.steps().size());
        m_trace.steps().push_back(std::move(m_step));
    }
    m_step = TraceStep{};
}

void TraceRecorder::matchFailure(std::string_view rewrite, const Node& node, std::string_view reason) {
    if (!m_explain) return;
    m_trace.failures()[static_cast<int>(m_trace.steps().size())].push_back(
        MatchFailure{std::string(rewrite), node.id(), std::string(reason)});
}

} // namespace tl
