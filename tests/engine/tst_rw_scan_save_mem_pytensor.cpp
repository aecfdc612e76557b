// scan_save_mem's `pytensor` mode follows PyTensor's own rules where tensorlens's
// exact analysis would do better (docs/rewrites/scan_save_mem.md#pytensor-mode):
// steps are cut to the reads' stops as written, not to the last rows they read (a
// slice running to the end of the trace keeps every step), and a gradient loop's mit_mot states
// keep their buffers while its other states shrink. Positive and negative cases,
// each run before and after.
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
};

TL_TEST_SUITE(TestScanSaveMemPyTensor)
#include "tst_rw_scan_save_mem_pytensor.moc"
