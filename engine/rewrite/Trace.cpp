#include "rewrite/Trace.h"

#include "ir/Rewriter.h"

namespace tl {

std::vector<NodeId> TraceStep::createdNodes() const {
    std::vector<NodeId> out;
    for (const GraphEdit& e : edits)
        if (e.kind == GraphEdit::Kind::CreateNode) out.push_back(e.node.id);
    return out;
}

std::vector<NodeId> TraceStep::erasedNodes() const {
    std::vector<NodeId> out;
    for (const GraphEdit& e : edits)
        if (e.kind == GraphEdit::Kind::EraseNode) out.push_back(e.node.id);
    return out;
}

std::vector<std::pair<VarId, VarId>> TraceStep::rewiredVariables() const {
    std::vector<std::pair<VarId, VarId>> out;
    for (const GraphEdit& e : edits)
        if (e.kind == GraphEdit::Kind::ReplaceVariable || e.kind == GraphEdit::Kind::SetInput ||
            e.kind == GraphEdit::Kind::SetOutput)
            out.emplace_back(e.before, e.after);
    return out;
}

TraceReplayer::TraceReplayer(const Trace& trace, int checkpointEvery)
    : m_trace(trace), m_every(checkpointEvery < 1 ? 1 : checkpointEvery) {}

TraceReplayer::~TraceReplayer() = default;

void TraceReplayer::applyStep(Graph& g, const TraceStep& step) {
    Rewriter rw(g);
    for (const GraphEdit& e : step.edits) rw.replayEdit(e);
}

const Graph& TraceReplayer::graphAt(int k) {
    const int n = static_cast<int>(m_trace.size());
    if (k < 0) k = 0;
    if (k > n) k = n;
    if (m_graph && k == m_current) return *m_graph;
    // Forward from where we are when that is the cheapest start.
    const int base = (k / m_every) * m_every;
    if (!m_graph || k < m_current || m_current < base) {
        // Walk checkpoints forward from the nearest one at or below k, creating them on the way.
        int from = 0;
        for (auto it = m_checkpoints.begin(); it != m_checkpoints.end(); ++it)
            if (it->first <= k) from = it->first;
        std::unique_ptr<Graph> g = from == 0 ? m_trace.original().clone() : m_checkpoints.at(from)->clone();
        for (int s = from; s < k; ++s) {
            applyStep(*g, m_trace.steps()[s]);
            if ((s + 1) % m_every == 0 && !m_checkpoints.count(s + 1)) m_checkpoints[s + 1] = g->clone();
        }
        m_graph = std::move(g);
        m_current = k;
        return *m_graph;
    }
    for (int s = m_current; s < k; ++s) {
        applyStep(*m_graph, m_trace.steps()[s]);
        if ((s + 1) % m_every == 0 && !m_checkpoints.count(s + 1)) m_checkpoints[s + 1] = m_graph->clone();
    }
    m_current = k;
    return *m_graph;
}

} // namespace tl
