// Moving between adjacent steps of a rewrite trace on a 10,000-node graph, against
// the naive way of getting the next graph (copying the whole graph) in the same run.
#include "trace/TraceReplayer.h"
#include "builder/Generators.h"
#include "rewrite/Pipeline.h"

#include <benchmark/benchmark.h>

using namespace tl;

namespace {
struct Fixture {
    Trace trace;
    Fixture() {
        auto g = generateMixed(10000);
        PipelineOptions opts;
        opts.validate = false;
        trace = rewriteWithTrace(*g, opts);
    }
};
Fixture& fixture() {
    static Fixture f;
    return f;
}

void BM_StepForwardAndBack(benchmark::State& state) {
    Fixture& f = fixture();
    TraceReplayer replay(f.trace);
    const int n = static_cast<int>(f.trace.size());
    const int mid = n / 2;
    replay.graphAt(mid);
    bool forward = true;
    for (auto _ : state) {
        benchmark::DoNotOptimize(replay.graphAt(forward ? mid + 1 : mid).numNodes());
        forward = !forward;
    }
    state.counters["steps"] = n;
    state.counters["nodes"] = static_cast<double>(f.trace.original().numNodes());
}

void BM_JumpToRandomStep(benchmark::State& state) {
    Fixture& f = fixture();
    TraceReplayer replay(f.trace);
    const int n = static_cast<int>(f.trace.size());
    uint64_t x = 12345;
    for (auto _ : state) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        benchmark::DoNotOptimize(replay.graphAt(static_cast<int>((x >> 33) % (n + 1))).numNodes());
    }
}

void BM_BaselineCopyWholeGraph(benchmark::State& state) {
    Fixture& f = fixture();
    for (auto _ : state) benchmark::DoNotOptimize(f.trace.original().clone()->numNodes());
}
} // namespace

BENCHMARK(BM_StepForwardAndBack)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_JumpToRandomStep)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BaselineCopyWholeGraph)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
