// tensorlens trace TRACE.json [--explain]: one line per step.
#include "trace/TraceReplayer.h"
#include "cli/Args.h"
#include "cli/Commands.h"

#include "io/JsonTrace.h"

#include <iomanip>
#include <iostream>

namespace tl::cli {

namespace {
std::string nodeLabel(const Graph& g, NodeId id) {
    const Node* n = g.findNode(id);
    return n ? n->label() : "#" + std::to_string(id);
}
} // namespace

int cmdTrace(const std::vector<std::string>& argv) {
    Args args(argv, {"explain", "help"}, {});
    if (args.positional().size() != 1) throw UsageError("give one trace file");
    Trace trace = loadTrace(args.positional()[0]);
    TraceReplayer replay(trace);
    for (const TraceStep& s : trace.steps()) {
        // The root is named in the graph the step started from.
        const Graph& before = replay.graphAt(s.index);
        std::cout << s.index + 1 << "\t" << s.phase << "\t" << s.rewrite << "\t"
                  << (s.root ? nodeLabel(before, *s.root) : std::string("-")) << "\t+" << s.createdNodes().size()
                  << " -" << s.erasedNodes().size();
        for (const AttributeChange& a : s.attributes) std::cout << "\t" << a.key << ": " << a.before << " -> " << a.after;
        std::cout << "\n";
        if (args.has("explain")) {
            auto it = trace.failures().find(s.index);
            if (it != trace.failures().end())
                for (const MatchFailure& f : it->second)
                    std::cout << "\t  not fired: " << f.rewrite << " at " << nodeLabel(before, f.node) << ": " << f.reason << "\n";
        }
    }
    std::cout << trace.size() << " steps\n";
    return 0;
}

} // namespace tl::cli
