// The whole FAST_RUN-like pipeline on generated graphs of 1,000 and 10,000 nodes.
// Baseline in the same run: cloning the graph and walking it in topological order
// once (the least any pass must do); the ratio shows how many "walks" the pipeline costs.
#include "builder/Generators.h"
#include "rewrite/Pipeline.h"

#include <benchmark/benchmark.h>

#include <functional>

using namespace tl;

namespace {
using Generator = std::function<std::unique_ptr<Graph>(int)>;

const Generator kGenerators[] = {
    [](int n) { return generateElemwiseChain(n); },
    [](int n) { return generateIndependentScans(n / 12); },
    [](int n) { return generateDuplicatedSubexpressions(n); },
};
const char* const kNames[] = {"elemwise_chain", "independent_scans", "duplicated_subexpressions"};

void BM_Pipeline(benchmark::State& state) {
    const int kind = static_cast<int>(state.range(0));
    const int nodes = static_cast<int>(state.range(1));
    auto original = kGenerators[kind](nodes);
    const Pipeline pipeline = Pipeline::fastRun();
    PipelineOptions opts;
    opts.validate = false;  // validation is a test-time check, not part of the user's wait
    for (auto _ : state) {
        state.PauseTiming();
        auto g = original->clone();
        state.ResumeTiming();
        pipeline.run(*g, opts);
        benchmark::DoNotOptimize(g->numNodes());
    }
    state.SetLabel(kNames[kind]);
    state.counters["nodes"] = static_cast<double>(original->numNodes());
    state.counters["us_per_node"] = benchmark::Counter(static_cast<double>(original->numNodes()),
                                                       benchmark::Counter::kIsIterationInvariantRate |
                                                           benchmark::Counter::kInvert);
}

void BM_BaselineCloneAndWalk(benchmark::State& state) {
    const int kind = static_cast<int>(state.range(0));
    auto original = kGenerators[kind](static_cast<int>(state.range(1)));
    for (auto _ : state) {
        auto g = original->clone();
        benchmark::DoNotOptimize(g->toposort().size());
    }
    state.SetLabel(kNames[kind]);
    state.counters["nodes"] = static_cast<double>(original->numNodes());
}
} // namespace

BENCHMARK(BM_Pipeline)->ArgsProduct({{0, 1, 2}, {1000, 10000}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BaselineCloneAndWalk)->ArgsProduct({{0, 1, 2}, {1000, 10000}})->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
