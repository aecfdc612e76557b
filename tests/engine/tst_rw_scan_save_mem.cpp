// scan_save_mem: fewer steps and smaller buffers (docs/semantics.md#scan-buffers), in
// PyTensor's sizing (equal to the oracle's fast_run) and in exact sizing (init_l rows
// where the reuse hazard is ruled out, init_l + 1 exactly where it is not). Every case
// runs before and after; buffer rows are checked against PyTensor's recorded figures.
#include "TestSuites.h"
#include "BuildCases.h"
#include "RewriteCheck.h"
#include "ScanRewriteTestUtil.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Rop.h"
#include "builder/Scan.h"
#include "exec/Executor.h"
#include "ops/ScanOp.h"
#include "rewrite/EquilibriumDriver.h"
#include "rewrite/Rewrites.h"
#include "rewrite/ScanRebuild.h"

#include <QtTest>

#include <functional>

using namespace tl;
using namespace tl::test;

using Rows = std::vector<int64_t>;
Q_DECLARE_METATYPE(Rows)

namespace {

// x' = x * 0.5 + 1 on a length-3 vector for `steps` steps: the trace without the initial row.
Var halfPlusOne(GraphBuilder& b, int steps = 10, int64_t n = 3) {
    Var x0 = b.input("x0", DType::Float64, {n});
    return scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[0] * 0.5 + 1}}; },
                ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nSteps = steps})
        .outputs[0];
}

// Two sit_sot states from x0 and y0 with the given step; both traces returned through `pick`.
BuildFn twoStates(StepFn step, std::function<std::vector<Var>(const std::vector<Var>&)> pick) {
    return [step, pick](GraphBuilder& b) {
        Var x0 = b.input("x0", DType::Float64, {3}), y0 = b.input("y0", DType::Float64, {3});
        return pick(scan(b, step, ScanArgs{.outputsInfo = {OutputInfo(x0), OutputInfo(y0)}, .nSteps = 10}).outputs);
    };
}

std::vector<Var> lastOfEach(const std::vector<Var>& v) {
    std::vector<Var> out;
    for (const Var& x : v) out.push_back(index(x, -1));
    return out;
}

Pipeline mergeThenSaveMem() {
    Pipeline p;
    std::vector<std::unique_ptr<GraphPass>> a, b;
    a.push_back(std::make_unique<EquilibriumDriver>("scan_merge_states", std::vector<std::string>{},
                                                    std::vector<const NodeRewrite*>{&scanMergeStates()}));
    b.push_back(std::make_unique<EquilibriumDriver>("scan_save_mem", std::vector<std::string>{},
                                                    std::vector<const NodeRewrite*>{&scanSaveMem()}));
    p.addPhase("scan_merge", std::move(a));
    p.addPhase("scan_save_mem", std::move(b));
    return p;
}

} // namespace

