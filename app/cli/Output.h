#pragma once
// Shared plumbing of the subcommands: writing results, loading a graph or a trace step.
#include "ir/Graph.h"
#include "trace/Trace.h"
#include "trace/TraceReplayer.h"

#include <memory>
#include <optional>
#include <string>

namespace tl::cli {

/// Writes `text` to the file, or to standard output when no file is given.
void writeTextOutput(const std::optional<std::string>& file, const std::string& text);

/// A graph from a JSON graph file, or from a trace file at `step` (0 = original).
struct LoadedGraph {
    std::unique_ptr<Trace> trace;          // set when read from a trace
    std::unique_ptr<Graph> ownedGraph;     // set when read from a graph file
    std::unique_ptr<TraceReplayer> replay;
    const Graph* graph = nullptr;
};
LoadedGraph loadGraphOrTraceStep(const std::optional<std::string>& graphFile,
                                 const std::optional<std::string>& traceFile, std::optional<long long> step);

} // namespace tl::cli
