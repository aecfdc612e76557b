// Scan step overhead: the seed program (x' = exp(x) - 5 on 7 elements, its last
// value and that value's Rop) with n_steps = 100000, run through runGraph, against
// a hand-written C++ loop of the same recurrence in the same run. Each benchmark
// alternates the graph and the hand loop and keeps the best time of each, so
// machine noise hits both alike; times are the thread's CPU time (the machine is
// shared). Counters: us_per_step, hand_us_per_step, ratio, peak_bytes.
//   unrewritten  the graph as built (scan_fn + rop_of_scan_fn, as PyTensor builds it)
//   fast_run     after the FAST_RUN pipeline
//   fused_2rows  the ideal rewrite by hand: one loop, states (x, dx), one Composite
//                computing exp once, (2, 7) buffers in place (PyTensor's sizing)
//   fused_1row   the same with (1, 7) buffers, the new state written over its tap
//                (reuse proven safe, docs/semantics.md#exact-buffer-sizing)
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Rop.h"
#include "builder/Scan.h"
#include "exec/Executor.h"
#include "ops/Elemwise.h"
#include "ops/ScanOp.h"
#include "rewrite/Pipeline.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <ctime>

using namespace tl;

namespace {

constexpr int64_t kSteps = 100000;

std::vector<NDArray> seedInputs() {
    std::vector<double> x(7);
    for (int i = 0; i < 7; ++i) x[i] = (-1.0 + 2.0 * i / 6.0) * 0.1;
    return {NDArray::fromVector(DType::Float64, {7}, x), NDArray::fromVector(DType::Float64, {7}, std::vector<double>(7, 1.0))};
}

// The recurrence written by hand: one exp per element and step.
void handLoop(double* x, double* dx, int64_t steps) {
    for (int64_t s = 0; s < steps; ++s)
        for (int j = 0; j < 7; ++j) {
            const double e = std::exp(x[j]);
            dx[j] = e * dx[j];
            x[j] = e - 5.0;
        }
}

std::unique_ptr<Graph> unrewritten() {
    GraphBuilder b;
    Var x = b.input("x_init", DType::Float64, {7});
    Var t = b.input("x_init_tangent", DType::Float64, {7});
    auto r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{exp(a[0]) - 5}}; },
                  ScanArgs{.outputsInfo = {OutputInfo(x)}, .nSteps = kSteps});
    Var out = index(r.outputs[0], -1);
    return b.finish({out, rop(out, x, t)});
}

std::unique_ptr<Graph> fastRun() {
    auto g = unrewritten();
    PipelineOptions opts;
    opts.validate = false;
    Pipeline::fastRun().run(*g, opts);
    return g;
}

// One loop over (x, dx) whose step is a single two-output Composite.
std::unique_ptr<Graph> fused(int64_t rows) {
    GraphBuilder sb;
    Var i0 = sb.placeholder(Type::scalar(DType::Float64)), i1 = sb.placeholder(Type::scalar(DType::Float64));
    Var e = exp(i0);
    OpPtr composite = makeCompositeElemwise(*sb.finish({e - sb.scalarConstant(5.0, DType::Float64), e * i1}));
    GraphBuilder ib;
    const Type row = Type::tensor(DType::Float64, {7});
    Var px = ib.placeholder(row), pdx = ib.placeholder(row);
    std::vector<Var> step = ib.apply(composite, {px, pdx});
    ScanInfo info;
    info.nSitSot = 2;
    auto op = makeScan(info, ib.finish(step), "rop_of_scan_fn&scan_fn", {0, 1}, {rows == 1, rows == 1});

    GraphBuilder b;
    Var x = b.input("x_init", DType::Float64, {7});
    Var t = b.input("x_init_tangent", DType::Float64, {7});
    auto buffer = [&](Var init) {
        return setSubtensor(allocEmpty(b, DType::Float64, {rows, 7}), expandDims(init, 0),
                            {Idx(Slice{std::nullopt, IntArg(1), std::nullopt})}, true);
    };
    std::vector<Var> outs = b.apply(op, {intConstant(b, kSteps), buffer(x), buffer(t)});
    return b.finish({index(outs[0], -1), index(outs[1], -1)});
}

// CPU time of this thread, in microseconds.
double cpuMicros() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

void runAgainstHand(benchmark::State& state, const Graph& g) {
    const std::vector<NDArray> inputs = seedInputs();
    double bestGraph = 1e30, bestHand = 1e30;
    std::vector<NDArray> last;
    std::vector<double> hx, hdx;
    size_t peak = 0;
    for (auto _ : state) {
        const double t0 = cpuMicros();
        RunResult r = runGraph(g, inputs);
        const double t1 = cpuMicros();
        hx = inputs[0].toDoubles();
        hdx = inputs[1].toDoubles();
        const double t2 = cpuMicros();
        handLoop(hx.data(), hdx.data(), kSteps);
        const double t3 = cpuMicros();
        benchmark::DoNotOptimize(hx.data());
        benchmark::ClobberMemory();
        bestGraph = std::min(bestGraph, t1 - t0);
        bestHand = std::min(bestHand, t3 - t2);
        last = std::move(r.outputs);
        peak = r.peakBytes;
    }
    for (int j = 0; j < 7; ++j) {
        const double gx = last[0].flatGet(j), gdx = last[1].flatGet(j);
        if (std::fabs(gx - hx[j]) > 1e-13 * std::fabs(hx[j]) || std::fabs(gdx - hdx[j]) > 1e-13 * std::fabs(hdx[j]) + 1e-300)
            state.SkipWithError("the graph and the hand loop disagree");
    }
    state.counters["us_per_step"] = bestGraph / kSteps;
    state.counters["hand_us_per_step"] = bestHand / kSteps;
    state.counters["ratio"] = bestGraph / bestHand;
    state.counters["peak_bytes"] = static_cast<double>(peak);
}

void BM_SeedScanRop_Unrewritten(benchmark::State& state) {
    static auto g = unrewritten();
    runAgainstHand(state, *g);
}

void BM_SeedScanRop_FastRun(benchmark::State& state) {
    static std::unique_ptr<Graph> g;
    static std::string error;
    if (!g && error.empty()) {
        try {
            g = fastRun();
        } catch (const std::exception& e) {
            error = std::string("FAST_RUN pipeline failed: ") + e.what();
        }
    }
    if (!g) {
        state.SkipWithError(error.c_str());
        for (auto _ : state) {
        }
        return;
    }
    runAgainstHand(state, *g);
}

void BM_SeedScanRop_Fused2Rows(benchmark::State& state) {
    static auto g = fused(2);
    runAgainstHand(state, *g);
}

void BM_SeedScanRop_Fused1Row(benchmark::State& state) {
    static auto g = fused(1);
    runAgainstHand(state, *g);
}

} // namespace

BENCHMARK(BM_SeedScanRop_Unrewritten)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_SeedScanRop_FastRun)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_SeedScanRop_Fused2Rows)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_SeedScanRop_Fused1Row)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK_MAIN();
