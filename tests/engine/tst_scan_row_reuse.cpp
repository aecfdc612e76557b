// The executor's side of exact buffer sizing (docs/semantics.md#exact-buffer-sizing): a
// Scan whose state is flagged reuseProvenSafe and whose buffer has exactly init_l rows
// writes the new state over its oldest tap only when the compiled step can order every
// other reader of the tap first (CompiledGraphOptions::rowReuse); otherwise it copies.
// Loops are built by hand here so the flags can be wrong on purpose.
#include "TestSuites.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "exec/Executor.h"
#include "io/JsonValues.h"
#include "ops/ScanOp.h"

#include <QtTest>

#include <functional>

using namespace tl;
using namespace tl::test;

namespace {

using Step = std::function<std::vector<Var>(const std::vector<Var>& taps, const Var& w)>;

// n sit_sot states over inputs x0, x1, ... (length 3), a (3, 3) non-sequence W, 10
// steps, buffers of `rows` rows; outputs: the last row of every state.
std::unique_ptr<Graph> handLoop(int n, const Step& step, int64_t rows, std::vector<bool> proven) {
    GraphBuilder b;
    std::vector<Var> inits;
    for (int i = 0; i < n; ++i) inits.push_back(b.input("x" + std::to_string(i), DType::Float64, {3}));
    Var w = b.input("W", DType::Float64, {3, 3});
    GraphBuilder ib;
    std::vector<Var> taps;
    for (int i = 0; i < n; ++i) taps.push_back(ib.placeholder(Type::tensor(DType::Float64, {3})));
    Var wi = ib.placeholder(Type::tensor(DType::Float64, {3, 3}));
    std::shared_ptr<const Graph> inner = ib.finish(step(taps, wi));
    ScanInfo info;
    info.nSitSot = n;
    info.nNonSeqs = 1;
    auto op = makeScan(info, inner, "scan_fn", {}, std::move(proven));
    std::vector<Var> outer{intConstant(b, 10)};
    for (const Var& x0 : inits)
        outer.push_back(setSubtensor(allocEmpty(b, DType::Float64, {IntArg(rows), IntArg(int64_t(3))}), expandDims(x0, 0),
                                     {Idx(Slice{std::nullopt, IntArg(int64_t(1)), std::nullopt})}));
    outer.push_back(w);
    std::vector<Var> outs = b.apply(op, outer);
    std::vector<Var> last;
    for (const Var& o : outs) last.push_back(index(o, -1));
    return b.finish(last);
}

struct Run {
    std::vector<NDArray> outputs;
    ExecStats stats;
};

Run run(const Graph& g) {
    ExecContext ctx;
    Run r;
    r.outputs = runGraph(g, randomInputs(g, 5), ctx).outputs;
    r.stats = ctx.stats();
    return r;
}

void checkAgainstFullBuffers(int n, const Step& step, std::vector<bool> proven, uint64_t inPlace) {
    auto small = handLoop(n, step, 1, proven);
    auto full = handLoop(n, step, 11, std::vector<bool>(n, false));
    Run a = run(*small), b = run(*full);
    QCOMPARE(a.outputs.size(), b.outputs.size());
    for (size_t i = 0; i < a.outputs.size(); ++i) TL_COMPARE_ARRAYS(a.outputs[i], b.outputs[i], 1e-12, 0.0);
    QCOMPARE(a.stats.scanRowsInPlace, inPlace);
}

} // namespace

class TestScanRowReuse : public QObject {
    Q_OBJECT

private slots:
    // The writer reads the tap and is not elementwise: a wrong flag is refused (copy).
    void refusesNonElementwiseWriter() {
        checkAgainstFullBuffers(1, [](const std::vector<Var>& x, const Var& w) { return std::vector<Var>{dot(w, x[0])}; },
                                {true}, 0);
    }

    // y reads x's tap but needs x's new value: x's flag is refused, y's granted.
    void refusesReaderAfterWriter() {
        checkAgainstFullBuffers(2, [](const std::vector<Var>& x, const Var&) {
            Var nx = exp(x[0]) * 0.5;
            return std::vector<Var>{nx, x[1] + x[0] * nx};
        }, {true, true}, 10);
    }

    // y reads x's tap and does not need x's new value; the step's natural order runs
    // x's writer first, so the plan must move y's reader before it.
    void ordersReadersFirst() {
        Step step = [](const std::vector<Var>& x, const Var&) {
            return std::vector<Var>{exp(x[0]) * 0.5, x[1] * 0.5 + x[0]};
        };
        checkAgainstFullBuffers(2, step, {true, true}, 20);

        auto g = handLoop(2, step, 1, {true, true});
        const Node* scan = nullptr;
        for (const Node* n : g->nodes())
            if (n->op().kind() == OpKind::Scan) scan = n;
        const Graph& inner = *static_cast<const ScanOp&>(scan->op()).inner();
        CompiledGraphOptions opts;
        opts.freeIntermediates = false;
        CompiledGraph plain(inner, opts);
        opts.rowReuse = {{0, 0}, {1, 1}};
        CompiledGraph planned(inner, opts);
        QVERIFY(planned.rowReuseGranted(0));
        QVERIFY(planned.rowReuseGranted(1));
        auto pos = [](const CompiledGraph& cg, const Node* n) {
            return std::find(cg.order().begin(), cg.order().end(), n) - cg.order().begin();
        };
        const Node* writerX = inner.output(0)->owner();
        const Node* readerY = inner.output(1)->owner();  // Add(y * 0.5, x)
        QVERIFY(pos(plain, writerX) < pos(plain, readerY));    // the hazard without the plan
        QVERIFY(pos(planned, readerY) < pos(planned, writerX));  // the plan's order
    }

    // Without the flag a 1-row buffer is still right: every new state is copied in after the step.
    void unflaggedSmallBufferCopies() {
        checkAgainstFullBuffers(1, [](const std::vector<Var>& x, const Var& w) { return std::vector<Var>{dot(w, x[0])}; },
                                {false}, 0);
    }
};

TL_TEST_SUITE(TestScanRowReuse)
#include "tst_scan_row_reuse.moc"
