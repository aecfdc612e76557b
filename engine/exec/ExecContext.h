#pragma once
// What every Op::perform call of one run shares: the MemoryTracker that counts
// the run's bytes, the compiled inner graphs of Scan ops (compiled once per run,
// not once per step), and the run's options.
#include "core/MemoryTracker.h"

#include <cstdint>
#include <memory>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tl {

class Graph;
class CompiledGraph;

struct ExecOptions {
    /// Let Scan hand a buffer row to its inner function as the output storage of a
    /// new state (PyTensor's preallocation) where that cannot overwrite a tap still
    /// to be read. Off: every new state is computed elsewhere and copied in.
    bool scanPreallocate = true;
};

/// Counters a run accumulates (tests and benchmarks read them).
struct ExecStats {
    uint64_t scanSteps = 0;          // inner-function calls of every Scan
    uint64_t scanRowsInPlace = 0;    // new states the inner function wrote straight into a buffer row
    uint64_t scanRowsCopied = 0;     // new states copied into a buffer row after the step
    uint64_t scanDirectSteps = 0;    // of scanSteps, those run as one elementwise call (exec/ScanElemwiseStep.h)
};

/// One per run (or one reused for many runs of the same graphs). Not thread-safe.
/// Arrays allocated during a run report to tracker(), so the context must outlive
/// them; CompiledGraph::run untracks the arrays it returns for that reason.
class ExecContext {
public:
    ExecContext();
    ~ExecContext();
    ExecContext(const ExecContext&) = delete;
    ExecContext& operator=(const ExecContext&) = delete;

    MemoryTracker& tracker() { return m_tracker; }
    ExecOptions& options() { return m_options; }
    const ExecOptions& options() const { return m_options; }
    ExecStats& stats() { return m_stats; }

    /// The compiled form of an inner graph (Scan body), built on first use and kept
    /// (with its storage cells, as PyTensor keeps the inner function's storage) for
    /// as long as this context lives. The context keeps `graph` alive.
    /// `rowReuse`: CompiledGraphOptions::rowReuse of that compilation (one compiled form is
    /// kept per graph and rowReuse list).
    CompiledGraph& innerGraph(const std::shared_ptr<const Graph>& graph,
                              const std::vector<std::pair<int, int>>& rowReuse = {});

private:
    // Declared first so it is destroyed last: the cached graphs' arrays report to it.
    MemoryTracker m_tracker;
    ExecOptions m_options;
    ExecStats m_stats;
    struct Entry {
        std::shared_ptr<const Graph> graph;
        std::unique_ptr<CompiledGraph> compiled;
    };
    std::map<std::pair<const Graph*, std::vector<std::pair<int, int>>>, Entry> m_inner;
    // One-entry memo: a Scan looks up the same inner graph on every call.
    const Graph* m_lastGraph = nullptr;
    std::vector<std::pair<int, int>> m_lastRowReuse;
    CompiledGraph* m_lastCompiled = nullptr;
};

} // namespace tl
