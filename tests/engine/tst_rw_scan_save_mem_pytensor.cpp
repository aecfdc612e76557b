// scan_save_mem's `pytensor` mode follows PyTensor's own rules where tensorlens's
// exact analysis would do better (docs/rewrites/scan_save_mem.md#pytensor-mode):
// steps are cut to the reads' stops as written, not to the last rows they read (a
// slice running to the end of the trace keeps every step), and a gradient loop's mit_mot states
// keep their buffers while its other states shrink. A truncated gradient's nit_sot
// (PyTensor's truncate_gradient) is longer than its loop's steps, and its rows past
// them are zeros that the gradient reads: it keeps its length in both modes.
// Positive and negative cases, each run before and after.
#include "TestSuites.h"
#include "BuildCases.h"
#include "RewriteCheck.h"
#include "ScanRewriteTestUtil.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Scan.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

// x' = tanh(x * 0.9 + 0.1), 10 steps, its trace (without the initial row) read by `reads`.
BuildFn readTrace(std::function<std::vector<Var>(Var)> reads) {
    return [reads](GraphBuilder& b) {
        Var x0 = b.input("x0", DType::Float64, {3});
        ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& s) -> StepResult { return {{tanh(s[0] * 0.9 + 0.1)}}; },
                            ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nSteps = 10});
        return reads(r.outputs[0]);
    };
}

// y_t = exp(xs[t]) for 3 steps into a nit_sot buffer of 10 rows, as PyTensor's
// truncated gradients size theirs: rows 3..9 stay zero. `reads` reads the buffer.
BuildFn longNitSot(std::function<std::vector<Var>(Var)> reads) {
    return [reads](GraphBuilder& b) {
        Var xs = b.input("xs", DType::Float64, {3, 2});
        ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{exp(a[0])}}; },
                            ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo::none()}});
        const ScanInfo& info = static_cast<const ScanOp&>(r.node->op()).info();
        std::vector<Var> inputs;
        for (Variable* in : r.node->inputs()) inputs.emplace_back(&b, in);
        Var& length = inputs[info.outerInNitSot()];
        length = b.constant(NDArray::scalar(length.dtype(), 10), length.type());
        return reads(b.apply(r.node->opPtr(), inputs).at(info.outerOutNitSot()));
    };
}

} // namespace

class TestScanSaveMemPyTensor : public QObject {
    Q_OBJECT

private slots:
    void steps_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<bool>("exact");
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("rows");
        auto openEnded = readTrace([](Var xs) {
            return std::vector<Var>{slice(slice(xs, -6, std::nullopt), std::nullopt, std::nullopt, 2), index(xs, -2)};
        });
        auto stopped = readTrace([](Var xs) { return std::vector<Var>{slice(xs, std::nullopt, 5)}; });
        // PyTensor 2.34: 10 steps and 6 rows for [-6:][::2] with [-2] (tests/data/scan_parity/scan_nested_slices).
        QTest::newRow("pytensor: a slice to the end keeps every step") << openEnded << false << 10 << 6;
        QTest::newRow("exact: the last row read is row 9, so 9 steps") << openEnded << true << 9 << 5;
        // The same rows as PyTensor's local_subtensor_merge writes them: a stop at the end of
        // the trace is no stop for PyTensor (its graph before scan_save_mem, same case).
        auto mergedToTheEnd = readTrace([](Var xs) { return std::vector<Var>{slice(xs, 6, 10, 2)}; });
        auto mergedShort = readTrace([](Var xs) { return std::vector<Var>{slice(xs, 5, 9, 2)}; });
        QTest::newRow("pytensor: a stop at the trace's end keeps every step") << mergedToTheEnd << false << 10 << 4;
        QTest::newRow("exact: rows 7 and 9 of the trace, so 9 steps") << mergedToTheEnd << true << 9 << 3;
        QTest::newRow("pytensor: a stop before the end cuts to it, not to the last row read") << mergedShort << false << 9 << 4;
        QTest::newRow("exact: rows 6 and 8, so 8 steps") << mergedShort << true << 8 << 3;
        QTest::newRow("pytensor: a read with a stop still cuts the loop") << stopped << false << 5 << 6;
        QTest::newRow("exact: the same") << stopped << true << 5 << 6;
    }

    void steps() {
        QFETCH(BuildFn, graph);
        QFETCH(bool, exact);
        QFETCH(int, steps);
        QFETCH(int, rows);
        auto g = buildGraph(graph);
        RewriteOutcome o = rewriteAndCompare(*g, singleRewrite(scanSaveMem()), bufferMode(exact));
        QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
        const Node* scan = scanNodes(*o.after).at(0);
        QCOMPARE(nSteps(scan), int64_t(steps));
        QCOMPARE(bufferRows(scan, 0), int64_t(rows));
    }

    void nitSotLongerThanItsSteps_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<bool>("exact");
        QTest::addColumn<int>("rows");  // nit_sot rows after the rewrite
        auto whole = longNitSot([](Var ys) { return std::vector<Var>{ys}; });
        auto last = longNitSot([](Var ys) { return std::vector<Var>{index(ys, -1), index(ys, 1)}; });
        for (bool exact : {false, true}) {
            const std::string mode = exact ? "exact: " : "pytensor: ";
            QTest::newRow((mode + "read whole, it keeps its 10 rows").c_str()) << whole << exact << 10;
            QTest::newRow((mode + "rows 9 and 1 read, it keeps its 10 rows").c_str()) << last << exact << 10;
        }
        // The same loop with a buffer as long as its steps: the reads decide (the positive case).
        QTest::newRow("exact: 3 rows for 3 steps, row 2 read: 1 row") << BuildFn([](GraphBuilder& b) {
            Var xs = b.input("xs", DType::Float64, {3, 2});
            Var ys = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{exp(a[0])}}; },
                          ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo::none()}}).outputs[0];
            return std::vector<Var>{index(ys, -1)};
        }) << true << 1;
    }

    void nitSotLongerThanItsSteps() {
        QFETCH(BuildFn, graph);
        QFETCH(bool, exact);
        QFETCH(int, rows);
        auto g = buildGraph(graph);
        RewriteOutcome o = rewriteAndCompare(*g, singleRewrite(scanSaveMem()), bufferMode(exact));
        QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
        const std::vector<const Node*> scans = scanNodes(*o.after);
        QCOMPARE(scans.size(), size_t(1));
        QCOMPARE(nSteps(scans[0]), int64_t(3));
        QCOMPARE(nitSotRows(scans[0], 0), int64_t(rows));
    }
};

TL_TEST_SUITE(TestScanSaveMemPyTensor)
#include "tst_rw_scan_save_mem_pytensor.moc"
