// The merge pass alone (phase merge) and the canonicalize driver alone on generated
// graphs of 1,000 and 10,000 nodes, against cloning the graph and walking it once
// in the same run: the ratio shows the passes stay a small multiple of one walk
// (linear), whatever the size. docs/performance.md records the figures.
#include "builder/Generators.h"
#include "rewrite/Rewrites.h"

#include <benchmark/benchmark.h>

#include <functional>

using namespace tl;

namespace {
using Generator = std::function<std::unique_ptr<Graph>(int)>;
const Generator kGenerators[] = {
    [](int n) { return generateDuplicatedSubexpressions(n); },
    [](int n) { return generateElemwiseChain(n); },
};
const char* const kNames[] = {"duplicated_subexpressions", "elemwise_chain"};

template <typename MakePass> void runPass(benchmark::State& state, MakePass make) {
    const int kind = static_cast<int>(state.range(0));
    auto original = kGenerators[kind](static_cast<int>(state.range(1)));
    RewriteOptions opts;
    for (auto _ : state) {
        state.PauseTiming();
        auto g = original->clone();
        auto pass = make();
        state.ResumeTiming();
        Rewriter rewriter(*g);
        pass->run(rewriter, opts);
        benchmark::DoNotOptimize(g->numNodes());
    }
    state.SetLabel(kNames[kind]);
    state.counters["nodes"] = static_cast<double>(original->numNodes());
}

void BM_Merge(benchmark::State& state) { runPass(state, [] { return makeMergePass(); }); }
void BM_Canonicalize(benchmark::State& state) { runPass(state, [] { return makeCanonicalizeDriver(); }); }

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

BENCHMARK(BM_Merge)->ArgsProduct({{0, 1}, {1000, 10000}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Canonicalize)->ArgsProduct({{0, 1}, {1000, 10000}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BaselineCloneAndWalk)->ArgsProduct({{0, 1}, {1000, 10000}})->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
