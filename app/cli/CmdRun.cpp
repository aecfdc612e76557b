// tensorlens run FILE.json [--inputs IN.json | --seed N] [--json]
#include "cli/Args.h"
#include "cli/Commands.h"
#include "cli/Output.h"

#include "exec/Executor.h"
#include "io/JsonFormat.h"
#include "io/JsonValues.h"

#include <iostream>
#include <sstream>

namespace tl::cli {

namespace {
std::string outputName(const Graph& g, size_t i) {
    const std::string& n = g.outputs()[i]->name();
    return n.empty() ? "output" + std::to_string(i) : n;
}
} // namespace

int cmdRun(const std::vector<std::string>& argv) {
    Args args(argv, {"json", "help"}, {"inputs", "seed", "trace", "step"});
    if (args.positional().size() > 1) throw UsageError("give one graph file");
    if (args.value("inputs") && args.value("seed")) throw UsageError("give --inputs or --seed, not both");
    std::optional<std::string> file;
    if (!args.positional().empty()) file = args.positional()[0];
    std::optional<long long> step;
    if (args.value("step")) step = args.intValue("step", 0);
    LoadedGraph loaded = loadGraphOrTraceStep(file, args.value("trace"), step);
    const Graph& g = *loaded.graph;

    std::vector<NDArray> inputs;
    if (auto in = args.value("inputs")) inputs = inputsFromJson(readJsonFile(*in), g, *in);
    else inputs = randomInputs(g, static_cast<uint64_t>(args.intValue("seed", 0)));

    RunResult r = runGraph(g, inputs);
    if (args.has("json")) {
        nlohmann::json outs = nlohmann::json::array();
        for (size_t i = 0; i < r.outputs.size(); ++i) {
            nlohmann::json o = arrayToJson(r.outputs[i]);
            o["name"] = outputName(g, i);
            outs.push_back(std::move(o));
        }
        nlohmann::json doc = {{"outputs", outs}, {"peak_bytes", r.peakBytes}};
        std::cout << canonicalDump(doc);
        return 0;
    }
    std::ostringstream os;
    os.precision(17);
    for (size_t i = 0; i < r.outputs.size(); ++i) {
        const NDArray& a = r.outputs[i];
        os << outputName(g, i) << " " << dtypeName(a.dtype()) << shapeToString(a.shape()) << ":";
        if (isInteger(a.dtype())) {
            for (const nlohmann::json& v : arrayDataToJson(a)) os << " " << v.get<int64_t>();  // exact beyond 2^53
        } else {
            for (double v : a.toDoubles()) os << " " << v;
        }
        os << "\n";
    }
    os << "peak bytes: " << r.peakBytes << "\n";
    std::cout << os.str();
    return 0;
}

} // namespace tl::cli
