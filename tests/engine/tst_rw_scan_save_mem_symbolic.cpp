// scan_save_mem with a symbolic n_steps
// (docs/rewrites/scan_save_mem.md#symbolic-n_steps): scans over sequences of unknown
// length (n_steps = Shape_i{0}(M), minimum(...) of two), or n given as an input. Each
// case is rewritten once and then run before and after on inputs of several lengths (1,
// shorter than the taps, 0 where the reads allow it), numbers compared.
#include "TestSuites.h"
#include "BuildCases.h"
#include "RewriteCheck.h"
#include "ScanRewriteTestUtil.h"
#include "SymbolicScanTestUtil.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Rop.h"
#include "builder/Scan.h"
#include "exec/Executor.h"
#include "io/JsonValues.h"
#include "ops/Elemwise.h"
#include "ops/ScanOp.h"
#include "rewrite/Rewrites.h"
#include "rewrite/ScanRebuild.h"

#include <QtTest>

#include <functional>

using namespace tl;
using namespace tl::test;

Q_DECLARE_METATYPE(Rows)

class TestScanSaveMemSymbolic : public QObject {
    Q_OBJECT

private slots:
    void sizes_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<bool>("exact");
        QTest::addColumn<Rows>("rows");      // per traced state after the rewrite (-1: symbolic)
        QTest::addColumn<Rows>("nitRows");   // per nit_sot after the rewrite
        QTest::addColumn<bool>("reduced");   // n_steps became minimum(n_steps, k)
        QTest::addColumn<Lengths>("lengths");
        auto both = [](const char* name, BuildFn f, Rows exactRows, Rows pyRows, Lengths lengths, Rows nit = {},
                       bool reduced = false) {
            QTest::newRow((std::string(name) + " / exact").c_str()) << f << true << exactRows << nit << reduced << lengths;
            QTest::newRow((std::string(name) + " / pytensor").c_str()) << f << false << pyRows << nit << reduced << lengths;
        };
        both("sit_sot [-1]", [](GraphBuilder& b) { return std::vector<Var>{index(runningHalf(b), -1)}; }, {1}, {2},
             {1, 2, 3, 9});
        both("sit_sot [-2:]", [](GraphBuilder& b) { return std::vector<Var>{slice(runningHalf(b), -2, std::nullopt)}; },
             {2}, {2}, {0, 1, 2, 3, 9});
        both("sit_sot [-3:]", [](GraphBuilder& b) { return std::vector<Var>{slice(runningHalf(b), -3, std::nullopt)}; },
             {3}, {3}, {0, 1, 2, 5});
        both("sit_sot [-4::2]", [](GraphBuilder& b) { return std::vector<Var>{slice(runningHalf(b), -4, std::nullopt, 2)}; },
             {4}, {4}, {0, 1, 2, 3, 4, 7});
        both("sit_sot [-3:-1]", [](GraphBuilder& b) { return std::vector<Var>{slice(runningHalf(b), -3, -1)}; },
             {3}, {3}, {0, 1, 2, 3, 4, 7});
        both("sit_sot [-5:-2:2]", [](GraphBuilder& b) { return std::vector<Var>{slice(runningHalf(b), -5, -2, 2)}; },
             {5}, {5}, {0, 1, 2, 3, 4, 5, 6, 9});
        // PyTensor's tests/scan/test_rewriting.py TestSaveMem.test_save_mem_store_steps: a map of
        // seven outputs over u of unknown length; PyTensor keeps 7, 3, 6 rows for the nit_sots
        // and 2 + 1, 1 + 1 for the states; x6, x7 are unused and dropped.
        both("PyTensor's test_save_mem_store_steps", [](GraphBuilder& b) {
            Var u = b.input("u", DType::Float64, {kUnknownDim});
            Var x10 = b.input("x10", DType::Float64, {2}), x20 = b.input("x20", DType::Float64, {});
            Var x30 = b.input("x30", DType::Float64, {2}), x40 = b.input("x40", DType::Float64, {});
            ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                const Var& ut = a[0];
                return {{ut + 1.0, ut + 2.0, ut + 3.0, ut + 4.0, ut + 5.0, ut + 6.0, ut + 7.0}};
            }, ScanArgs{.sequences = {u},
                        .outputsInfo = {OutputInfo::none(), OutputInfo::none(), OutputInfo::none(), OutputInfo(x10, {-1, -2}),
                                        OutputInfo(x20), OutputInfo(x30, {-1, -2}), OutputInfo(x40)}});
            const auto& x = r.outputs;
            return std::vector<Var>{index(x[0], -7), slice(x[1], -3, -1), slice(x[2], -6, std::nullopt), index(x[3], -1),
                                    index(x[4], -1)};
        }, {2, 1}, {3, 2}, {7, 8, 20}, {7, 3, 6});
        both("sit_sot [-2] and [-1]", [](GraphBuilder& b) {
            Var xs = runningHalf(b);
            return std::vector<Var>{index(xs, -2), index(xs, -1)};
        }, {2}, {2}, {2, 3, 8});
        both("raw sit_sot buffer [-1] (x0 itself when n = 0)", [](GraphBuilder& b) {
            Var x0 = b.input("x0", DType::Float64, {3});
            Var raw = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[1] * 0.5 + a[0]}}; },
                           ScanArgs{.sequences = {sequence(b)}, .outputsInfo = {OutputInfo(x0)}}).rawOutputs[0];
            return std::vector<Var>{index(raw, -1)};
        }, {1}, {2}, {0, 1, 2, 5});
        both("raw Fibonacci buffer [-2] (f0[0] when n = 0)", [](GraphBuilder& b) {
            Var f0 = b.input("f0", DType::Float64, {2, 3});
            Var raw = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[2] + a[1] * 0.5 + a[0]}}; },
                           ScanArgs{.sequences = {sequence(b)}, .outputsInfo = {OutputInfo(f0, {-2, -1})}}).rawOutputs[0];
            return std::vector<Var>{index(raw, -2)};
        }, {2}, {3}, {0, 1, 2, 5});
        both("Fibonacci mit_sot [-1]", [](GraphBuilder& b) { return std::vector<Var>{index(fibonacci(b), -1)}; }, {2}, {3},
             {1, 2, 3, 10});
        both("Fibonacci mit_sot [-3:]", [](GraphBuilder& b) { return std::vector<Var>{slice(fibonacci(b), -3, std::nullopt)}; },
             {3}, {3}, {0, 1, 2, 3, 10});
        both("nit_sot [-1]", [](GraphBuilder& b) {
            Var ys = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{exp(a[0])}}; },
                          ScanArgs{.sequences = {sequence(b)}, .outputsInfo = {OutputInfo::none()}}).outputs[0];
            return std::vector<Var>{index(ys, -1)};
        }, {}, {}, {1, 2, 6}, {1});
        both("nit_sot [-2:]", [](GraphBuilder& b) {
            Var ys = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{exp(a[0])}}; },
                          ScanArgs{.sequences = {sequence(b)}, .outputsInfo = {OutputInfo::none()}}).outputs[0];
            return std::vector<Var>{slice(ys, -2, std::nullopt)};
        }, {}, {}, {0, 1, 2, 6}, {2});
        both("two sequences, n = minimum(len M, len N), [-1]", [](GraphBuilder& b) {
            Var x0 = b.input("x0", DType::Float64, {3});
            Var xs = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[2] * 0.5 + a[0] - a[1]}}; },
                          ScanArgs{.sequences = {sequence(b, "M"), sequence(b, "N")}, .outputsInfo = {OutputInfo(x0)}})
                         .outputs[0];
            return std::vector<Var>{index(xs, -1)};
        }, {1}, {2}, {1, 4});
        both("n_steps an input, [-1]", [](GraphBuilder& b) {
            Var x0 = b.input("x0", DType::Float64, {3});
            Var n = b.input("n", DType::Int64, {});
            Var xs = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[0] * 0.5}}; },
                          ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nSteps = IntArg(n)}).outputs[0];
            return std::vector<Var>{index(xs, -1)};
        }, {1}, {2}, {1, 2, 10});
        both("sit_sot [-1] and nit_sot [-1], y unused state removed", [](GraphBuilder& b) {
            Var x0 = b.input("x0", DType::Float64, {3}), y0 = b.input("y0", DType::Float64, {3});
            ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                return {{a[1] * 0.5 + a[0], a[2] * 2.0, exp(a[1])}};
            }, ScanArgs{.sequences = {sequence(b)}, .outputsInfo = {OutputInfo(x0), OutputInfo(y0), OutputInfo::none()}});
            return std::vector<Var>{index(r.outputs[0], -1), index(r.outputs[2], -1)};
        }, {1}, {2}, {1, 3}, {1});
        both("x unused but read by y's step, y [-1]", [](GraphBuilder& b) {
            Var x0 = b.input("x0", DType::Float64, {3}), y0 = b.input("y0", DType::Float64, {3});
            ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                return {{a[1] * 0.5 + a[0], a[2] + a[1]}};
            }, ScanArgs{.sequences = {sequence(b)}, .outputsInfo = {OutputInfo(x0), OutputInfo(y0)}});
            return std::vector<Var>{index(r.outputs[1], -1)};
        }, {1, 1}, {2, 2}, {1, 2, 6});
        both("x unused but read by y's step, y [:3] (n_steps -> minimum(n, 3))", [](GraphBuilder& b) {
            Var x0 = b.input("x0", DType::Float64, {3}), y0 = b.input("y0", DType::Float64, {3});
            ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                return {{a[1] * 0.5 + a[0], a[2] + a[1]}};
            }, ScanArgs{.sequences = {sequence(b)}, .outputsInfo = {OutputInfo(x0), OutputInfo(y0)}});
            return std::vector<Var>{slice(r.outputs[1], std::nullopt, 3)};
        }, {1, -1}, {2, -1}, {0, 1, 2, 3, 6}, {}, true);
        both("while loop, n an input, [-1]", [](GraphBuilder& b) {
            Var x0 = b.input("x0", DType::Float64, {3});
            Var n = b.input("n", DType::Int64, {});
            Var xs = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                         Var x = a[0] * 1.5 + 0.25;
                         return {{x}, {}, gt(sum(x), 30.0)};
                     }, ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nSteps = IntArg(n)}).outputs[0];
            return std::vector<Var>{index(xs, -1)};
        }, {1}, {2}, {1, 2, 40});
        // n_steps reduction: minimum(n_steps, k); buffers stay symbolic (minimum(n, k) + init_l rows).
        both("sit_sot [:5] (n_steps -> minimum(n, 5))", [](GraphBuilder& b) {
            return std::vector<Var>{slice(runningHalf(b), std::nullopt, 5)};
        }, {-1}, {-1}, {0, 1, 4, 5, 6, 9}, {}, true);
        both("Fibonacci [2] (n_steps -> minimum(n, 3))", [](GraphBuilder& b) {
            return std::vector<Var>{index(fibonacci(b), 2)};
        }, {-1}, {-1}, {3, 4, 9}, {}, true);
        both("nit_sot [:3] (n_steps -> minimum(n, 3))", [](GraphBuilder& b) {
            Var ys = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{exp(a[0])}}; },
                          ScanArgs{.sequences = {sequence(b)}, .outputsInfo = {OutputInfo::none()}}).outputs[0];
            return std::vector<Var>{slice(ys, std::nullopt, 3)};
        }, {}, {}, {0, 1, 3, 7}, {-1}, true);
        // ---- must not fire
        both("not: full trace", [](GraphBuilder& b) { return std::vector<Var>{runningHalf(b)}; }, {-1}, {-1}, {0, 1, 4});
        both("not: read indexed by a symbolic value", [](GraphBuilder& b) {
            Var k = b.input("k", DType::Int64, {});
            return std::vector<Var>{index(runningHalf(b), IntArg(k))};
        }, {-1}, {-1}, {1, 4});
        both("not: sum over the trace", [](GraphBuilder& b) { return std::vector<Var>{sum(runningHalf(b))}; }, {-1}, {-1},
             {0, 1, 4});
        both("not: [-1] and [:2] of one trace", [](GraphBuilder& b) {
            Var xs = runningHalf(b);
            return std::vector<Var>{index(xs, -1), slice(xs, std::nullopt, 2)};
        }, {-1}, {-1}, {1, 2, 5});
        both("not: while loop [-2:] (more than one step guarantees)", [](GraphBuilder& b) {
            Var x0 = b.input("x0", DType::Float64, {3});
            Var n = b.input("n", DType::Int64, {});
            Var xs = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                         Var x = a[0] * 1.5 + 0.25;
                         return {{x}, {}, gt(sum(x), 30.0)};
                     }, ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nSteps = IntArg(n)}).outputs[0];
            return std::vector<Var>{slice(xs, -2, std::nullopt)};
        }, {-1}, {-1}, {1, 2, 40});
    }

    void sizes() {
        QFETCH(BuildFn, graph);
        QFETCH(bool, exact);
        QFETCH(Rows, rows);
        QFETCH(Rows, nitRows);
        QFETCH(bool, reduced);
        QFETCH(Lengths, lengths);
        auto g = buildGraph(graph);
        const auto inputs = inputsOfLength(*g, lengths.back(), 7);
        RewriteOutcome o = rewriteAndCompare(*g, singleRewrite(scanSaveMem()), bufferMode(exact), 1, 1e-12, 0.0, &inputs);
        QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
        const std::string m = compareOnLengths(o, lengths);
        QVERIFY2(m.empty(), m.c_str());
        auto scans = scanNodes(*o.after);
        QCOMPARE(scans.size(), size_t(1));
        const ScanInfo& info = scanOp(scans[0]).info();
        QCOMPARE(nSteps(scans[0]), int64_t(-1));
        QCOMPARE(isMinimum(scans[0]->input(0)), reduced);
        QCOMPARE(static_cast<size_t>(info.nTracedStates()), rows.size());
        for (size_t s = 0; s < rows.size(); ++s) QCOMPARE(bufferRows(scans[0], static_cast<int>(s)), rows[s]);
        QCOMPARE(static_cast<size_t>(info.nNitSot), nitRows.size());
        for (size_t k = 0; k < nitRows.size(); ++k) QCOMPARE(nitSotRows(scans[0], static_cast<int>(k)), nitRows[k]);
        const bool fires = reduced || std::any_of(rows.begin(), rows.end(), [](int64_t r) { return r >= 0; }) ||
                           std::any_of(nitRows.begin(), nitRows.end(), [](int64_t r) { return r >= 0; });
        QCOMPARE(o.stepsOf("scan_save_mem") > 0, fires);
        if (fires) {
            // The n_steps decision and every buffer's rule are in the trace.
            QVERIFY(!attributes(o.trace, "n_steps").empty());
            QVERIFY(!attributes(o.trace, "buffer_rule").empty());
        }
        // Idempotent: a second run finds nothing more to do.
        RewriteOutcome again = rewriteAndCompare(*o.after, singleRewrite(scanSaveMem()), bufferMode(exact), 1, 1e-12, 0.0, &inputs);
        QCOMPARE(again.stepsOf("scan_save_mem"), 0);
    }

    // A loop whose first output is passed on whole and whose second nobody reads:
    // passing the first on leaves the old loop unread, so it is pruned at once; the
    // rewrite must not look at the old loop's outputs after that (ASan caught it).
    void keptOutputBeforeARemovedOne() {
        for (bool exact : {true, false}) {
            auto g = buildGraph([](GraphBuilder& b) {
                ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{exp(a[0]), a[0] * 2.0}}; },
                                    ScanArgs{.sequences = {sequence(b)}, .outputsInfo = {OutputInfo::none(), OutputInfo::none()}});
                return std::vector<Var>{r.outputs[0]};
            });
            const auto inputs = inputsOfLength(*g, 4, 3);
            RewriteOutcome o = rewriteAndCompare(*g, singleRewrite(scanSaveMem()), bufferMode(exact), 1, 1e-12, 0.0, &inputs);
            QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
            const std::string m = compareOnLengths(o, {0, 1, 4});
            QVERIFY2(m.empty(), m.c_str());
            auto scans = scanNodes(*o.after);
            QCOMPARE(scans.size(), size_t(1));
            QCOMPARE(scanOp(scans[0]).info().nNitSot, 1);
        }
    }
};

TL_TEST_SUITE(TestScanSaveMemSymbolic)
#include "tst_rw_scan_save_mem_symbolic.moc"
