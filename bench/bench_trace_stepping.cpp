// Moving through a rewrite trace of a 10,000-node generated graph with
// TraceReplayer: adjacent steps forward, adjacent steps backward (inverse
// edits), random jumps (checkpoints), against a full replay from step 0
// (a copy of the original and every edit up to the step) measured in the same
// run. BM_Summary reports everything as counters, ratios included
// (docs/performance.md, "Trace stepping").
#include "trace/TraceReplayer.h"
#include "builder/Generators.h"
#include "ir/Rewriter.h"
#include "rewrite/Pipeline.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <random>

using namespace tl;

namespace {
using Clock = std::chrono::steady_clock;
double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

struct Fixture {
    Trace trace;
    int steps = 0;
    Fixture() {
        auto g = generateMixed(10000);
        PipelineOptions opts;
        opts.validate = false;
        trace = rewriteWithTrace(*g, opts);
        steps = static_cast<int>(trace.size());
    }
};
Fixture& fixture() {
    static Fixture f;
    return f;
}

/// The baseline: graphAt(k) with neither checkpoints nor inverses.
size_t replayFromStart(const Trace& t, int k) {
    auto g = t.original().clone();
    Rewriter rw(*g);
    for (int s = 0; s < k; ++s)
        for (const GraphEdit& e : t.steps()[static_cast<size_t>(s)].edits) rw.replayEdit(e);
    return g->numNodes();
}

void BM_FullReplayFromStart(benchmark::State& state) {
    Fixture& f = fixture();
    for (auto _ : state) benchmark::DoNotOptimize(replayFromStart(f.trace, f.steps));
    state.counters["steps"] = f.steps;
    state.counters["nodes"] = static_cast<double>(f.trace.original().numNodes());
}

// One sweep over the whole trace per iteration, one step at a time; us_per_step
// is the mean cost of one adjacent move.
void BM_ForwardAdjacent(benchmark::State& state) {
    Fixture& f = fixture();
    TraceReplayer replay(f.trace);
    replay.graphAt(f.steps);  // every inverse derived once, as after a first look
    for (auto _ : state) {
        state.PauseTiming();
        replay.graphAt(0);
        state.ResumeTiming();
        for (int k = 1; k <= f.steps; ++k) benchmark::DoNotOptimize(replay.graphAt(k).numNodes());
    }
    state.counters["per_step"] =
        benchmark::Counter(f.steps, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_BackwardAdjacent(benchmark::State& state) {
    Fixture& f = fixture();
    TraceReplayer replay(f.trace);
    for (auto _ : state) {
        state.PauseTiming();
        replay.graphAt(f.steps);
        state.ResumeTiming();
        for (int k = f.steps - 1; k >= 0; --k) benchmark::DoNotOptimize(replay.graphAt(k).numNodes());
    }
    state.counters["per_step"] =
        benchmark::Counter(f.steps, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// The move the previous replayer made expensive (47 ms): back and forth over one
// step, the first step with edits after the middle (arg 0) or the largest step (arg 1).
void BM_BackAndForth(benchmark::State& state) {
    Fixture& f = fixture();
    TraceReplayer replay(f.trace);
    const auto& steps = f.trace.steps();
    int mid = f.steps / 2;
    if (state.range(0) == 0) {
        while (mid + 1 < f.steps && steps[static_cast<size_t>(mid)].edits.empty()) ++mid;
    } else {
        for (int s = 0; s < f.steps; ++s)
            if (steps[static_cast<size_t>(s)].edits.size() > steps[static_cast<size_t>(mid)].edits.size()) mid = s;
    }
    state.counters["edits"] = static_cast<double>(steps[static_cast<size_t>(mid)].edits.size());
    replay.graphAt(mid + 1);
    bool back = true;
    for (auto _ : state) {
        benchmark::DoNotOptimize(replay.graphAt(back ? mid : mid + 1).numNodes());
        back = !back;
    }
}

void BM_RandomJump(benchmark::State& state) {
    Fixture& f = fixture();
    TraceReplayer replay(f.trace);
    replay.graphAt(f.steps);  // a first long walk leaves the checkpoints
    std::mt19937_64 rng(12345);
    for (auto _ : state)
        benchmark::DoNotOptimize(replay.graphAt(static_cast<int>(rng() % static_cast<uint64_t>(f.steps + 1))).numNodes());
    state.counters["checkpoints"] = static_cast<double>(replay.checkpointCount());
}

// Everything in one run with its own clock: means, worst cases and ratios to the
// full replay (best of 3 for the baselines).
void BM_Summary(benchmark::State& state) {
    Fixture& f = fixture();
    const int n = f.steps;
    for (auto _ : state) {
        double full = 1e30, toMid = 1e30;
        for (int i = 0; i < 3; ++i) {
            auto t0 = Clock::now();
            benchmark::DoNotOptimize(replayFromStart(f.trace, n));
            auto t1 = Clock::now();
            benchmark::DoNotOptimize(replayFromStart(f.trace, n / 2));
            auto t2 = Clock::now();
            full = std::min(full, ms(t0, t1));
            toMid = std::min(toMid, ms(t1, t2));
        }
        TraceReplayer replay(f.trace);
        auto t0 = Clock::now();
        replay.graphAt(0);
        // The first sweep also derives every step's inverse.
        for (int k = 1; k <= n; ++k) benchmark::DoNotOptimize(replay.graphAt(k).numNodes());
        const double firstSweep = ms(t0, Clock::now());
        double fwdSum = 0, fwdMax = 0, backSum = 0, backMax = 0;
        for (int k = n - 1; k >= 0; --k) {
            auto a = Clock::now();
            benchmark::DoNotOptimize(replay.graphAt(k).numNodes());
            const double d = ms(a, Clock::now());
            backSum += d;
            backMax = std::max(backMax, d);
        }
        for (int k = 1; k <= n; ++k) {
            auto a = Clock::now();
            benchmark::DoNotOptimize(replay.graphAt(k).numNodes());
            const double d = ms(a, Clock::now());
            fwdSum += d;
            fwdMax = std::max(fwdMax, d);
        }
        // Jumps: one long walk first (it leaves the checkpoints), then random positions.
        TraceReplayer jumper(f.trace);
        auto j0 = Clock::now();
        jumper.graphAt(n);
        const double firstLongWalk = ms(j0, Clock::now());
        std::mt19937_64 rng(99);
        const int jumps = 200;
        double jumpSum = 0, jumpMax = 0;
        for (int i = 0; i < jumps; ++i) {
            const int k = static_cast<int>(rng() % static_cast<uint64_t>(n + 1));
            auto a = Clock::now();
            benchmark::DoNotOptimize(jumper.graphAt(k).numNodes());
            const double d = ms(a, Clock::now());
            jumpSum += d;
            jumpMax = std::max(jumpMax, d);
        }
        const double fwdMean = fwdSum / n, backMean = backSum / n, jumpMean = jumpSum / jumps;
        state.counters["full_replay_ms"] = full;
        state.counters["replay_to_middle_ms"] = toMid;
        state.counters["first_sweep_ms"] = firstSweep;
        state.counters["fwd_mean_us"] = fwdMean * 1e3;
        state.counters["fwd_max_ms"] = fwdMax;
        state.counters["back_mean_us"] = backMean * 1e3;
        state.counters["back_max_ms"] = backMax;
        state.counters["first_long_walk_ms"] = firstLongWalk;
        state.counters["jump_mean_ms"] = jumpMean;
        state.counters["jump_max_ms"] = jumpMax;
        state.counters["checkpoints"] = static_cast<double>(jumper.checkpointCount());
        state.counters["ratio_full_over_fwd"] = full / fwdMean;
        state.counters["ratio_full_over_back"] = full / backMean;
        state.counters["ratio_middle_over_jump"] = toMid / jumpMean;
    }
    state.counters["steps"] = n;
    state.counters["nodes"] = static_cast<double>(f.trace.original().numNodes());
}
} // namespace

BENCHMARK(BM_FullReplayFromStart)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ForwardAdjacent)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BackwardAdjacent)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BackAndForth)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RandomJump)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Summary)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_MAIN();
