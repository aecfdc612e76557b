// tensorlens rewrite IN.json -o OUT.json [--trace TRACE.json] [--mode exact|pytensor] [--exclude X] [--explain]
#include "cli/Args.h"
#include "cli/Commands.h"
#include "cli/Output.h"
#include "cli/PipelineArgs.h"

#include "io/JsonGraph.h"
#include "io/JsonTrace.h"

#include <iostream>

namespace tl::cli {

int cmdRewrite(const std::vector<std::string>& argv) {
    Args args(argv, {"explain", "list", "help"}, {"output", "trace", "mode", "exclude", "include"});
    const Pipeline pipeline = Pipeline::fastRun();
    if (args.has("list")) {
        for (const RewriteDescription& d : pipeline.describe()) {
            std::cout << d.phase << "\t" << d.name;
            for (size_t i = 0; i < d.tags.size(); ++i) std::cout << (i ? "," : "\t") << d.tags[i];
            std::cout << "\n";
        }
        return 0;
    }
    if (args.positional().size() != 1) throw UsageError("give one input graph");
    if (!args.value("output") && !args.value("trace")) throw UsageError("give -o OUT.json and/or --trace TRACE.json");
    PipelineOptions opts = pipelineOptionsFrom(args, pipeline);
    auto graph = loadGraph(args.positional()[0]);
    Trace trace(graph->clone());
    pipeline.run(*graph, opts, &trace);
    if (auto out = args.value("output")) saveGraph(*out, *graph);
    if (auto t = args.value("trace")) saveTrace(*t, trace);
    std::cerr << "tensorlens rewrite: " << trace.size() << " steps, " << trace.original().numNodes() << " -> "
              << graph->numNodes() << " nodes\n";
    return 0;
}

} // namespace tl::cli
