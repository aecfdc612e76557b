#include "exec/ExecContext.h"

#include "exec/Executor.h"
#include "ir/Graph.h"

namespace tl {

ExecContext::ExecContext() = default;

ExecContext::~ExecContext() {
    // Compiled graphs first: their cells' storages report to m_tracker.
    m_inner.clear();
}

CompiledGraph& ExecContext::innerGraph(const std::shared_ptr<const Graph>& graph,
                                      const std::vector<std::pair<int, int>>& rowReuse) {
    if (graph.get() == m_lastGraph && rowReuse == m_lastRowReuse) return *m_lastCompiled;
    auto key = std::make_pair(graph.get(), rowReuse);
    auto it = m_inner.find(key);
    if (it == m_inner.end()) {
        CompiledGraph::Options opts;
        opts.freeIntermediates = false;  // as PyTensor's scan inner function (allow_gc=False)
        opts.rowReuse = rowReuse;
        Entry e{graph, std::make_unique<CompiledGraph>(*graph, opts)};
        it = m_inner.emplace(std::move(key), std::move(e)).first;
    }
    m_lastGraph = graph.get();
    m_lastRowReuse = rowReuse;
    m_lastCompiled = it->second.compiled.get();
    return *m_lastCompiled;
}

} // namespace tl
