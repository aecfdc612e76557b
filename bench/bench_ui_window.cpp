// The real window, end to end (docs/performance.md#the-window-end-to-end): the
// 5,000-node graph users and tests generate (`tensorlens example --generate mixed
// --nodes 5000`), in the real MainWindow offscreen. First view: from opening the
// recorded trace (and, separately, the plain graph, rewritten on open as the
// window does) until every pane is updated and the window painted. A step: from
// the key press until the canvas, timeline, dprint text and inspector show the
// new step and the window is painted. Baseline in the same run: painting the
// window once more with nothing changed (what any frame costs on this machine),
// so the ratios survive a loaded machine.
#include "MainWindow.h"
#include "builder/Generators.h"
#include "session/FileLoader.h"
#include "widgets/GraphCanvas.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTest>

#include <benchmark/benchmark.h>

#include <chrono>

using namespace tl;

namespace {
constexpr int kNodes = 5000;

const Graph& bigGraph() {
    static std::unique_ptr<Graph> g = generateMixed(kNodes, 1);
    return *g;
}

const Trace& bigTrace() {
    static std::unique_ptr<Trace> t = rewriteToTrace(bigGraph());
    return *t;
}

std::unique_ptr<Trace> copyOfTrace() {
    auto t = std::make_unique<Trace>(bigTrace().original().clone());
    t->steps() = bigTrace().steps();
    t->settings() = bigTrace().settings();
    t->failures() = bigTrace().failures();
    return t;
}

// Counts the paint events the canvas's viewport receives: a step is timed until
// the window has painted its new picture, once, as it does for a user.
class PaintCounter : public QObject {
public:
    int paints = 0;
    bool eventFilter(QObject*, QEvent* e) override {
        if (e->type() == QEvent::Paint) ++paints;
        return false;
    }
};

PaintCounter& paintCounter() {
    static PaintCounter c;
    return c;
}

// Until the canvas has its picture and the queued updates ran, which paints the
// window (the parts a step changed); a synchronous paint only when the queued
// updates did not paint the canvas (the step changed nothing on it).
bool settleAndPaint(MainWindow& w) {
    QElapsedTimer guard;
    guard.start();
    const int before = paintCounter().paints;
    while (w.canvas()->isLayoutPending() && guard.elapsed() < 60000) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    QCoreApplication::processEvents();
    if (paintCounter().paints != before) return false;
    w.repaint();
    return true;
}

MainWindow& window() {
    static MainWindow* w = [] {
        auto* m = new MainWindow;
        m->resize(1600, 1000);
        m->show();
        QTest::qWaitForWindowExposed(m);
        // The step keys are the window's shortcuts: they need it active (under a
        // real display server as well as offscreen).
        m->activateWindow();
        QTest::qWaitForWindowActive(m);
        m->canvas()->view()->viewport()->installEventFilter(&paintCounter());
        return m;
    }();
    return *w;
}

double since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double frameSeconds(MainWindow& w) {
    double best = 1e9;
    for (int i = 0; i < 5; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        w.repaint();
        best = std::min(best, since(t0));
    }
    return best;
}

void BM_Window_FirstView_Trace(benchmark::State& state) {
    MainWindow& w = window();
    bigTrace();
    double total = 0;
    for (auto _ : state) {
        auto t = copyOfTrace();
        const auto t0 = std::chrono::steady_clock::now();
        w.session()->openTrace(std::move(t), "big");
        settleAndPaint(w);
        const double s = since(t0);
        total += s;
        state.SetIterationTime(s);
    }
    const double frame = frameSeconds(w);
    state.counters["first_view_ms"] = total / static_cast<double>(state.iterations()) * 1e3;
    state.counters["frame_ms"] = frame * 1e3;
    state.counters["ratio_to_frame"] = total / static_cast<double>(state.iterations()) / frame;
    state.counters["graph_nodes"] = static_cast<double>(bigGraph().numNodes());
    state.counters["visual_nodes"] = static_cast<double>(w.canvas()->scene()->visualGraph()->nodes.size());
}

// As a user opens a plain graph: the pipeline runs first.
void BM_Window_FirstView_Graph(benchmark::State& state) {
    MainWindow& w = window();
    double total = 0;
    for (auto _ : state) {
        auto g = bigGraph().clone();
        const auto t0 = std::chrono::steady_clock::now();
        auto t = rewriteToTrace(*g);
        w.session()->openTrace(std::move(t), "big");
        settleAndPaint(w);
        const double s = since(t0);
        total += s;
        state.SetIterationTime(s);
    }
    state.counters["first_view_ms"] = total / static_cast<double>(state.iterations()) * 1e3;
}

void steps(benchmark::State& state, Qt::Key key) {
    MainWindow& w = window();
    if (!w.session()->isOpen() || w.session()->stepCount() != static_cast<int>(bigTrace().size())) {
        w.session()->openTrace(copyOfTrace(), "big");
        settleAndPaint(w);
    }
    const int n = w.session()->stepCount();
    if (key == Qt::Key_Left && w.session()->currentStep() == 0) {
        w.session()->last();
        settleAndPaint(w);
    }
    double worst = 0, sum = 0;
    int count = 0, full = 0, synchronous = 0;
    const int paintsBefore = paintCounter().paints;
    for (auto _ : state) {
        if (key == Qt::Key_Right && w.session()->currentStep() >= n) {
            w.session()->first();
            settleAndPaint(w);
        }
        if (key == Qt::Key_Left && w.session()->currentStep() <= 0) {
            w.session()->last();
            settleAndPaint(w);
        }
        const auto t0 = std::chrono::steady_clock::now();
        QTest::keyClick(&w, key);
        full += w.canvas()->isLayoutPending();
        synchronous += settleAndPaint(w);
        const double s = since(t0);
        state.SetIterationTime(s);
        worst = std::max(worst, s);
        sum += s;
        ++count;
    }
    const double frame = frameSeconds(w);
    state.counters["mean_step_ms"] = sum / count * 1e3;
    state.counters["worst_step_ms"] = worst * 1e3;
    state.counters["frame_ms"] = frame * 1e3;
    state.counters["ratio_to_frame"] = sum / count / frame;
    state.counters["full_layouts"] = full;
    state.counters["synchronous_paints"] = synchronous;
    state.counters["canvas_paints_per_step"] = static_cast<double>(paintCounter().paints - paintsBefore) / count;
    state.counters["steps_in_trace"] = n;
}

void BM_Window_StepForward(benchmark::State& state) { steps(state, Qt::Key_Right); }

// A jump four steps ahead (a click in the timeline): it walks through the three
// steps between (within the canvas's budget for this graph), so it draws what
// stepping would and costs more than a step.
void BM_Window_Jump4(benchmark::State& state) {
    MainWindow& w = window();
    if (!w.session()->isOpen() || w.session()->stepCount() != static_cast<int>(bigTrace().size())) {
        w.session()->openTrace(copyOfTrace(), "big");
        settleAndPaint(w);
    }
    double sum = 0;
    int count = 0, full = 0;
    for (auto _ : state) {
        if (w.session()->currentStep() + 4 > w.session()->stepCount()) {
            w.session()->first();
            settleAndPaint(w);
        }
        const auto t0 = std::chrono::steady_clock::now();
        w.session()->setCurrentStep(w.session()->currentStep() + 4);
        full += w.canvas()->isLayoutPending();
        settleAndPaint(w);
        const double s = since(t0);
        state.SetIterationTime(s);
        sum += s;
        ++count;
    }
    state.counters["mean_jump_ms"] = sum / count * 1e3;
    state.counters["frame_ms"] = frameSeconds(w) * 1e3;
    state.counters["full_layouts"] = full;
}
// Back over steps already shown: their pictures are kept.
void BM_Window_StepBack(benchmark::State& state) { steps(state, Qt::Key_Left); }

} // namespace

BENCHMARK(BM_Window_FirstView_Trace)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(3);
BENCHMARK(BM_Window_FirstView_Graph)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(2);
BENCHMARK(BM_Window_StepForward)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(40);
BENCHMARK(BM_Window_Jump4)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(10);
BENCHMARK(BM_Window_StepBack)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(40);

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("tensorlens-bench");
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
