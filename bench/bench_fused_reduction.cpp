// The fused reduction sum((x - y)**2, axis=1) on 10M float64 (1000 rows of 10,000)
// against a hand-written loop of the same expression, in the same run with the
// same compiler flags. The graph is built with the builder and rewritten by the
// fusion phase (elemwise_fusion, local_careduce_fusion), so what runs is the one
// CAReduce{Composite{(i0 + sqr((i1 - i2)))}, axis=1} node the pipeline produces;
// the unfused Sum of a Composite is measured beside it. BM_Ratio reports fused /
// hand (best of its iterations) as the counter `ratio`; docs/performance.md records it.
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "exec/Executor.h"
#include "ops/Reduce.h"
#include "rewrite/EquilibriumDriver.h"
#include "rewrite/Pipeline.h"
#include "rewrite/Rewrites.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>

using namespace tl;

namespace {

constexpr int64_t kRows = 1000, kCols = 10'000;

struct Data {
    NDArray x = NDArray::empty(DType::Float64, {kRows, kCols});
    NDArray y = NDArray::empty(DType::Float64, {kRows, kCols});
    const Node* fused = nullptr;    // the CAReduce{Composite} after the fusion phase
    const Node* unfused = nullptr;  // Sum{axis=1} of the Composite, before local_careduce_fusion
    std::unique_ptr<Graph> fusedGraph, unfusedGraph;
    Data() {
        double* px = x.data<double>();
        double* py = y.data<double>();
        for (int64_t i = 0; i < kRows * kCols; ++i) {
            px[i] = -1.0 + 2.0 * static_cast<double>(i % 1000) / 1000.0;
            py[i] = 0.5 - static_cast<double>(i % 777) / 777.0;
        }
        fusedGraph = build(true);
        unfusedGraph = build(false);
        fused = reduction(*fusedGraph);
        unfused = reduction(*unfusedGraph);
    }
    static std::unique_ptr<Graph> build(bool fuseReduction) {
        GraphBuilder b;
        Var vx = b.input("x", DType::Float64, {kRows, kCols}), vy = b.input("y", DType::Float64, {kRows, kCols});
        auto g = b.finish({sum(pow(vx - vy, 2), std::vector<int>{1})});
        std::vector<std::unique_ptr<GraphPass>> passes;
        passes.push_back(makeSpecializeDriver());  // x ** 2 -> sqr(x), as FAST_RUN does before fusion
        passes.push_back(makeElemwiseFusion());
        if (fuseReduction)
            passes.push_back(std::make_unique<EquilibriumDriver>("local_careduce_fusion", std::vector<std::string>{"fast_run"},
                                                                 std::vector<const NodeRewrite*>{&localCareduceFusion()}));
        Pipeline p;
        p.addPhase("fusion", std::move(passes));
        PipelineOptions o;
        o.validate = false;
        p.run(*g, o);
        return g;
    }
    static const Node* reduction(const Graph& g) {
        for (const Node* n : g.toposort())
            if (n->op().kind() == OpKind::Reduce) return n;
        return nullptr;
    }
};

Data& data() {
    static Data d;
    return d;
}

// The baseline: what a C++ programmer writes for this expression.
void handLoop(const double* x, const double* y, double* out) {
    for (int64_t r = 0; r < kRows; ++r) {
        double acc = 0.0;
        const double* xr = x + r * kCols;
        const double* yr = y + r * kCols;
        for (int64_t c = 0; c < kCols; ++c) {
            const double d = xr[c] - yr[c];
            acc += d * d;
        }
        out[r] = acc;
    }
}

void runFused(std::vector<NDArray>& outs) {
    const NDArray ins[] = {data().x, data().y};
    data().fused->op().perform(ins, outs);  // the output cell is reused after the first call
}

void BM_HandLoop(benchmark::State& state) {
    NDArray out = NDArray::empty(DType::Float64, {kRows});
    for (auto _ : state) {
        handLoop(data().x.data<double>(), data().y.data<double>(), out.data<double>());
        benchmark::DoNotOptimize(out.data<double>());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * kRows * kCols);
}

void BM_FusedReduction(benchmark::State& state) {
    std::vector<NDArray> outs(1);
    for (auto _ : state) {
        runFused(outs);
        benchmark::DoNotOptimize(outs[0].data<double>());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * kRows * kCols);
    state.SetLabel(data().fused->op().name());
}

// The graph before local_careduce_fusion: the Composite writes 80 MB that the Sum reads back.
void BM_UnfusedGraph(benchmark::State& state) {
    const std::vector<NDArray> ins = {data().x, data().y};
    for (auto _ : state) {
        RunResult r = runGraph(*data().unfusedGraph, ins);
        benchmark::DoNotOptimize(r.outputs[0].data<double>());
    }
    state.SetLabel(data().unfused->op().name() + " of " + data().unfused->input(0)->owner()->op().name());
}

// Both in every iteration, alternating, so machine noise hits them alike.
void BM_Ratio(benchmark::State& state) {
    using Clock = std::chrono::steady_clock;
    std::vector<NDArray> outs(1);
    NDArray hand = NDArray::empty(DType::Float64, {kRows});
    double bestFused = 1e30, bestHand = 1e30;
    for (auto _ : state) {
        auto t0 = Clock::now();
        runFused(outs);
        auto t1 = Clock::now();
        handLoop(data().x.data<double>(), data().y.data<double>(), hand.data<double>());
        auto t2 = Clock::now();
        benchmark::ClobberMemory();
        bestFused = std::min(bestFused, std::chrono::duration<double, std::milli>(t1 - t0).count());
        bestHand = std::min(bestHand, std::chrono::duration<double, std::milli>(t2 - t1).count());
    }
    // The fused kernel sums in several lanes: the same sums up to rounding.
    for (int64_t r = 0; r < kRows; ++r)
        if (std::fabs(outs[0].data<double>()[r] - hand.data<double>()[r]) > 1e-12 * std::fabs(hand.data<double>()[r]))
            state.SkipWithError("the fused reduction and the hand loop disagree");
    state.counters["fused_ms"] = bestFused;
    state.counters["hand_ms"] = bestHand;
    state.counters["ratio"] = bestFused / bestHand;
}

} // namespace

BENCHMARK(BM_HandLoop)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FusedReduction)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_UnfusedGraph)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Ratio)->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK_MAIN();
