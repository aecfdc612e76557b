// tensorlens example --list | NAME -o FILE.json | --generate KIND --nodes N -o FILE.json
#include "cli/Args.h"
#include "cli/Commands.h"
#include "cli/Output.h"

#include "builder/Examples.h"
#include "builder/Generators.h"
#include "io/JsonGraph.h"

#include <iostream>

namespace tl::cli {

namespace {
// The graphs benchmarks and scale tests use, made the same way for users.
std::unique_ptr<Graph> generate(const std::string& kind, int nodes, uint64_t seed) {
    if (kind == "mixed") return generateMixed(nodes, seed);
    if (kind == "chain") return generateElemwiseChain(nodes);
    if (kind == "scans") return generateIndependentScans(std::max(1, nodes / 8));
    if (kind == "dup") return generateDuplicatedSubexpressions(nodes);
    throw UsageError("--generate must be mixed, chain, scans or dup, got '" + kind + "'");
}
} // namespace

int cmdExample(const std::vector<std::string>& argv) {
    Args args(argv, {"list", "help"}, {"output", "generate", "nodes", "seed"});
    if (args.has("list")) {
        for (const Example& e : examples()) std::cout << e.name << "\t" << e.description << "\n";
        return 0;
    }
    if (auto kind = args.value("generate")) {
        if (!args.positional().empty()) throw UsageError("give an example name or --generate, not both");
        const long long nodes = args.intValue("nodes", 5000);
        if (nodes < 1 || nodes > 1000000) throw UsageError("--nodes must be between 1 and 1000000, got " + std::to_string(nodes));
        const long long seed = args.intValue("seed", 1);
        if (seed < 0) throw UsageError("--seed must not be negative");
        auto graph = generate(*kind, static_cast<int>(nodes), static_cast<uint64_t>(seed));
        writeTextOutput(args.value("output"), graphToJsonText(*graph));
        std::cerr << "tensorlens example: generated " << *kind << " graph of " << graph->numNodes() << " nodes\n";
        return 0;
    }
    if (args.has("nodes") || args.has("seed")) throw UsageError("--nodes and --seed go with --generate");
    if (args.positional().size() != 1) throw UsageError("give one example name (or --list, or --generate KIND)");
    auto graph = buildExample(args.positional()[0]);
    writeTextOutput(args.value("output"), graphToJsonText(*graph));
    return 0;
}

} // namespace tl::cli
