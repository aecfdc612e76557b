// The fused elementwise kernel against a hand-written C++ loop of the same
// expression, 2*exp(x) + tanh(y) - x*y on 10M float64, in the same run and with
// the same compiler flags. BM_Ratio reports composite / hand (best of its
// iterations) as the counter `ratio`; docs/performance.md records it.
#include "builder/Math.h"
#include "exec/ExecContext.h"
#include "ops/Elemwise.h"

#include <benchmark/benchmark.h>

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

void BM_CompositeElemwise(benchmark::State& state) {
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

// Both in every iteration, alternating, so machine noise hits them alike.
void BM_Ratio(benchmark::State& state) {
    using Clock = std::chrono::steady_clock;
    ExecContext ctx;
    std::vector<NDArray> outs(1);
    NDArray hand = NDArray::empty(DType::Float64, {kN});
    double bestComposite = 1e30, bestHand = 1e30;
    for (auto _ : state) {
        auto t0 = Clock::now();
        runComposite(ctx, outs);
        auto t1 = Clock::now();
        handLoop(data().x.data<double>(), data().y.data<double>(), hand.data<double>(), kN);
        auto t2 = Clock::now();
        benchmark::ClobberMemory();
        bestComposite = std::min(bestComposite, std::chrono::duration<double, std::milli>(t1 - t0).count());
        bestHand = std::min(bestHand, std::chrono::duration<double, std::milli>(t2 - t1).count());
    }
    if (std::memcmp(outs[0].data<double>(), hand.data<double>(), kN * sizeof(double)) != 0)
        state.SkipWithError("the composite and the hand loop disagree");
    state.counters["composite_ms"] = bestComposite;
    state.counters["hand_ms"] = bestHand;
    state.counters["ratio"] = bestComposite / bestHand;
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
BENCHMARK(BM_CompositeElemwise)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Copy)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Ratio)->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK_MAIN();
