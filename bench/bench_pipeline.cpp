// The whole FAST_RUN-like pipeline on generated graphs of about 1,000, 10,000 and
// 50,000 nodes. Baseline in the same run: cloning the graph and walking it in
// topological order once (the least any pass must do); the ratio shows how many
// "walks" the pipeline costs. BM_Growth runs the pipeline on the 10k and the 50k
// graph of one family in the same run and reports the growth exponent
// log(t50k / t10k) / log(5) in CPU time: 1 is linear, 2 quadratic; the same
// exponent for the clone+walk baseline, and the pipeline's cost in baseline walks.
// It also reads a graph that is already built (no allocation) once at each size:
// `read_ratio` is what the memory hierarchy alone does to a walk that reads what
// every pass reads, and `ratio_over_read` the pipeline's growth beyond it.
#include "builder/Generators.h"
#include "rewrite/Pipeline.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include <time.h>

using namespace tl;

namespace {
using Generator = std::function<std::unique_ptr<Graph>(int)>;

// Each family is asked for about `n` nodes: a generated one-line loop is ~6 outer
// nodes; a loop whose step is a chain of 29 ops is ~78 nodes counting its body (the
// ops' constants are nodes too), so 5,000 nodes are 64 loops.
constexpr int kBodyOps = 29, kNodesPerBodyLoop = 78;
const Generator kGenerators[] = {
    [](int n) { return generateElemwiseChain(n); },
    [](int n) { return generateIndependentScans(n / 6); },
    [](int n) { return generateDuplicatedSubexpressions(n); },
    [](int n) { return generateScansWithBodies(n / kNodesPerBodyLoop, kBodyOps); },
};
const char* const kNames[] = {"elemwise_chain", "independent_scans", "duplicated_subexpressions", "scans_with_bodies"};

PipelineOptions benchOptions() {
    PipelineOptions opts;
    opts.validate = false;  // validation is a test-time check, not part of the user's wait
    return opts;
}

void BM_Pipeline(benchmark::State& state) {
    const int kind = static_cast<int>(state.range(0));
    const int nodes = static_cast<int>(state.range(1));
    auto original = kGenerators[kind](nodes);
    const Pipeline pipeline = Pipeline::fastRun();
    const PipelineOptions opts = benchOptions();
    for (auto _ : state) {
        state.PauseTiming();
        auto g = original->clone();
        state.ResumeTiming();
        pipeline.run(*g, opts);
        benchmark::DoNotOptimize(g->numNodes());
    }
    state.SetLabel(kNames[kind]);
    state.counters["nodes"] = static_cast<double>(original->numNodes());
    state.counters["nodes_with_bodies"] = static_cast<double>(countNodesWithInnerGraphs(*original));
    state.counters["us_per_node"] = benchmark::Counter(static_cast<double>(original->numNodes()),
                                                       benchmark::Counter::kIsIterationInvariantRate |
                                                           benchmark::Counter::kInvert);
}

// CPU time of this thread: on a machine shared with builds, wall time mostly
// measures the others' load, and a long run suffers more of it than a short one.
double threadSeconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Best CPU time of one pipeline run on a fresh clone of `original`.
double bestRunSeconds(const Graph& original, const Pipeline& pipeline, int repeats) {
    const PipelineOptions opts = benchOptions();
    double best = 1e30;
    for (int r = 0; r < repeats; ++r) {
        auto g = original.clone();
        const double start = threadSeconds();
        pipeline.run(*g, opts);
        best = std::min(best, threadSeconds() - start);
        benchmark::DoNotOptimize(g->numNodes());
    }
    return best;
}

// Best CPU time of the baseline: a clone of `original` and one walk in topological order.
double bestBaselineSeconds(const Graph& original, int repeats) {
    double best = 1e30;
    for (int r = 0; r < repeats; ++r) {
        const double start = threadSeconds();
        auto g = original.clone();
        benchmark::DoNotOptimize(g->toposort().size());
        best = std::min(best, threadSeconds() - start);
    }
    return best;
}

// One pipeline run on one clone, for instruction counts under callgrind
// (bench/pipeline_instructions.sh): the work, without the caches' share of the time.
void BM_PipelineOnce(benchmark::State& state) {
    const int kind = static_cast<int>(state.range(0));
    auto original = kGenerators[kind](static_cast<int>(state.range(1)));
    const Pipeline pipeline = Pipeline::fastRun();
    for (auto _ : state) {
        auto g = original->clone();
        pipeline.run(*g, benchOptions());
        benchmark::DoNotOptimize(g->numNodes());
    }
    state.SetLabel(kNames[kind]);
}

// Best CPU time of reading a clone of `original` (laid out as the pipeline's input
// is) once in topological order: each node's op, its inputs' types and producers,
// its outputs' readers; no allocation, warm caches.
double bestReadSeconds(const Graph& original, int repeats) {
    const auto g = original.clone();
    const std::vector<Node*>& order = g->toposort();
    double best = 1e30;
    for (int r = 0; r < repeats; ++r) {
        const double start = threadSeconds();
        size_t seen = 0;
        for (const Node* node : order) {
            seen += node->op().cachedHash();
            for (const Variable* in : node->inputs())
                seen += in->type().shape.size() + static_cast<size_t>(in->type().dtype) + (in->owner() != nullptr);
            for (const Variable* out : node->outputs()) seen += out->clients().size();
        }
        benchmark::DoNotOptimize(seen);
        best = std::min(best, threadSeconds() - start);
    }
    return best;
}

void BM_Growth(benchmark::State& state) {
    const int kind = static_cast<int>(state.range(0));
    auto small = kGenerators[kind](10000);
    auto large = kGenerators[kind](50000);
    const Pipeline pipeline = Pipeline::fastRun();
    double t10 = 0, t50 = 0, b10 = 0, b50 = 0, r10 = 0, r50 = 0;
    for (auto _ : state) {
        // The two sizes take turns: a shared VM runs a process at full speed or at half
        // for seconds at a time (a neighbour on the host), and the ratio is only
        // meaningful when both sizes had the same chances at the fast phases.
        t10 = t50 = 1e30;
        for (int turn = 0; turn < 3; ++turn) {
            t10 = std::min(t10, bestRunSeconds(*small, pipeline, 1));
            t50 = std::min(t50, bestRunSeconds(*large, pipeline, 1));
        }
        b10 = bestBaselineSeconds(*small, 3);
        b50 = bestBaselineSeconds(*large, 2);
        r10 = bestReadSeconds(*small, 7);
        r50 = bestReadSeconds(*large, 7);
        state.SetIterationTime(t10 + t50);
    }
    state.SetLabel(kNames[kind]);
    const double nodeRatio = static_cast<double>(large->numNodes()) / static_cast<double>(small->numNodes());
    state.counters["ms_10k"] = t10 * 1e3;
    state.counters["ms_50k"] = t50 * 1e3;
    state.counters["time_ratio"] = t50 / t10;
    state.counters["node_ratio"] = nodeRatio;
    state.counters["growth_exponent"] = std::log(t50 / t10) / std::log(nodeRatio);
    // The same for clone + one walk: what the memory hierarchy alone does to a linear walk.
    state.counters["baseline_exponent"] = std::log(b50 / b10) / std::log(nodeRatio);
    state.counters["walks_10k"] = t10 / b10;
    state.counters["walks_50k"] = t50 / b50;
    state.counters["read_us_10k"] = r10 * 1e6;
    state.counters["read_us_50k"] = r50 * 1e6;
    state.counters["read_ratio"] = r50 / r10;
    state.counters["ratio_over_read"] = (t50 / t10) / (r50 / r10);
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

BENCHMARK(BM_Pipeline)->ArgsProduct({{0, 1, 2, 3}, {1000, 10000, 50000}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Pipeline)->Args({3, 5000})->Unit(benchmark::kMillisecond);  // 5,000 nodes in 64 loops
BENCHMARK(BM_BaselineCloneAndWalk)->ArgsProduct({{0, 1, 2, 3}, {1000, 10000, 50000}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BaselineCloneAndWalk)->Args({3, 5000})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PipelineOnce)->ArgsProduct({{0, 1, 2, 3}, {10000, 50000}})->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Growth)->DenseRange(0, 3)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
