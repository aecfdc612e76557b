// The fused reduction sum((x - y)**2, axis=1) on 10M float64 (1000 rows of 10,000)
// against a hand-written loop of the same expression, in the same run with the
// same compiler flags. The graph is built with the builder and rewritten by the
// fusion phase (elemwise_fusion, local_careduce_fusion), so what runs is the one
// CAReduce{Composite{(i0 + sqr((i1 - i2)))}, axis=1} node the pipeline produces;
// the unfused Sum of a Composite is measured beside it. BM_Ratio reports fused on
// one thread / hand (best of its iterations) as `ratio` and fused on every pool
// thread / hand as `threads_vs_hand`; docs/performance.md records them.
//
// Second: the full reduction sum(exp(x) * y) of 10M float64, one
// CAReduce{Composite{(i0 + (exp(i1) * i2))}} after the same phase, against the
// hand loop sleefSumExpTimes (SLEEF's exp at the width the kernel's own calls have
// on this CPU, product and sum in two vector accumulators, the remainder in scalar
// code; hand/SleefHandLoops.h) on one thread, and with every pool thread;
// BM_SumExpRatio reports both ratios and checks that 1 and 2 threads give the same bits.
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "core/ThreadPool.h"
#include "exec/Executor.h"
#include "hand/SleefHandLoops.h"
#include "ops/Reduce.h"
#include "ops/VectorMath.h"
#include "rewrite/EquilibriumDriver.h"
#include "rewrite/Pipeline.h"
#include "rewrite/Rewrites.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstring>

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
    using Ms = std::chrono::duration<double, std::milli>;
    const int cores = ThreadPool::defaultThreads();
    const int previous = ThreadPool::instance().setThreads(cores);
    std::vector<NDArray> one(1), all(1);
    NDArray hand = NDArray::empty(DType::Float64, {kRows});
    double bestOne = 1e30, bestAll = 1e30, bestHand = 1e30;
    for (auto _ : state) {
        ThreadPool::instance().setThreads(1);
        auto t0 = Clock::now();
        runFused(one);
        auto t1 = Clock::now();
        ThreadPool::instance().setThreads(cores);
        auto t2 = Clock::now();
        runFused(all);
        auto t3 = Clock::now();
        handLoop(data().x.data<double>(), data().y.data<double>(), hand.data<double>());
        auto t4 = Clock::now();
        benchmark::ClobberMemory();
        bestOne = std::min(bestOne, Ms(t1 - t0).count());
        bestAll = std::min(bestAll, Ms(t3 - t2).count());
        bestHand = std::min(bestHand, Ms(t4 - t3).count());
    }
    ThreadPool::instance().setThreads(previous);
    // Rows go to threads whole, so every thread count gives the same bits; the fused
    // kernel sums in several lanes, so it agrees with the hand loop up to rounding.
    if (std::memcmp(one[0].rawData(), all[0].rawData(), kRows * sizeof(double)) != 0)
        state.SkipWithError("1 thread and all threads give different sums");
    for (int64_t r = 0; r < kRows; ++r)
        if (std::fabs(one[0].data<double>()[r] - hand.data<double>()[r]) > 1e-12 * std::fabs(hand.data<double>()[r]))
            state.SkipWithError("the fused reduction and the hand loop disagree");
    state.counters["one_thread_ms"] = bestOne;
    state.counters["threads_ms"] = bestAll;
    state.counters["threads"] = cores;
    state.counters["hand_ms"] = bestHand;
    state.counters["ratio"] = bestOne / bestHand;
    state.counters["threads_vs_hand"] = bestAll / bestHand;
}

} // namespace

