#include "cli/Output.h"

#include "cli/Args.h"
#include "io/JsonGraph.h"
#include "io/JsonTrace.h"
#include "trace/TraceReplayer.h"

#include <fstream>
#include <iostream>
#include <stdexcept>

namespace tl::cli {

void writeTextOutput(const std::optional<std::string>& file, const std::string& text) {
    if (!file || *file == "-") {
        std::cout << text;
        return;
    }
    std::ofstream f(*file, std::ios::binary);
    if (!f) throw std::runtime_error(*file + ": cannot open for writing");
    f << text;
    if (!f) throw std::runtime_error(*file + ": write failed");
}

LoadedGraph loadGraphOrTraceStep(const std::optional<std::string>& graphFile,
                                 const std::optional<std::string>& traceFile, std::optional<long long> step) {
    LoadedGraph out;
    if (traceFile) {
        if (graphFile) throw UsageError("give a graph file or --trace, not both");
        out.trace = std::make_unique<Trace>(loadTrace(*traceFile));
        const long long n = static_cast<long long>(out.trace->size());
        const long long k = step.value_or(n);
        if (k < 0 || k > n)
            throw UsageError("--step " + std::to_string(k) + " is out of range: the trace has steps 0.." + std::to_string(n));
        out.replay = std::make_unique<TraceReplayer>(*out.trace);
        out.graph = &out.replay->graphAt(static_cast<int>(k));
        return out;
    }
    if (!graphFile) throw UsageError("give a graph file");
    if (step) throw UsageError("--step needs --trace");
    out.ownedGraph = loadGraph(*graphFile);
    out.graph = out.ownedGraph.get();
    return out;
}

} // namespace tl::cli
