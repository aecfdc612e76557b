// `tensorlens missed` (compare/Comparison.h) against `tensorlens rewrite` alone on the
// same graph, measured in the same run; the ratio is what the comparison costs on top
// of one pipeline run (docs/performance.md#tensorlens-missed).
//   seed: the seed's first program as PyTensor 2.34 compiled it (tests/data/missed/seed_rop.trace.json).
//   5k:   about 5,000 nodes with 50 loops (each with a duplicated state, read at [-1])
//         between elementwise chains; PyTensor's steps stand in as tensorlens's pipeline
//         in pytensor mode without scan_merge_states (PyTensor has no such rewrite).
// Both sides validate after every pass and run with the CLI's options.
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Scan.h"
#include "compare/Comparison.h"
#include "io/JsonTrace.h"
#include "rewrite/Pipeline.h"

#include <benchmark/benchmark.h>

#include <memory>

using namespace tl;

namespace {

std::unique_ptr<Graph> fiftyLoops() {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {16});
    Var v = x;
    for (int loop = 0; loop < 50; ++loop) {
        for (int i = 0; i < 42; ++i) v = (i % 3 == 0) ? tanh(v) * 0.5 : (i % 3 == 1 ? v + x * 0.25 : exp(v * 0.1) - 1.0);
        ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& s) -> StepResult {
            return {{tanh(s[0]) * 0.9 + 0.1, tanh(s[1]) * 0.9 + 0.1}};
        }, ScanArgs{.outputsInfo = {OutputInfo(v), OutputInfo(v)}, .nSteps = 6, .name = "loop" + std::to_string(loop)});
        v = index(r.outputs[0], -1) + index(r.outputs[1], -1);
    }
    return b.finish({v});
}

// A trace standing for PyTensor's: the original graph and a pipeline's steps on it.
std::shared_ptr<Trace> pytensorLikeTrace(const Graph& original) {
    PipelineOptions o;
    o.bufferMode = RewriteOptions::BufferMode::PyTensor;
    o.exclude.insert("scan_merge_states");
    auto t = std::make_shared<Trace>(rewriteWithTrace(original, o));
    return t;
}

struct Case {
    std::shared_ptr<Trace> trace;
};

const Case& seedCase() {
    static const Case c{std::make_shared<Trace>(loadTrace(std::string(TL_BENCH_SOURCE_DIR) + "/tests/data/missed/seed_rop.trace.json"))};
    return c;
}

const Case& fiveThousand() {
    static const Case c = [] {
        auto g = fiftyLoops();
        return Case{pytensorLikeTrace(*g)};
    }();
    return c;
}

const Case& caseOf(int k) { return k == 0 ? seedCase() : fiveThousand(); }
const char* nameOf(int k) { return k == 0 ? "seed_rop" : "5k nodes, 50 loops"; }

void BM_Missed(benchmark::State& state) {
    const Case& c = caseOf(static_cast<int>(state.range(0)));
    CompareOptions o;
    for (auto _ : state) {
        Comparison r = compareWithPyTensor(*c.trace, o);
        benchmark::DoNotOptimize(r.missed.size());
    }
    state.SetLabel(nameOf(static_cast<int>(state.range(0))));
    state.counters["nodes"] = static_cast<double>(c.trace->original().numNodes());
}

// The baseline: `tensorlens rewrite` of PyTensor's original graph.
void BM_RewriteAlone(benchmark::State& state) {
    const Case& c = caseOf(static_cast<int>(state.range(0)));
    const Pipeline pipeline = Pipeline::fastRun();
    PipelineOptions o;
    for (auto _ : state) {
        state.PauseTiming();
        auto g = c.trace->original().clone();
        Trace t(g->clone());
        state.ResumeTiming();
        pipeline.run(*g, o, &t);
        benchmark::DoNotOptimize(g->numNodes());
    }
    state.SetLabel(nameOf(static_cast<int>(state.range(0))));
    state.counters["nodes"] = static_cast<double>(c.trace->original().numNodes());
}

} // namespace

BENCHMARK(BM_Missed)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RewriteAlone)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
