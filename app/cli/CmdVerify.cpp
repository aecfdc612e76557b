// tensorlens verify IN.json: run the graph after every rewrite step, report the first that differs.
#include "cli/Args.h"
#include "cli/Commands.h"
#include "cli/PipelineArgs.h"

#include "exec/Executor.h"
#include "io/JsonGraph.h"
#include "io/JsonValues.h"
#include "trace/StepVerifier.h"

#include <iostream>

namespace tl::cli {

int cmdVerify(const std::vector<std::string>& argv) {
    Args args(argv, {"explain", "help"}, {"inputs", "seed", "mode", "exclude", "include", "rtol", "atol"});
    if (args.positional().size() != 1) throw UsageError("give one input graph");
    const Pipeline pipeline = Pipeline::fastRun();
    PipelineOptions opts = pipelineOptionsFrom(args, pipeline);
    auto graph = loadGraph(args.positional()[0]);
    std::vector<NDArray> inputs;
    if (auto in = args.value("inputs")) inputs = inputsFromJson(readJsonFile(*in), *graph, *in);
    else inputs = randomInputs(*graph, static_cast<uint64_t>(args.intValue("seed", 0)));
    Trace trace = rewriteWithTrace(*graph, opts);
    VerifyOptions vopts;
    vopts.rtol = args.numberValue("rtol", vopts.rtol);
    vopts.atol = args.numberValue("atol", vopts.atol);
    vopts.onProgress = [](int done, int total) {
        std::cerr << "\rverify: step " << done << "/" << total << std::flush;
    };
    VerifyResult r = verifySteps(trace, inputs, vopts);
    std::cerr << "\n";
    if (r.firstBadStep < 0) {
        std::cout << "ok: all " << trace.size() << " steps keep the outputs (max abs diff " << r.maxAbsDiff
                  << ", max rel diff " << r.maxRelDiff << ")\n";
        return 0;
    }
    const TraceStep& s = trace.steps()[r.firstBadStep - 1];
    std::cout << "step " << r.firstBadStep << " (" << s.phase << " / " << s.rewrite << ") changes the outputs: "
              << r.message << "\n";
    return 1;
}

} // namespace tl::cli
