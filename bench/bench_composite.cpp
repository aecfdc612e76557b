// The fused elementwise kernel against hand-written C++ loops of the same
// expression, 2*exp(x) + tanh(y) - x*y on 10M float64, in the same run and with
// the same compiler flags: the plain loop over the C library's exp and tanh, and
// the loop over SLEEF's exp and tanh that the vectorised kernel is measured
// against, at the width the kernel's own SLEEF calls have on this CPU
// (vmath::isaName: 8 lanes with AVX-512F, 4 with AVX; hand/SleefHandLoops.h), and
// at 4 lanes for comparison with machines without AVX-512. BM_Ratio reports, best
// of its iterations: the composite on one thread / the SLEEF loop (`ratio`), on
// every pool thread / one thread (`threads_ratio`), / the SLEEF loop
// (`threads_vs_sleef`) and / the SLEEF loop split in one contiguous piece per pool
// thread (`threads_vs_sleef_threads`: what both cores give the hand loop, the
// machine's own limit for this expression); docs/performance.md records them.
#include "builder/Math.h"
#include "core/ThreadPool.h"
#include "exec/ExecContext.h"
#include "hand/SleefHandLoops.h"
#include "ops/Elemwise.h"
#include "ops/VectorMath.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

using namespace tl;

namespace {

constexpr int64_t kN = 10'000'000;

struct Data {
    NDArray x = NDArray::empty(DType::Float64, {kN});
    NDArray y = NDArray::empty(DType::Float64, {kN});
    OpPtr op;
    Data() {
        double* px = x.data<double>();
        double* py = y.data<double>();
        for (int64_t i = 0; i < kN; ++i) {
            px[i] = -1.0 + 2.0 * static_cast<double>(i % 1000) / 1000.0;
            py[i] = 0.5 - static_cast<double>(i % 777) / 777.0;
        }
        GraphBuilder b;
        Var i0 = b.placeholder(Type::scalar(DType::Float64)), i1 = b.placeholder(Type::scalar(DType::Float64));
        op = makeCompositeElemwise(*b.finish({2 * exp(i0) + tanh(i1) - i0 * i1}));
    }
};

Data& data() {
    static Data d;
    return d;
}

// The baseline: what a C++ programmer writes for this expression.
void handLoop(const double* x, const double* y, double* out, int64_t n) {
    for (int64_t i = 0; i < n; ++i) out[i] = 2.0 * std::exp(x[i]) + std::tanh(y[i]) - x[i] * y[i];
}

// The same with SLEEF's functions at the width the kernel uses.
void sleefHandLoop(const double* x, const double* y, double* out, int64_t n) {
    bench::sleefComposite(vmath::isaName(), x, y, out, n);
}

// The SLEEF loop on every pool thread, one contiguous piece each (pieces of whole
// cache lines): how far both cores take the hand loop on this machine.
void sleefHandLoopOnThreads(const double* x, const double* y, double* out, int64_t n) {
    const int64_t pieces = ThreadPool::instance().threads();
    const int64_t piece = (n / pieces + 7) / 8 * 8;
    ThreadPool::instance().parallelFor(pieces, [&](int64_t k) {
        const int64_t begin = std::min(n, k * piece), end = std::min(n, begin + piece);
        sleefHandLoop(x + begin, y + begin, out + begin, end - begin);
    });
}

/// Sets the pool's thread count for a scope.
class Threads {
public:
    explicit Threads(int n) : m_previous(ThreadPool::instance().setThreads(n)) {}
    ~Threads() { ThreadPool::instance().setThreads(m_previous); }

private:
    int m_previous;
};

void runComposite(ExecContext& ctx, std::vector<NDArray>& outs) {
    const NDArray ins[] = {data().x, data().y};
    data().op->perform(ins, outs);  // the output cell is reused after the first call
}

void BM_HandLoop(benchmark::State& state) {
    NDArray out = NDArray::empty(DType::Float64, {kN});
    for (auto _ : state) {
        handLoop(data().x.data<double>(), data().y.data<double>(), out.data<double>(), kN);
        benchmark::DoNotOptimize(out.data<double>());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * kN);
}

void BM_SleefHandLoop(benchmark::State& state) {
    NDArray out = NDArray::empty(DType::Float64, {kN});
    for (auto _ : state) {
        sleefHandLoop(data().x.data<double>(), data().y.data<double>(), out.data<double>(), kN);
        benchmark::DoNotOptimize(out.data<double>());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * kN);
}

// Argument: threads (0: the pool's default, one per core).
void BM_CompositeElemwise(benchmark::State& state) {
    Threads threads(state.range(0) ? static_cast<int>(state.range(0)) : ThreadPool::defaultThreads());
    ExecContext ctx;
    std::vector<NDArray> outs(1);
    for (auto _ : state) {
        runComposite(ctx, outs);
        benchmark::DoNotOptimize(outs[0].data<double>());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * kN);
}

void BM_Copy(benchmark::State& state) {
    NDArray out = NDArray::empty(DType::Float64, {kN});
    for (auto _ : state) {
        std::memcpy(out.data<double>(), data().x.data<double>(), kN * sizeof(double));
        benchmark::ClobberMemory();
    }
}

// All four in every iteration, alternating, so machine noise hits them alike.
void BM_Ratio(benchmark::State& state) {
    using Clock = std::chrono::steady_clock;
    using Ms = std::chrono::duration<double, std::milli>;
    ExecContext ctx;
    std::vector<NDArray> one(1), all(1);
    NDArray hand = NDArray::empty(DType::Float64, {kN}), sleef = NDArray::empty(DType::Float64, {kN}),
            sleef4 = NDArray::empty(DType::Float64, {kN}), sleefAll = NDArray::empty(DType::Float64, {kN});
    double bestOne = 1e30, bestAll = 1e30, bestHand = 1e30, bestSleef = 1e30, bestSleef4 = 1e30, bestSleefAll = 1e30;
    const bool wide = std::strcmp(vmath::isaName(), "avx512") == 0;
    const int cores = ThreadPool::defaultThreads();
    Threads restore(cores);
    for (auto _ : state) {
        ThreadPool::instance().setThreads(1);
        auto t0 = Clock::now();
        runComposite(ctx, one);
        auto t1 = Clock::now();
        ThreadPool::instance().setThreads(cores);
        auto t2 = Clock::now();
        runComposite(ctx, all);
        auto t3 = Clock::now();
        handLoop(data().x.data<double>(), data().y.data<double>(), hand.data<double>(), kN);
        auto t4 = Clock::now();
        sleefHandLoop(data().x.data<double>(), data().y.data<double>(), sleef.data<double>(), kN);
        auto t5 = Clock::now();
        if (wide) bench::sleefComposite("avx", data().x.data<double>(), data().y.data<double>(), sleef4.data<double>(), kN);
        auto t6 = Clock::now();
        sleefHandLoopOnThreads(data().x.data<double>(), data().y.data<double>(), sleefAll.data<double>(), kN);
        auto t7 = Clock::now();
        benchmark::ClobberMemory();
        bestSleefAll = std::min(bestSleefAll, Ms(t7 - t6).count());
        bestSleef4 = std::min(bestSleef4, Ms(t6 - t5).count());
        bestOne = std::min(bestOne, Ms(t1 - t0).count());
        bestAll = std::min(bestAll, Ms(t3 - t2).count());
        bestHand = std::min(bestHand, Ms(t4 - t3).count());
        bestSleef = std::min(bestSleef, Ms(t5 - t4).count());
    }
    if (std::memcmp(one[0].data<double>(), all[0].data<double>(), kN * sizeof(double)) != 0)
        state.SkipWithError("one thread and all threads disagree");
    // SLEEF and the C library differ by at most a few ULP per function.
    double worst = 0;
    for (int64_t i = 0; i < kN; ++i) {
        const double h = hand.data<double>()[i];
        worst = std::max(worst, std::fabs(one[0].data<double>()[i] - h) / std::max(1.0, std::fabs(h)));
    }
    if (worst > 1e-14) state.SkipWithError("the composite and the hand loop disagree");
    if (std::memcmp(sleef.data<double>(), sleefAll.data<double>(), kN * sizeof(double)) != 0)
        state.SkipWithError("the SLEEF loop on one thread and on every thread disagree");
    state.counters["one_thread_ms"] = bestOne;
    state.counters["threads_ms"] = bestAll;
    state.counters["threads"] = cores;
    state.counters["libm_hand_ms"] = bestHand;
    state.counters["sleef_hand_ms"] = bestSleef;
    state.counters["sleef_lanes"] = wide ? 8 : std::strcmp(vmath::isaName(), "avx") == 0 ? 4 : 2;
    if (wide) state.counters["sleef4_hand_ms"] = bestSleef4;
    state.counters["ratio"] = bestOne / bestSleef;
    state.counters["threads_ratio"] = bestAll / bestOne;
    state.counters["threads_vs_sleef"] = bestAll / bestSleef;
    state.counters["sleef_hand_threads_ms"] = bestSleefAll;
    state.counters["threads_vs_sleef_threads"] = bestAll / bestSleefAll;
    state.counters["bit_identical_to_sleef_loop"] =
        std::memcmp(one[0].data<double>(), sleef.data<double>(), kN * sizeof(double)) == 0 ? 1 : 0;
}

// Per-call overhead on a Scan-step sized input: the seed's fused step
// {exp(x) - 5, exp(x) * dx} on 7 elements, output cells reused.
void BM_SmallComposite7(benchmark::State& state) {
    GraphBuilder b;
    Var i0 = b.placeholder(Type::scalar(DType::Float64)), i1 = b.placeholder(Type::scalar(DType::Float64));
    Var e = exp(i0);
    OpPtr op = makeCompositeElemwise(*b.finish({e - b.scalarConstant(5.0, DType::Float64), e * i1}));
    const NDArray ins[] = {NDArray::fromVector(DType::Float64, {7}, {-0.3, -0.2, -0.1, 0, 0.1, 0.2, 0.3}),
                           NDArray::fromVector(DType::Float64, {7}, {1, 1, 1, 1, 1, 1, 1})};
    ExecContext ctx;
    std::vector<NDArray> outs(2);
    for (auto _ : state) {
        op->perform(ins, outs);
        benchmark::DoNotOptimize(outs[0].data<double>());
    }
}

void BM_SmallHand7(benchmark::State& state) {
    const double x[7] = {-0.3, -0.2, -0.1, 0, 0.1, 0.2, 0.3}, dx[7] = {1, 1, 1, 1, 1, 1, 1};
    double o0[7], o1[7];
    for (auto _ : state) {
        benchmark::DoNotOptimize(x);
        for (int i = 0; i < 7; ++i) {
            const double e = std::exp(x[i]);
            o0[i] = e - 5.0;
            o1[i] = e * dx[i];
        }
        benchmark::DoNotOptimize(o0);
        benchmark::DoNotOptimize(o1);
    }
}

} // namespace

BENCHMARK(BM_SmallComposite7);
BENCHMARK(BM_SmallHand7);
BENCHMARK(BM_HandLoop)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SleefHandLoop)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompositeElemwise)->Unit(benchmark::kMillisecond)->Arg(1)->Arg(0)->UseRealTime();
BENCHMARK(BM_Copy)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Ratio)->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK_MAIN();
