// dprint text of deep graphs, both ways: a chain of 1,000 / 3,000 elementwise ops
// prints as a listing whose line k is indented 3k characters (13 MB at 3,000),
// so the text grows with the square of the depth. Importing it must cost a small
// multiple of printing it at every depth: BM_RoundTripRatio reports import / print
// (best thread CPU time of its iterations, the two alternating in one run) as
// `ratio`, and the time per megabyte of text of each, which stays flat when both
// are linear in the text.
#include "ir/GraphAssembler.h"
#include "io/DPrint.h"
#include "io/DPrintImport.h"
#include "ops/Elemwise.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <ctime>
#include <map>
#include <memory>

using namespace tl;

namespace {

// exp(neg(exp(neg(... x)))): every node has one input, so the tree is as deep as the chain.
std::unique_ptr<Graph> chain(int depth) {
    GraphAssembler gA;
    Variable* v = gA.addInput(Type::tensor(DType::Float64, {3}), "x");
    const OpPtr ops[2] = {makeElemwise(ScalarOpCode::Neg), makeElemwise(ScalarOpCode::Exp)};
    for (int i = 0; i < depth; ++i) v = gA.addNode(ops[i % 2], {v})->output(0);
    gA.setOutputs({v});
    auto g = gA.finish();
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

// CPU time of this thread in milliseconds: the machine is shared, and wall time
// would charge other processes' work to whichever half ran while they did.
double cpuMillis() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
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
    const Graph& g = graphOf(static_cast<int>(state.range(0)));
    double bestPrint = 1e30, bestImport = 1e30;
    std::string text;
    for (auto _ : state) {
        const double t0 = cpuMillis();
        text = dprint(g, listingOptions());
        const double t1 = cpuMillis();
        DPrintImport imp = importDprint(text);
        const double t2 = cpuMillis();
        if (imp.graph->numNodes() != g.numNodes()) state.SkipWithError("the import lost nodes");
        bestPrint = std::min(bestPrint, t1 - t0);
        bestImport = std::min(bestImport, t2 - t1);
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
