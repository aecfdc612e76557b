// scan_save_mem with a symbolic n_steps beyond single rewrites (the sizes are in
// tst_rw_scan_save_mem_symbolic.cpp): Rop's zero-filled buffers over a sequence,
// the whole FAST_RUN pipeline, a read that must keep failing on an empty trace, and
// the facts the trace records. Every graph runs before and after on several lengths.
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

namespace {
// x' = exp(0.1 x) - 1 + 0.1 m_t over M of unknown length; x[-1] and its Rop w.r.t. x_init.
std::vector<Var> lastAndItsRopOverSequence(GraphBuilder& b) {
    Var x = b.input("x_init", DType::Float64, {7}), dx = b.input("x_init_tangent", DType::Float64, {7});
    Var m = b.input("M", DType::Float64, {kUnknownDim, 7});
    Var seq = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                  return {{exp(a[1] * 0.1) - 1 + a[0] * 0.1}};
              }, ScanArgs{.sequences = {m}, .outputsInfo = {OutputInfo(x)}}).outputs[0];
    Var last = index(seq, -1);
    return {last, rop(last, x, dx)};
}
} // namespace

class TestScanSaveMemSymbolicPipeline : public QObject {
    Q_OBJECT

private slots:
    // Rop's tangent buffer SetSubtensor(Alloc(0, Shape_i{0}(AllocEmpty(n + 1, 7)), 7), dx):
    // rebuilt at the constant size with the primal's; outputs equal on every length.
    void ropOverSequence() {
        for (bool exact : {true, false}) {
            auto g = buildGraph(lastAndItsRopOverSequence);
            bool zeroFilled = false;
            for (const Node* n : g->nodes()) zeroFilled |= n->op().kind() == OpKind::Alloc;
            QVERIFY(zeroFilled);
            const auto inputs = inputsOfLength(*g, 6, 3);
            RewriteOutcome o = rewriteAndCompare(*g, singleRewrite(scanSaveMem()), bufferMode(exact), 1, 1e-12, 0.0, &inputs);
            QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
            const std::string m = compareOnLengths(o, {1, 2, 3, 50});
            QVERIFY2(m.empty(), m.c_str());
            const int64_t want = exact ? 1 : 2;
            for (const Node* scan : scanNodes(*o.after))
                for (int s = 0; s < scanOp(scan).info().nTracedStates(); ++s) QCOMPARE(bufferRows(scan, s), want);
            QVERIFY(bufferAllocsAtMost(*o.after, want));
            // The zero-filled buffer no longer grows with the sequence.
            const auto big = inputsOfLength(*g, 4000, 5);
            RunResult before = runGraph(*o.before, big), after = runGraph(*o.after, big);
            QVERIFY2(after.peakBytes * 4 < before.peakBytes,
                     (std::to_string(after.peakBytes) + " vs " + std::to_string(before.peakBytes)).c_str());
        }
    }

    // The whole FAST_RUN pipeline on seed example 1 over a sequence of unknown length:
    // one loop, states (x, dx), both buffers (1, 7) exact / (2, 7) pytensor.
    void fullPipelineRop() {
        for (bool exact : {true, false}) {
            auto g = buildGraph(lastAndItsRopOverSequence);
            const auto inputs = inputsOfLength(*g, 5, 2);
            RewriteOutcome o = rewriteAndCompare(*g, Pipeline::fastRun(), bufferMode(exact), 1, 1e-12, 0.0, &inputs);
            QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
            const std::string m = compareOnLengths(o, {1, 2, 17});
            QVERIFY2(m.empty(), m.c_str());
            auto scans = scanNodes(*o.after);
            QCOMPARE(scans.size(), size_t(1));
            // The Rop's zero tangent of the sequence, Alloc(0, Shape_i{0}(x[:n_steps]), 7), has
            // n_steps rows too: both loops' per-row work is pushed out alike, so the states merge.
            QCOMPARE(scanOp(scans[0]).info().nTracedStates(), 2);
            const std::string want = exact ? "(1, 7)" : "(2, 7)";
            for (int s = 0; s < 2; ++s) QCOMPARE(shapeText(*scans[0]->input(scanOp(scans[0]).info().outerInMitMot() + s)), want);
        }
    }

