// dprint text of deep graphs, both ways: a chain of 1,000 / 3,000 elementwise ops
// prints as a listing whose line k is indented 3k characters (13 MB at 3,000),
// so the text grows with the square of the depth. Importing it must cost a small
// multiple of printing it at every depth: BM_RoundTripRatio reports import / print
// (best of its iterations, the two alternating in one run) as `ratio`, and the
// time per megabyte of text of each, which stays flat when both are linear in
// the text.
#include "io/DPrint.h"
#include "io/DPrintImport.h"
#include "ops/Elemwise.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>

using namespace tl;

namespace {

// exp(neg(exp(neg(... x)))): every node has one input, so the tree is as deep as the chain.
std::unique_ptr<Graph> chain(int depth) {
    auto g = std::make_unique<Graph>();
    Variable* v = g->addInput(Type::tensor(DType::Float64, {3}), "x");
    const OpPtr ops[2] = {makeElemwise(ScalarOpCode::Neg), makeElemwise(ScalarOpCode::Exp)};
    for (int i = 0; i < depth; ++i) v = g->addNode(ops[i % 2], {v})->output(0);
    g->setOutputs({v});
    return g;
}

// The options a compiled function's listing has: types and topological indices.
DPrintOptions listingOptions() {
    DPrintOptions o;
    o.printType = true;
    o.printTopoIndex = true;
    return o;
}

const Graph& graphOf(int depth) {
    static std::map<int, std::unique_ptr<Graph>> graphs;
    auto& g = graphs[depth];
    if (!g) g = chain(depth);
    return *g;
}

double megabytes(const std::string& text) { return static_cast<double>(text.size()) / 1e6; }

void BM_Print(benchmark::State& state) {
    const Graph& g = graphOf(static_cast<int>(state.range(0)));
    std::string text;
    for (auto _ : state) {
        text = dprint(g, listingOptions());
        benchmark::DoNotOptimize(text.data());
    }
    state.counters["text_mb"] = megabytes(text);
}

void BM_Import(benchmark::State& state) {
    const std::string text = dprint(graphOf(static_cast<int>(state.range(0))), listingOptions());
    for (auto _ : state) {
        DPrintImport imp = importDprint(text);
        benchmark::DoNotOptimize(imp.graph->numNodes());
    }
    state.counters["text_mb"] = megabytes(text);
}

void BM_RoundTripRatio(benchmark::State& state) {
    using Clock = std::chrono::steady_clock;
    const Graph& g = graphOf(static_cast<int>(state.range(0)));
    double bestPrint = 1e30, bestImport = 1e30;
    std::string text;
    for (auto _ : state) {
        auto t0 = Clock::now();
        text = dprint(g, listingOptions());
        auto t1 = Clock::now();
        DPrintImport imp = importDprint(text);
        auto t2 = Clock::now();
        if (imp.graph->numNodes() != g.numNodes()) state.SkipWithError("the import lost nodes");
        bestPrint = std::min(bestPrint, std::chrono::duration<double, std::milli>(t1 - t0).count());
        bestImport = std::min(bestImport, std::chrono::duration<double, std::milli>(t2 - t1).count());
    }
    const double mb = megabytes(text);
    state.counters["text_mb"] = mb;
    state.counters["print_ms"] = bestPrint;
    state.counters["import_ms"] = bestImport;
    state.counters["print_ms_per_mb"] = bestPrint / mb;
    state.counters["import_ms_per_mb"] = bestImport / mb;
    state.counters["ratio"] = bestImport / bestPrint;
}

} // namespace

BENCHMARK(BM_Print)->Arg(1000)->Arg(3000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Import)->Arg(1000)->Arg(3000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RoundTripRatio)->Arg(1000)->Arg(3000)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_MAIN();