namespace {

// ---- sum(exp(x) * y) over one row of 10M ---------------------------------

constexpr int64_t kN = kRows * kCols;

struct SumData {
    NDArray x = NDArray::empty(DType::Float64, {kN});
    NDArray y = NDArray::empty(DType::Float64, {kN});
    std::unique_ptr<Graph> graph;
    const Node* fused = nullptr;
    SumData() {
        double* px = x.data<double>();
        double* py = y.data<double>();
        for (int64_t i = 0; i < kN; ++i) {
            px[i] = -1.0 + 2.0 * static_cast<double>(i % 1000) / 1000.0;
            py[i] = 0.5 - static_cast<double>(i % 777) / 777.0;
        }
        GraphBuilder b;
        Var vx = b.input("x", DType::Float64, {kN}), vy = b.input("y", DType::Float64, {kN});
        graph = b.finish({sum(exp(vx) * vy)});
        std::vector<std::unique_ptr<GraphPass>> passes;
        passes.push_back(makeElemwiseFusion());
        passes.push_back(std::make_unique<EquilibriumDriver>("local_careduce_fusion", std::vector<std::string>{"fast_run"},
                                                             std::vector<const NodeRewrite*>{&localCareduceFusion()}));
        Pipeline p;
        p.addPhase("fusion", std::move(passes));
        PipelineOptions o;
        o.validate = false;
        p.run(*graph, o);
        fused = Data::reduction(*graph);
    }
};

SumData& sumData() {
    static SumData d;
    return d;
}

// The hand loop: SLEEF's exp at the width the kernel uses, two vector accumulators.
double sleefSumExpTimes(const double* x, const double* y, int64_t n) {
    return bench::sleefSumExpTimes(vmath::isaName(), x, y, n);
}

// The plain C++ loop: one accumulator, the C library's exp.
double libmSumExpTimes(const double* x, const double* y, int64_t n) {
    double s = 0;
    for (int64_t i = 0; i < n; ++i) s += std::exp(x[i]) * y[i];
    return s;
}

void runSum(std::vector<NDArray>& outs) {
    const NDArray ins[] = {sumData().x, sumData().y};
    sumData().fused->op().perform(ins, outs);
}

// Argument: threads (0: the pool's default, one per core).
void BM_SumExpFused(benchmark::State& state) {
    const int previous = ThreadPool::instance().setThreads(state.range(0) ? static_cast<int>(state.range(0)) : ThreadPool::defaultThreads());
    std::vector<NDArray> outs(1);
    for (auto _ : state) {
        runSum(outs);
        benchmark::DoNotOptimize(outs[0].data<double>());
    }
    ThreadPool::instance().setThreads(previous);
    state.SetItemsProcessed(state.iterations() * kN);
    state.SetLabel(sumData().fused->op().name());
}

void BM_SumExpSleefHand(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(sleefSumExpTimes(sumData().x.data<double>(), sumData().y.data<double>(), kN));
    state.SetItemsProcessed(state.iterations() * kN);
}

void BM_SumExpLibmHand(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(libmSumExpTimes(sumData().x.data<double>(), sumData().y.data<double>(), kN));
    state.SetItemsProcessed(state.iterations() * kN);
}

void BM_SumExpRatio(benchmark::State& state) {
    using Clock = std::chrono::steady_clock;
    using Ms = std::chrono::duration<double, std::milli>;
    const int cores = ThreadPool::defaultThreads();
    const int previous = ThreadPool::instance().setThreads(cores);
    std::vector<NDArray> one(1), all(1);
    double bestOne = 1e30, bestAll = 1e30, bestSleef = 1e30, bestLibm = 1e30, sleef = 0, libm = 0;
    for (auto _ : state) {
        ThreadPool::instance().setThreads(1);
        auto t0 = Clock::now();
        runSum(one);
        auto t1 = Clock::now();
        ThreadPool::instance().setThreads(cores);
        auto t2 = Clock::now();
        runSum(all);
        auto t3 = Clock::now();
        sleef = sleefSumExpTimes(sumData().x.data<double>(), sumData().y.data<double>(), kN);
        auto t4 = Clock::now();
        libm = libmSumExpTimes(sumData().x.data<double>(), sumData().y.data<double>(), kN);
        auto t5 = Clock::now();
        bestOne = std::min(bestOne, Ms(t1 - t0).count());
        bestAll = std::min(bestAll, Ms(t3 - t2).count());
        bestSleef = std::min(bestSleef, Ms(t4 - t3).count());
        bestLibm = std::min(bestLibm, Ms(t5 - t4).count());
    }
    ThreadPool::instance().setThreads(previous);
    const double a = one[0].data<double>()[0], b = all[0].data<double>()[0];
    if (std::memcmp(&a, &b, sizeof a) != 0) state.SkipWithError("1 thread and all threads give different sums");
    if (std::fabs(a - libm) > 1e-9 * std::fabs(libm) || std::fabs(a - sleef) > 1e-9 * std::fabs(libm))
        state.SkipWithError("the fused reduction and the hand loops disagree");
    state.counters["one_thread_ms"] = bestOne;
    state.counters["threads_ms"] = bestAll;
    state.counters["threads"] = cores;
    state.counters["sleef_hand_ms"] = bestSleef;
    state.counters["libm_hand_ms"] = bestLibm;
    state.counters["ratio"] = bestOne / bestSleef;
    state.counters["threads_vs_sleef"] = bestAll / bestSleef;
    state.counters["threads_ratio"] = bestAll / bestOne;
}

} // namespace

BENCHMARK(BM_SumExpFused)->Unit(benchmark::kMillisecond)->Arg(1)->Arg(0)->UseRealTime();
BENCHMARK(BM_SumExpSleefHand)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SumExpLibmHand)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SumExpRatio)->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK(BM_HandLoop)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FusedReduction)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_UnfusedGraph)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Ratio)->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK_MAIN();