    // Through the whole FAST_RUN pipeline (shape, canonicalize, merge, fusion, inplace
    // around it): the buffers still shrink, the loop stays one, numbers agree on every length.
    void fullPipeline_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<bool>("exact");
        QTest::addColumn<Rows>("rows");
        QTest::addColumn<bool>("reduced");
        QTest::addColumn<Lengths>("lengths");
        auto both = [](const char* name, BuildFn f, Rows exactRows, Rows pyRows, Lengths lengths, bool reduced = false) {
            QTest::newRow((std::string(name) + " / exact").c_str()) << f << true << exactRows << reduced << lengths;
            QTest::newRow((std::string(name) + " / pytensor").c_str()) << f << false << pyRows << reduced << lengths;
        };
        both("sit_sot [-1]", [](GraphBuilder& b) { return std::vector<Var>{index(runningHalf(b), -1)}; }, {1}, {2}, {1, 2, 9});
        both("sit_sot [-3:]", [](GraphBuilder& b) { return std::vector<Var>{slice(runningHalf(b), -3, std::nullopt)}; },
             {3}, {3}, {0, 1, 2, 9});
        both("Fibonacci mit_sot [-1]", [](GraphBuilder& b) { return std::vector<Var>{index(fibonacci(b), -1)}; }, {2}, {3},
             {1, 2, 10});
        both("sit_sot [:5]", [](GraphBuilder& b) { return std::vector<Var>{slice(runningHalf(b), std::nullopt, 5)}; },
             {-1}, {-1}, {0, 1, 5, 9}, true);
        both("not: full trace", [](GraphBuilder& b) { return std::vector<Var>{runningHalf(b)}; }, {-1}, {-1}, {0, 1, 4});
    }

    void fullPipeline() {
        QFETCH(BuildFn, graph);
        QFETCH(bool, exact);
        QFETCH(Rows, rows);
        QFETCH(bool, reduced);
        QFETCH(Lengths, lengths);
        auto g = buildGraph(graph);
        const auto inputs = inputsOfLength(*g, lengths.back(), 4);
        RewriteOutcome o = rewriteAndCompare(*g, Pipeline::fastRun(), bufferMode(exact), 1, 1e-12, 0.0, &inputs);
        QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
        const std::string m = compareOnLengths(o, lengths);
        QVERIFY2(m.empty(), m.c_str());
        auto scans = scanNodes(*o.after);
        QCOMPARE(scans.size(), size_t(1));
        // Fusion folds minimum(n, k) and its + init_l into one Composite: read the trace.
        bool minimum = false;
        for (const std::string& a : attributes(o.trace, "n_steps")) minimum |= a.find("-> minimum(") != std::string::npos;
        QCOMPARE(minimum, reduced);
        QCOMPARE(static_cast<size_t>(scanOp(scans[0]).info().nTracedStates()), rows.size());
        for (size_t s = 0; s < rows.size(); ++s) QCOMPARE(bufferRows(scans[0], static_cast<int>(s)), rows[s]);
    }

    // x[-1] of an empty trace fails before the rewrite (index out of range); the small
    // buffer would hold x0 or unwritten rows, so the rewritten graph fails too (Assert).
    void emptyTraceStillFails() {
        for (bool exact : {true, false}) {
            auto g = buildGraph([](GraphBuilder& b) {
                Var xs = runningHalf(b);
                return std::vector<Var>{index(xs, -1), slice(xs, -2, std::nullopt)};
            });
            const auto inputs = inputsOfLength(*g, 3, 1);
            RewriteOutcome o = rewriteAndCompare(*g, singleRewrite(scanSaveMem()), bufferMode(exact), 1, 1e-12, 0.0, &inputs);
            QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
            QCOMPARE(bufferRows(scanNodes(*o.after).at(0), 0), int64_t(2));  // [-2:] needs two rows in both modes
            QCOMPARE(countOps(*o.after, OpKind::Assert), 1);
            const auto empty = inputsOfLength(*g, 0, 2);
            auto fails = [&](const Graph& graph) {
                try {
                    runGraph(graph, empty);
                } catch (const std::exception&) {
                    return true;
                }
                return false;
            };
            QVERIFY(fails(*o.before));
            QVERIFY(fails(*o.after));
            QVERIFY2(compareOnLengths(o, {1, 2, 6}).empty(), compareOnLengths(o, {1, 2, 6}).c_str());
        }
    }

    // The facts recorded: the buffer shape change, the rule, and why n_steps stays.
    void traceFacts() {
        auto g = buildGraph([](GraphBuilder& b) { return std::vector<Var>{index(runningHalf(b), -1)}; });
        const auto inputs = inputsOfLength(*g, 4, 1);
        RewriteOutcome o = rewriteAndCompare(*g, singleRewrite(scanSaveMem()), bufferMode(true), 1, 1e-12, 0.0, &inputs);
        QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
        QCOMPARE(attributes(o.trace, "buffer_shape"), std::vector<std::string>{"(?, 3) -> (1, 3)"});
        bool stepsReason = false, rule = false;
        for (const TraceStep& s : o.trace.steps())
            for (const AttributeChange& a : s.attributes) {
                stepsReason |= a.key == "n_steps" && a.detail.find("read from the end") != std::string::npos;
                rule |= a.key == "buffer_rule" && a.detail.find("exact: 1 row(s), ") != std::string::npos &&
                        a.detail.find("symbolic") != std::string::npos;
            }
        QVERIFY(stepsReason);
        QVERIFY(rule);
    }
};

TL_TEST_SUITE(TestScanSaveMemSymbolicPipeline)
#include "tst_rw_scan_save_mem_symbolic_pipeline.moc"
