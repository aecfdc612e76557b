// The layered layout (the one big parts of the canvas get) on random DAGs of
// 1,000, 3,000 and 10,000 boxes, against building the visual graph of the same
// graph (one walk that makes a box per node and an edge per use) in the same run.
// BM_LayeredRatio reports layout / build as `ratio`: a ratio that stays flat as
// the graph grows says the layout is linear, as the window needs for thousands
// of boxes. No chain is collapsed, so every node is a box.
#include "ir/GraphAssembler.h"
#include "layout/GraphLayout.h"
#include "layout/VisualGraph.h"
#include "ops/Elemwise.h"

#include <QApplication>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <ctime>
#include <climits>
#include <map>
#include <memory>
#include <random>

using namespace tl;

namespace {

// `n` elementwise nodes over 20 inputs; each reads 1-3 of the 40 latest values,
// so the graph is deep and its edges cross ranks, as real graphs do.
std::unique_ptr<Graph> randomDag(int n, unsigned seed) {
    GraphAssembler gA;
    std::mt19937 rng(seed);
    std::vector<Variable*> vals;
    for (int i = 0; i < 20; ++i) vals.push_back(gA.addInput(Type::tensor(DType::Float64, {7}), "x" + std::to_string(i)));
    const OpPtr unary = makeElemwise(ScalarOpCode::Exp), nary = makeElemwise(ScalarOpCode::Add);
    for (int i = 0; i < n; ++i) {
        const int k = 1 + static_cast<int>(rng() % 3);
        std::vector<Variable*> ins;
        for (int j = 0; j < k; ++j) ins.push_back(vals[vals.size() - 1 - rng() % std::min<size_t>(vals.size(), 40)]);
        vals.push_back(gA.addNode(k == 1 ? unary : nary, ins)->output(0));
    }
    gA.setOutputs({vals.back()});
    auto g = gA.finish();
    return g;
}

// CPU time of this thread in milliseconds: the machine is shared, and wall time
// would charge other processes' work to whichever half ran while they did.
double cpuMillis() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

const Graph& graphOf(int n) {
    static std::map<int, std::unique_ptr<Graph>> graphs;
    auto& g = graphs[n];
    if (!g) g = randomDag(n, 7);
    return *g;
}

ExpansionState everyBox() {
    ExpansionState s;
    s.collapseChainLength = INT_MAX;
    return s;
}

LayoutSettings layered() {
    LayoutSettings s;
    s.method = LayoutSettings::Method::Layered;
    return s;
}

void BM_BuildVisualGraph(benchmark::State& state) {
    const Graph& g = graphOf(static_cast<int>(state.range(0)));
    size_t boxes = 0;
    for (auto _ : state) {
        VisualGraph vg = buildVisualGraph(g, everyBox());
        boxes = vg.nodes.size();
        benchmark::DoNotOptimize(vg.edges.size());
    }
    state.counters["boxes"] = static_cast<double>(boxes);
}

void BM_Layered(benchmark::State& state) {
    const VisualGraph vg = buildVisualGraph(graphOf(static_cast<int>(state.range(0))), everyBox());
    for (auto _ : state) {
        GraphLayout l = layoutVisualGraph(vg, layered());
        if (!l.ok) state.SkipWithError("the layout did not finish");
        benchmark::DoNotOptimize(l.rects.size());
    }
    state.counters["boxes"] = static_cast<double>(vg.nodes.size());
}

// Both alternately, best thread CPU time of each: the ratio compares them under the same load.
void BM_LayeredRatio(benchmark::State& state) {
    const Graph& g = graphOf(static_cast<int>(state.range(0)));
    double bestBuild = 1e30, bestLayout = 1e30;
    size_t boxes = 0;
    for (auto _ : state) {
        const double t0 = cpuMillis();
        VisualGraph vg = buildVisualGraph(g, everyBox());
        const double t1 = cpuMillis();
        GraphLayout l = layoutVisualGraph(vg, layered());
        const double t2 = cpuMillis();
        if (!l.ok) state.SkipWithError("the layout did not finish");
        boxes = vg.nodes.size();
        bestBuild = std::min(bestBuild, t1 - t0);
        bestLayout = std::min(bestLayout, t2 - t1);
    }
    state.counters["boxes"] = static_cast<double>(boxes);
    state.counters["build_ms"] = bestBuild;
    state.counters["layout_ms"] = bestLayout;
    state.counters["ratio"] = bestLayout / bestBuild;
    state.counters["layout_us_per_box"] = bestLayout * 1e3 / static_cast<double>(std::max<size_t>(boxes, 1));
}

} // namespace

BENCHMARK(BM_BuildVisualGraph)->Arg(1000)->Arg(3000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Layered)->Arg(1000)->Arg(3000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LayeredRatio)->Arg(1000)->Arg(3000)->Arg(10000)->Unit(benchmark::kMillisecond)->Iterations(5);

int main(int argc, char** argv) {
    // Box sizes come from font metrics, which need a QGuiApplication; no display needed.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
