// tensorlens print FILE.json [--type] [--shape] [--destroy-map] [--view-map] [--op-info] [--topo]
#include "cli/Args.h"
#include "cli/Commands.h"
#include "cli/Output.h"

#include "io/DPrint.h"

#include <iostream>

namespace tl::cli {

int cmdPrint(const std::vector<std::string>& argv) {
    Args args(argv, {"type", "shape", "destroy-map", "view-map", "op-info", "topo", "help"}, {"trace", "step", "output"});
    if (args.positional().size() > 1) throw UsageError("give one graph file");
    std::optional<std::string> file;
    if (!args.positional().empty()) file = args.positional()[0];
    std::optional<long long> step;
    if (args.value("step")) step = args.intValue("step", 0);
    LoadedGraph loaded = loadGraphOrTraceStep(file, args.value("trace"), step);
    DPrintOptions opts;
    opts.printType = args.has("type");
    opts.printShape = args.has("shape");
    opts.printDestroyMap = args.has("destroy-map");
    opts.printViewMap = args.has("view-map");
    opts.printOpInfo = args.has("op-info");
    opts.printTopoIndex = args.has("topo");
    writeTextOutput(args.value("output"), dprint(*loaded.graph, opts));
    return 0;
}

} // namespace tl::cli
