// The canvas at scale (docs/performance.md#drawing-the-graph): a generated 5,000-node
// graph with Scans, first view with the lazy per-part layout against Graphviz `dot` on
// the whole flat graph in the same run; then stepping to the next rewrite with
// positions kept (incremental) against a full relayout of every step. Each timing
// covers what the window does: visual graph, layout, scene items.
#include "builder/Generators.h"
#include "layout/GraphLayout.h"
#include "layout/VisualGraph.h"
#include "scene/GraphScene.h"
#include "scene/Highlights.h"
#include "session/FileLoader.h"
#include "session/RewriteSession.h"

#include <QApplication>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <climits>

using namespace tl;

namespace {
constexpr int kNodes = 5000;

const Graph& bigGraph() {
    static std::unique_ptr<Graph> g = generateMixed(kNodes, 1);
    return *g;
}

// What the window shows first: Scans collapsed when large, chains collapsed, parts laid out.
void BM_FirstView_Lazy(benchmark::State& state) {
    const Graph& g = bigGraph();
    GraphLayout layout;
    size_t visual = 0;
    for (auto _ : state) {
        auto vg = std::make_shared<VisualGraph>(buildVisualGraph(g, ExpansionState{}));
        layout = layoutVisualGraph(*vg, LayoutSettings{});
        GraphScene scene;
        scene.setContent(vg, layout, computeHighlights(*vg, nullptr, 0));
        visual = vg->nodes.size();
        benchmark::DoNotOptimize(scene.items().size());
    }
    state.counters["graph_nodes"] = static_cast<double>(g.numNodes());
    state.counters["visual_nodes"] = static_cast<double>(visual);
    state.counters["dot_parts"] = layout.dotParts;
    state.counters["layered_parts"] = layout.layeredParts;
}

// The baseline: everything drawn (no collapsed chains, inputs once per use as
// above), one `dot` call on the whole graph through libgvc.
void BM_FirstView_DotWholeGraph(benchmark::State& state) {
    const Graph& g = bigGraph();
    ExpansionState flat;
    flat.collapseChainLength = INT_MAX;
    LayoutSettings dot;
    dot.method = LayoutSettings::Method::Dot;
    size_t visual = 0;
    for (auto _ : state) {
        auto vg = std::make_shared<VisualGraph>(buildVisualGraph(g, flat));
        GraphLayout layout = layoutVisualGraph(*vg, dot);
        visual = vg->nodes.size();
        benchmark::DoNotOptimize(layout.ok);
    }
    state.counters["visual_nodes"] = static_cast<double>(visual);
}

struct Stepping {
    RewriteSession session;
    PositionCache cache;
    GraphScene scene;
    Stepping() {
        session.openTrace(rewriteToTrace(bigGraph()));
        auto vg = std::make_shared<VisualGraph>(buildVisualGraph(session.currentGraph(), ExpansionState{}));
        GraphLayout l = layoutVisualGraph(*vg, LayoutSettings{});
        cache.remember(*vg, l);
        scene.setContent(vg, l, computeHighlights(*vg, nullptr, session.stepCount()));
    }
    // Seconds spent in each phase, summed over the steps taken.
    double tSession = 0, tVisual = 0, tLayout = 0, tScene = 0;
    int steps = 0, wouldRelayout = 0;

    // One step forward as GraphCanvas does it; wraps around at the end.
    void next(bool full) {
        using Clock = std::chrono::steady_clock;
        auto t0 = Clock::now();
        const int k = session.currentStep() >= session.stepCount() ? 1 : session.currentStep() + 1;
        session.setCurrentStep(k);
        const StepDiff* d = session.currentDiff();
        const Graph& g = session.currentGraph();
        auto t1 = Clock::now();
        auto vg = std::make_shared<VisualGraph>(buildVisualGraph(g, ExpansionState{}, d));
        auto t2 = Clock::now();
        GraphLayout l;
        if (full) l = layoutVisualGraph(*vg, LayoutSettings{});
        else {
            IncrementalLayout inc = layoutIncrementally(*vg, cache, placementHints(d));
            // The canvas's rule for falling back to a full layout (GraphCanvas::rebuild).
            if (!inc.keepsPositions(static_cast<int>(vg->nodes.size()))) ++wouldRelayout;
            l = std::move(inc.layout);
        }
        cache.remember(*vg, l);
        auto t3 = Clock::now();
        scene.setContent(vg, l, computeHighlights(*vg, d, session.stepCount()));
        auto t4 = Clock::now();
        auto sec = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
        tSession += sec(t0, t1);
        tVisual += sec(t1, t2);
        tLayout += sec(t2, t3);
        tScene += sec(t3, t4);
        ++steps;
    }
    void report(benchmark::State& state) {
        const double n = std::max(1, steps);
        state.counters["session_ms"] = tSession / n * 1e3;
        state.counters["visual_ms"] = tVisual / n * 1e3;
        state.counters["layout_ms"] = tLayout / n * 1e3;
        state.counters["scene_ms"] = tScene / n * 1e3;
        state.counters["steps_in_trace"] = session.stepCount();
        tSession = tVisual = tLayout = tScene = 0;
        steps = 0;
    }
};

Stepping& stepping() {
    static Stepping s;
    return s;
}

void BM_StepNext_Incremental(benchmark::State& state) {
    Stepping& s = stepping();
    s.wouldRelayout = 0;
    for (auto _ : state) s.next(false);
    state.counters["fallbacks"] = s.wouldRelayout;
    s.report(state);
}

void BM_StepNext_FullRelayout(benchmark::State& state) {
    Stepping& s = stepping();
    for (auto _ : state) s.next(true);
    s.report(state);
}

} // namespace

BENCHMARK(BM_FirstView_Lazy)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_FirstView_DotWholeGraph)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_StepNext_Incremental)->Unit(benchmark::kMillisecond)->Iterations(40);
BENCHMARK(BM_StepNext_FullRelayout)->Unit(benchmark::kMillisecond)->Iterations(10);

int main(int argc, char** argv) {
    // Fonts need a QGuiApplication; no display needed.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