class TestScanSaveMem : public QObject {
    Q_OBJECT

private slots:
    void sizes_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<bool>("exact");
        QTest::addColumn<Rows>("rows");     // per traced state after the rewrite
        QTest::addColumn<Rows>("nitRows");  // per nit_sot after the rewrite
        QTest::addColumn<int>("steps");
        auto both = [](const char* name, BuildFn f, Rows exactRows, Rows pyRows, int steps, Rows nit = {}) {
            QTest::newRow((std::string(name) + " / exact").c_str()) << f << true << exactRows << nit << steps;
            QTest::newRow((std::string(name) + " / pytensor").c_str()) << f << false << pyRows << nit << steps;
        };
        both("sit_sot [-1]", [](GraphBuilder& b) { return std::vector<Var>{index(halfPlusOne(b), -1)}; }, {1}, {2}, 10);
        both("sit_sot [-2:]", [](GraphBuilder& b) { return std::vector<Var>{slice(halfPlusOne(b), -2, std::nullopt)}; }, {2}, {2}, 10);
        both("sit_sot [-3:]", [](GraphBuilder& b) { return std::vector<Var>{slice(halfPlusOne(b), -3, std::nullopt)}; }, {3}, {3}, 10);
        both("sit_sot [:5] (fewer steps)", [](GraphBuilder& b) { return std::vector<Var>{slice(halfPlusOne(b), std::nullopt, 5)}; },
             {6}, {6}, 5);
        both("sit_sot [3] (fewer steps, one row)", [](GraphBuilder& b) { return std::vector<Var>{index(halfPlusOne(b), 3)}; },
             {1}, {2}, 4);
        both("Fibonacci mit_sot [-1]", [](GraphBuilder& b) { return findExample("savemem_mitsot_fib_last")->build(b); }, {2}, {3}, 10);
        // Hazards: exact keeps init_l + 1 exactly where the oldest tap is read other than
        // elementwise, or by another state after its writer.
        both("x' = dot(W, x) [-1] (the writer reads the tap, not elementwise)", [](GraphBuilder& b) {
            Var x0 = b.input("x0", DType::Float64, {3}), w = b.input("W", DType::Float64, {3, 3});
            Var xs = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{dot(a[1], a[0])}}; },
                          ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nonSequences = {w}, .nSteps = 10}).outputs[0];
            return std::vector<Var>{index(xs, -1)};
        }, {2}, {2}, 10);
        both("x' = dot(W, x) * 0.5 [-1] (Dot runs before the writer)", [](GraphBuilder& b) {
            Var x0 = b.input("x0", DType::Float64, {3}), w = b.input("W", DType::Float64, {3, 3});
            Var xs = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{dot(a[1], a[0]) * 0.5}}; },
                          ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nonSequences = {w}, .nSteps = 10}).outputs[0];
            return std::vector<Var>{index(xs, -1)};
        }, {1}, {2}, 10);
        both("y' = y + x * x' (reads x's tap after x's writer)", twoStates([](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
            Var x = exp(a[0]) * 0.5;
            return {{x, a[1] + a[0] * x}};
        }, lastOfEach), {2, 1}, {2, 2}, 10);
        both("y' = y * 0.5 + x (x's tap read before x's writer)", twoStates([](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
            return {{exp(a[0]) * 0.5, a[1] * 0.5 + a[0]}};
        }, lastOfEach), {1, 1}, {2, 2}, 10);
        both("x unused but read by y's step", twoStates([](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
            return {{a[0] * 0.5 + 1, a[1] + a[0]}};
        }, [](const std::vector<Var>& v) { return std::vector<Var>{index(v[1], -1)}; }), {1, 1}, {2, 2}, 10);
        both("y unused and unread: removed", twoStates([](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
            return {{a[0] * 0.5 + 1, a[1] * 2}};
        }, [](const std::vector<Var>& v) { return std::vector<Var>{index(v[0], -1)}; }), {1}, {2}, 10);
        both("nit_sot [-1]", [](GraphBuilder& b) {
            Var xs = b.input("xs", DType::Float64, {6, 3});
            Var ys = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{exp(a[0])}}; },
                          ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo::none()}}).outputs[0];
            return std::vector<Var>{index(ys, -1)};
        }, {}, {}, 6, {1});
        both("nit_sot [:3] (fewer steps)", [](GraphBuilder& b) {
            Var xs = b.input("xs", DType::Float64, {6, 3});
            Var ys = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{exp(a[0])}}; },
                          ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo::none()}}).outputs[0];
            return std::vector<Var>{slice(ys, std::nullopt, 3)};
        }, {}, {}, 3, {3});
        both("while loop [-1]", [](GraphBuilder& b) {
            Var x0 = b.input("x0", DType::Float64, {3});
            Var xs = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                         Var x = a[0] * 1.5 + 0.25;
                         return {{x}, {}, gt(sum(x), 30.0)};
                     }, ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nSteps = 40}).outputs[0];
            return std::vector<Var>{index(xs, -1)};
        }, {1}, {2}, 40);
        // ---- nothing to save
        both("not: full trace", [](GraphBuilder& b) { return std::vector<Var>{halfPlusOne(b)}; }, {11}, {11}, 10);
        both("not: sum over the trace", [](GraphBuilder& b) { return std::vector<Var>{sum(halfPlusOne(b))}; }, {11}, {11}, 10);
        both("not: while loop, full trace", [](GraphBuilder& b) {
            Var x0 = b.input("x0", DType::Float64, {3});
            return scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                       Var x = a[0] * 1.5 + 0.25;
                       return {{x}, {}, gt(sum(x), 30.0)};
                   }, ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nSteps = 40}).outputs;
        }, {41}, {41}, 40);
        both("symbolic n_steps [-1] (tst_rw_scan_save_mem_symbolic has more)", [](GraphBuilder& b) {
            Var x0 = b.input("x0", DType::Float64, {3});
            Var n = b.input("n", DType::Int64, {});
            Var xs = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[0] * 0.5}}; },
                          ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nSteps = IntArg(n)}).outputs[0];
            return std::vector<Var>{index(xs, -1)};
        }, {1}, {2}, -1);
    }

    void sizes() {
        QFETCH(BuildFn, graph);
        QFETCH(bool, exact);
        QFETCH(Rows, rows);
        QFETCH(Rows, nitRows);
        QFETCH(int, steps);
        auto g = buildGraph(graph);
        std::vector<NDArray> inputs = randomInputs(*g, 7);
        for (size_t i = 0; i < inputs.size(); ++i)
            if (g->inputs()[i]->name() == "n") inputs[i] = NDArray::scalar(DType::Int64, 10);
        RewriteOutcome o = rewriteAndCompare(*g, singleRewrite(scanSaveMem()), bufferMode(exact), 1, 1e-12, 0.0, &inputs);
        QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
        auto scans = scanNodes(*o.after);
        QCOMPARE(scans.size(), size_t(1));
        const ScanInfo& info = scanOp(scans[0]).info();
        QCOMPARE(nSteps(scans[0]), int64_t(steps));
        QCOMPARE(static_cast<size_t>(info.nTracedStates()), rows.size());
        for (size_t s = 0; s < rows.size(); ++s) QCOMPARE(bufferRows(scans[0], static_cast<int>(s)), rows[s]);
        QCOMPARE(static_cast<size_t>(info.nNitSot), nitRows.size());
        for (size_t k = 0; k < nitRows.size(); ++k) QCOMPARE(nitSotRows(scans[0], static_cast<int>(k)), nitRows[k]);
        // Every changed buffer says which rule sized it.
        if (o.stepsOf("scan_save_mem") > 0) QVERIFY(!attributes(o.trace, "buffer_rule").empty());
    }

    // PyTensor's reference cases: pytensor mode equals fast_run, exact mode equals
    // no_prealloc (the hazard is absent in all of them), outputs equal PyTensor's.
    void oracle_data() {
        QTest::addColumn<QString>("name");
        for (const char* c : {"savemem_sitsot_last", "savemem_sitsot_last2", "savemem_sitsot_first5", "savemem_sitsot_full",
                              "savemem_mitsot_fib_last", "misc_running_sum", "pushout_seq"})
            QTest::newRow(c) << QString(c);
    }

    void oracle() {
        QFETCH(QString, name);
        const nlohmann::json e = oracleCase(name.toStdString());
        for (bool exact : {false, true}) {
            auto g = buildExample(name.toStdString());
            const std::vector<NDArray> inputs = oracleInputs(e, *g);
            RewriteOutcome o = rewriteAndCompare(*g, singleRewrite(scanSaveMem()), bufferMode(exact), 1, 1e-12, 0.0, &inputs);
            QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
            const std::string m = compareWithOracle(e, o.outputsAfter);
            QVERIFY2(m.empty(), m.c_str());
            const char* figures = exact ? "no_prealloc" : "fast_run";
            const Node* scan = scanNodes(*o.after).at(0);
            const Rows want = oracleBufferRows(e, figures);
            Rows got;
            for (int s = 0; s < scanOp(scan).info().nTracedStates(); ++s) got.push_back(bufferRows(scan, s));
            QCOMPARE(got, want);
            QCOMPARE(nSteps(scan), e[figures]["scans"][0]["n_steps"].get<int64_t>());
        }
    }

    // dup_last_only: merged, then one state of (1, 4) (exact) / (2, 4) (pytensor); PyTensor keeps two.
    void mergedThenShrunk() {
        const nlohmann::json e = oracleCase("dup_last_only");
        for (bool exact : {true, false}) {
            auto g = buildExample("dup_last_only");
            std::vector<NDArray> inputs = oracleInputs(e, *g);
            RewriteOutcome o = rewriteAndCompare(*g, mergeThenSaveMem(), bufferMode(exact), 1, 1e-12, 0.0, &inputs);
            QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
            QVERIFY(compareWithOracle(e, o.outputsAfter).empty());
            const Node* scan = scanNodes(*o.after).at(0);
            QCOMPARE(scanOp(scan).info().nTracedStates(), 1);
            QCOMPARE(bufferRows(scan, 0), int64_t(exact ? 1 : 2));
            QCOMPARE(bufferRows(scan, 0), oracleBufferRows(e, exact ? "no_prealloc" : "fast_run").at(0));
        }
    }

    // Seed example 1 as ScanMerge leaves it (primal, primal again, tangent): merged to
    // (x, dx), both buffers (1, 7) in exact mode, written in place every step.
    void seedRopShape() {
        auto g = buildGraph([](GraphBuilder& b) {
            Var x = b.input("x_init", DType::Float64, {7}), dx = b.input("x_init_tangent", DType::Float64, {7});
            ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& s) -> StepResult {
                return {{exp(s[0]) - 5, exp(s[1]) - 5, exp(s[1]) * s[2]}};
            }, ScanArgs{.outputsInfo = {OutputInfo(x), OutputInfo(x), OutputInfo(dx)}, .nSteps = 10});
            return std::vector<Var>{index(r.outputs[0], -1), index(r.outputs[2], -1)};
        });
        RewriteOutcome o = rewriteAndCompare(*g, mergeThenSaveMem(), bufferMode(true));
        QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
        const Node* scan = scanNodes(*o.after).at(0);
        QCOMPARE(scanOp(scan).info().nTracedStates(), 2);
        QCOMPARE(shapeText(*scan->input(1)), std::string("(1, 7)"));
        QCOMPARE(shapeText(*scan->input(2)), std::string("(1, 7)"));
        QCOMPARE(scanOp(scan).reuseProvenSafe(), std::vector<bool>({true, true}));
        ExecContext ctx;
        const auto inputs = randomInputs(*o.after, 1);
        runGraph(*o.after, inputs, ctx);
        QCOMPARE(ctx.stats().scanRowsInPlace, uint64_t(20));
    }

    // PyTensor's Rop builds the tangent buffer as SetSubtensor(Alloc(0, n + 1, L), init):
    // rebuilt at its new size, so the big zero-filled buffer and the peak disappear.
    void ropBufferRebuilt() {
        auto g = buildGraph([](GraphBuilder& b) {
            Var x = b.input("x_init", DType::Float64, {1000}), dx = b.input("x_init_tangent", DType::Float64, {1000});
            Var seq = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{exp(a[0] * 0.001) - 1}}; },
                           ScanArgs{.outputsInfo = {OutputInfo(x)}, .nSteps = 500}).outputs[0];
            Var last = index(seq, -1);
            return std::vector<Var>{last, rop(last, x, dx)};
        });
        bool sawAlloc = false;
        for (const Node* n : g->nodes()) sawAlloc |= n->op().kind() == OpKind::Alloc && n->output(0)->type().shape[0] == 501;
        QVERIFY(sawAlloc);
        RewriteOutcome o = rewriteAndCompare(*g, singleRewrite(scanSaveMem()), bufferMode(true));
        QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
        for (const Node* n : o.after->nodes())
            if (n->op().kind() == OpKind::Alloc || n->op().kind() == OpKind::AllocEmpty)
                QVERIFY2(n->output(0)->type().shape.empty() || n->output(0)->type().shape[0] <= 1, n->label().c_str());
        QVERIFY2(o.peakAfter * 20 < o.peakBefore,
                 (std::to_string(o.peakAfter) + " vs " + std::to_string(o.peakBefore)).c_str());
    }

    // Peak bytes of a long loop: the 2001-row trace buffer is gone.
    void peakBytes() {
        auto g = buildGraph([](GraphBuilder& b) { return std::vector<Var>{index(halfPlusOne(b, 2000, 1000), -1)}; });
        for (bool exact : {true, false}) {
            RewriteOutcome o = rewriteAndCompare(*g, singleRewrite(scanSaveMem()), bufferMode(exact));
            QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
            QVERIFY2(o.peakAfter * 100 < o.peakBefore,
                     (std::to_string(o.peakAfter) + " vs " + std::to_string(o.peakBefore)).c_str());
        }
    }

    // The whole FAST_RUN pipeline on the seed report's two programs
    // (docs/rewrites.md#on-the-seed-report).
    void fullPipelineSeed_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("exact");
        QTest::addColumn<Rows>("rows");
        QTest::newRow("seed example 1 (seq[-1] and its Rop) / exact") << "seed_rop" << true << Rows{1, 1};
        QTest::newRow("seed example 1 (seq[-1] and its Rop) / pytensor") << "seed_rop" << false << Rows{2, 2};
        QTest::newRow("seed example 2 (two identical traces) / exact") << "seed_dup" << true << Rows{11};
        QTest::newRow("seed example 2 (two identical traces) / pytensor") << "seed_dup" << false << Rows{11};
    }

    void fullPipelineSeed() {
        QFETCH(QString, name);
        QFETCH(bool, exact);
        QFETCH(Rows, rows);
        auto g = buildExample(name.toStdString());
        const nlohmann::json e = oracleCase(name.toStdString());
        std::vector<NDArray> inputs = oracleInputs(e, *g);
        RewriteOutcome o = rewriteAndCompare(*g, Pipeline::fastRun(), bufferMode(exact), 1, 1e-12, 0.0, &inputs);
        QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
        const std::string m = compareWithOracle(e, o.outputsAfter);
        QVERIFY2(m.empty(), m.c_str());
        auto scans = scanNodes(*o.after);
        QCOMPARE(scans.size(), size_t(1));
        Rows got;
        for (int s = 0; s < scanOp(scans[0]).info().nTracedStates(); ++s) got.push_back(bufferRows(scans[0], s));
        QCOMPARE(got, rows);
        // At least as good as PyTensor's FAST_RUN: no more states, no more rows per state.
        const Rows theirs = oracleBufferRows(e, "fast_run");
        QVERIFY(got.size() <= theirs.size());
        for (int64_t r : got) QVERIFY(r <= *std::min_element(theirs.begin(), theirs.end()));
        int exps = 0;
        for (const Node* n : scanOp(scans[0]).inner()->nodes()) {
            if (n->op().name() == "Exp") ++exps;
            if (auto inner = n->op().innerGraph())
                for (const Node* m : inner->nodes()) exps += m->op().name() == "exp";
        }
        QCOMPARE(exps, 1);
        if (name != "seed_rop" || !exact) return;
        QCOMPARE(countOps(*o.after, OpKind::DeepCopy), 0);
        // After fusion both writers are one two-output Composite reading both taps
        // elementwise: the executor still grants the proof, every new state is written in place.
        ExecContext ctx;
        runGraph(*o.after, inputs, ctx);
        QCOMPARE(ctx.stats().scanRowsInPlace, uint64_t(20));
        QCOMPARE(ctx.stats().scanRowsCopied, uint64_t(0));
    }

    // The rewrite's facts in the trace: n_steps, buffer_shape, buffer_rule with the reason.
    void traceFacts() {
        auto g = buildGraph([](GraphBuilder& b) { return std::vector<Var>{index(halfPlusOne(b), -1)}; });
        RewriteOutcome o = rewriteAndCompare(*g, singleRewrite(scanSaveMem()), bufferMode(true));
        QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
        QCOMPARE(attributes(o.trace, "buffer_shape"), std::vector<std::string>{"(11, 3) -> (1, 3)"});
        bool reason = false;
        for (const TraceStep& s : o.trace.steps())
            for (const AttributeChange& a : s.attributes)
                reason |= a.key == "buffer_rule" && a.detail.find("exact: 1 row(s), ") != std::string::npos;
        QVERIFY(reason);
        QCOMPARE(o.stepsOf("scan_save_mem"), 1);
    }
};

TL_TEST_SUITE(TestScanSaveMem)
#include "tst_rw_scan_save_mem.moc"
