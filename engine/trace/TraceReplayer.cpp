// TraceReplayer: one graph edited in place, forward by the steps' edits and
// backward by their inverses (trace/TraceUndo.h); copies only for long jumps.
#include "trace/TraceReplayer.h"
#include "trace/TraceUndo.h"

#include <algorithm>
#include <limits>

namespace tl {

namespace {
// Costs are in replayed edits. Measured on bench_trace_stepping's 10,000-node
// graph: ~0.75 µs per edit replayed, ~2-3 µs per node copied and ~0.5-0.8 µs per
// node to free the graph a copy replaces.
constexpr int64_t kCopyPerNode = 3;
constexpr int64_t kFreePerNode = 1;
constexpr int64_t kUnreachable = std::numeric_limits<int64_t>::max() / 4;
} // namespace

TraceReplayer::TraceReplayer(const Trace& trace, int checkpointEvery)
    : m_trace(trace), m_every(checkpointEvery < 1 ? 1 : checkpointEvery), m_scratch(std::make_unique<StepUndo>()) {}

TraceReplayer::~TraceReplayer() = default;

// Steps may be appended to the trace after the replayer was made (a trace still
// being recorded); anything else invalidates what was derived from it.
void TraceReplayer::sync() {
    const size_t n = m_trace.size();
    if (m_cost.size() == n + 1) return;
    if (m_cost.size() > n + 1) {
        m_cost.clear();
        m_undo.clear();
        m_undoReady = 0;
        m_checkpoints.clear();
        m_graph.reset();
        m_current = -1;
    }
    if (m_cost.empty()) m_cost.push_back(0);
    for (size_t s = m_cost.size() - 1; s < n; ++s)
        m_cost.push_back(m_cost.back() + 1 + static_cast<int64_t>(m_trace.steps()[s].edits.size()));
    m_undo.resize(n);
}

int64_t TraceReplayer::walkCost(int from, int to) const {
    return std::abs(m_cost[static_cast<size_t>(to)] - m_cost[static_cast<size_t>(from)]);
}

int64_t TraceReplayer::copyCost(const Graph& g) const { return kCopyPerNode * static_cast<int64_t>(g.numNodes() + 1); }

// Backward needs the inverse of every step crossed; those exist for every step
// this replayer has applied, which always includes every step below a position
// it has reached.
bool TraceReplayer::canWalk(int from, int to) const { return to >= from || from <= m_undoReady; }

const Graph& TraceReplayer::graphAt(int k) {
    if (!m_trace.hasOriginal()) throw TraceReplayError("the trace has no original graph", true);
    sync();
    const int n = static_cast<int>(m_trace.size());
    k = std::clamp(k, 0, n);
    if (m_graph && k == m_current) return *m_graph;

    // Start from the cheapest of: the graph we have, the original, the checkpoints around k.
    int64_t best = kUnreachable;
    int from = -1;
    const Graph* copyFrom = nullptr;
    if (m_graph && canWalk(m_current, k)) {
        best = walkCost(m_current, k);
        from = m_current;
    }
    const int64_t freeCost = m_graph ? kFreePerNode * static_cast<int64_t>(m_graph->numNodes()) : 0;
    auto consider = [&](int at, const Graph& g) {
        if (!canWalk(at, k)) return;
        const int64_t cost = freeCost + copyCost(g) + walkCost(at, k);
        if (cost < best) {
            best = cost;
            from = at;
            copyFrom = &g;
        }
    };
    consider(0, m_trace.original());
    auto above = m_checkpoints.lower_bound(k);
    if (above != m_checkpoints.end()) consider(above->first, *above->second);
    if (above != m_checkpoints.begin()) {
        auto below = std::prev(above);
        consider(below->first, *below->second);
    }
    if (copyFrom) {
        m_graph.reset();  // one graph in memory at a time besides the checkpoints
        m_current = -1;
        m_graph = copyFrom->clone();
        m_current = from;
    }

    // Only long walks leave checkpoints: stepping to a neighbour never pays for a copy.
    const bool longWalk = std::abs(k - m_current) > 1;
    while (m_current != k) {
        step(k > m_current);
        if (longWalk) maybeCheckpoint();
    }
    return *m_graph;
}

void TraceReplayer::step(bool forward) {
    const int s = forward ? m_current : m_current - 1;
    const TraceStep& st = m_trace.steps()[static_cast<size_t>(s)];
    Rewriter rw(*m_graph);
    try {
        if (forward) {
            applyTraceStep(rw, st, s, *m_scratch);
            // The inverse is the same every time the step is applied: keep the first.
            if (!m_undo[static_cast<size_t>(s)].ready()) std::swap(m_undo[static_cast<size_t>(s)], *m_scratch);
            m_current = s + 1;
            while (m_undoReady < static_cast<int>(m_undo.size()) && m_undo[static_cast<size_t>(m_undoReady)].ready())
                ++m_undoReady;
        } else {
            undoTraceStep(rw, st, s, m_undo[static_cast<size_t>(s)]);
            m_current = s;
        }
    } catch (const TraceReplayError& e) {
        // A step that did not apply was rolled back: the graph is still at m_current.
        if (!forward || !e.graphIntact) {
            m_graph.reset();
            m_current = -1;
        }
        throw;
    } catch (...) {
        m_graph.reset();
        m_current = -1;
        throw;
    }
}

// A copy where walking from the nearest copy (or the original) on either side
// would cost at least as much as making it: copies then cost at most as much
// time as the walk that passes them, and their number stays small.
void TraceReplayer::maybeCheckpoint() {
    const int p = m_current;
    if (p <= 0 || p % m_every != 0 || m_checkpoints.count(p)) return;
    const int64_t copy = copyCost(*m_graph);
    auto above = m_checkpoints.upper_bound(p);
    if (above != m_checkpoints.end() && walkCost(p, above->first) < copy) return;
    const int below = above == m_checkpoints.begin() ? 0 : std::prev(above)->first;
    if (walkCost(below, p) < copy) return;
    m_checkpoints.emplace(p, m_graph->clone());
}

} // namespace tl
