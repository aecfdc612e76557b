// scan_merge_states: states of one Scan computing the same sequence become one
// (docs/semantics.md#duplicate-states). Firing and non-firing cases side by side, every
// one run before and after; the oracle cases also against PyTensor's numbers.
#include "TestSuites.h"
#include "BuildCases.h"
#include "RewriteCheck.h"
#include "ScanRewriteTestUtil.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Rop.h"
#include "builder/Scan.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>

using namespace tl;
using namespace tl::test;

namespace {

BuildFn example(const std::string& name) {
    return [name](GraphBuilder& b) { return findExample(name)->build(b); };
}

// A loop over `init` (one entry per state, sit_sot unless taps given) of `steps` steps.
ScanResult loop(GraphBuilder& b, std::vector<OutputInfo> info, StepFn step, int steps = 6,
                std::vector<Var> sequences = {}) {
    return scan(b, std::move(step), ScanArgs{.sequences = std::move(sequences), .outputsInfo = std::move(info), .nSteps = steps});
}

Var vec(GraphBuilder& b, const char* name, int64_t n = 4) { return b.input(name, DType::Float64, {n}); }

} // namespace

class TestScanMergeStates : public QObject {
    Q_OBJECT

private slots:
    void cases_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<int>("statesAfter");
        QTest::addColumn<int>("nitSotsAfter");
        QTest::addColumn<int>("merges");

        // ---- must merge
        QTest::newRow("seed example 2: two identical traces") << example("seed_dup") << 1 << 0 << 1;
        QTest::newRow("dup_affine") << example("dup_affine") << 1 << 0 << 1;
        QTest::newRow("dup_last_only") << example("dup_last_only") << 1 << 0 << 1;
        QTest::newRow("dup_mitsot_fib (mit_sot)") << example("dup_mitsot_fib") << 1 << 0 << 1;
        QTest::newRow("equal inits built twice") << BuildFn([](GraphBuilder& b) {
            Var a = vec(b, "a");
            return loop(b, {OutputInfo(exp(a)), OutputInfo(exp(a))}, [](GraphBuilder&, const std::vector<Var>& x) -> StepResult {
                       return {{x[0] * 0.5 + 1, x[1] * 0.5 + 1}};
                   }).outputs;
        }) << 1 << 0 << 1;
        QTest::newRow("mutually dependent pairs") << BuildFn([](GraphBuilder& b) {
            Var x0 = vec(b, "x0"), y0 = vec(b, "y0");
            // x' = 0.5 x + y, y' = 0.9 y - x, twice.
            return loop(b, {OutputInfo(x0), OutputInfo(y0), OutputInfo(x0), OutputInfo(y0)},
                        [](GraphBuilder&, const std::vector<Var>& s) -> StepResult {
                            return {{s[0] * 0.5 + s[1], s[1] * 0.9 - s[0], s[2] * 0.5 + s[3], s[3] * 0.9 - s[2]}};
                        }).outputs;
        }) << 2 << 0 << 2;
        QTest::newRow("cross-coupled x'=x+y, y'=y+x, x0=y0") << BuildFn([](GraphBuilder& b) {
            Var x0 = vec(b, "x0");
            return loop(b, {OutputInfo(x0), OutputInfo(x0)}, [](GraphBuilder&, const std::vector<Var>& s) -> StepResult {
                       return {{(s[0] + s[1]) * 0.25, (s[1] + s[0]) * 0.25}};
                   }).outputs;
        }) << 1 << 0 << 1;
        QTest::newRow("duplicate nit_sot") << BuildFn([](GraphBuilder& b) {
            Var xs = b.input("xs", DType::Float64, {6, 3});
            return loop(b, {OutputInfo::none(), OutputInfo::none()}, [](GraphBuilder&, const std::vector<Var>& s) -> StepResult {
                       return {{exp(s[0]) * 2, exp(s[0]) * 2}};
                   }, 6, {xs}).outputs;
        }) << 0 << 1 << 1;
        QTest::newRow("seed example 1 after ScanMerge (x, x, dx)") << BuildFn([](GraphBuilder& b) {
            Var x = b.input("x_init", DType::Float64, {7}), dx = b.input("x_init_tangent", DType::Float64, {7});
            ScanResult r = loop(b, {OutputInfo(x), OutputInfo(x), OutputInfo(dx)},
                                [](GraphBuilder&, const std::vector<Var>& s) -> StepResult {
                                    return {{exp(s[0]) - 5, exp(s[1]) - 5, exp(s[1]) * s[2]}};
                                }, 10);
            return std::vector<Var>{index(r.outputs[0], -1), index(r.outputs[2], -1)};
        }) << 2 << 0 << 1;
        QTest::newRow("while loop, equal states") << BuildFn([](GraphBuilder& b) {
            Var x0 = vec(b, "x0");
            return scan(b, [](GraphBuilder&, const std::vector<Var>& s) -> StepResult {
                       Var x = s[0] * 1.5 + 0.25;
                       return {{x, s[1] * 1.5 + 0.25}, {}, gt(sum(x), 20.0)};
                   }, ScanArgs{.outputsInfo = {OutputInfo(x0), OutputInfo(x0)}, .nSteps = 40})
                .outputs;
        }) << 1 << 0 << 1;

        // ---- must not merge
        QTest::newRow("not: dup_diff_update (same init, different updates)") << example("dup_diff_update") << 2 << 0 << 0;
        QTest::newRow("not: same update, different inits") << BuildFn([](GraphBuilder& b) {
            Var x0 = vec(b, "x0"), y0 = vec(b, "y0");
            return loop(b, {OutputInfo(x0), OutputInfo(y0)}, [](GraphBuilder&, const std::vector<Var>& s) -> StepResult {
                       return {{s[0] * 2 + 1, s[1] * 2 + 1}};
                   }).outputs;
        }) << 2 << 0 << 0;
        QTest::newRow("not: different taps") << BuildFn([](GraphBuilder& b) {
            Var x0 = vec(b, "x0", 3);
            return loop(b, {OutputInfo(x0, {-3, -1}), OutputInfo(x0, {-3, -2})},
                        [](GraphBuilder&, const std::vector<Var>& s) -> StepResult {
                            return {{s[0] + s[1], s[2] + s[3]}};
                        }).outputs;
        }) << 2 << 0 << 0;
        QTest::newRow("not: equal updates over states that differ") << BuildFn([](GraphBuilder& b) {
            // x1' = x1 + y, x2' = x2 + z: equal only if y = z, and y' = 2y, z' = 3z are not.
            Var x0 = vec(b, "x0"), y0 = vec(b, "y0");
            return loop(b, {OutputInfo(x0), OutputInfo(x0), OutputInfo(y0), OutputInfo(y0)},
                        [](GraphBuilder&, const std::vector<Var>& s) -> StepResult {
                            return {{s[0] + s[2], s[1] + s[3], s[2] * 2, s[3] * 3}};
                        }).outputs;
        }) << 4 << 0 << 0;
        QTest::newRow("not: while loop stopping on a state that differs") << BuildFn([](GraphBuilder& b) {
            Var x0 = vec(b, "x0");
            return scan(b, [](GraphBuilder&, const std::vector<Var>& s) -> StepResult {
                       Var y = s[1] * 1.5 + 0.5;
                       return {{s[0] * 1.5 + 0.25, y}, {}, gt(sum(y), 20.0)};
                   }, ScanArgs{.outputsInfo = {OutputInfo(x0), OutputInfo(x0)}, .nSteps = 40})
                .outputs;
        }) << 2 << 0 << 0;
        QTest::newRow("not: nit_sots over different sequences") << BuildFn([](GraphBuilder& b) {
            Var xs = b.input("xs", DType::Float64, {6, 3}), ys = b.input("ys", DType::Float64, {6, 3});
            return loop(b, {OutputInfo::none(), OutputInfo::none()}, [](GraphBuilder&, const std::vector<Var>& s) -> StepResult {
                       return {{exp(s[0]), exp(s[1])}};
                   }, 6, {xs, ys}).outputs;
        }) << 0 << 2 << 0;
    }

    void cases() {
        QFETCH(BuildFn, graph);
        QFETCH(int, statesAfter);
        QFETCH(int, nitSotsAfter);
        QFETCH(int, merges);
        auto g = buildGraph(graph);
        RewriteOutcome o = rewriteAndCompare(*g, singleRewrite(scanMergeStates()));
        QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
        auto scans = scanNodes(*o.after);
        QCOMPARE(scans.size(), size_t(1));
        const ScanInfo& info = scanOp(scans[0]).info();
        QCOMPARE(info.nTracedStates(), statesAfter);
        QCOMPARE(info.nNitSot, nitSotsAfter);
        QCOMPARE(static_cast<int>(attributes(o.trace, "merged_state").size()), merges);
        QCOMPARE(o.stepsOf("scan_merge_states"), merges > 0 ? 1 : 0);
        if (merges > 0) {
            // Provenance: the new loop is a clone of the old one.
            bool cloned = false;
            for (const TraceStep& s : o.trace.steps()) cloned |= s.clonedFrom.count(scans[0]->id()) > 0;
            QVERIFY(cloned);
        }
    }

    // The step of a merged loop computes each value once (one exp for seed example 2).
    void seedDupComputesExpOnce() {
        auto g = buildExample("seed_dup");
        RewriteOutcome o = rewriteAndCompare(*g, singleRewrite(scanMergeStates()));
        QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
        const Node* scan = scanNodes(*o.after).at(0);
        QCOMPARE(innerNamed(scan, "Exp"), 1);
        QCOMPARE(bufferRows(scan, 0), int64_t(11));
        // Both graph outputs now come from the one state.
        const Variable* a = o.after->output(0)->owner()->input(0);
        const Variable* b = o.after->output(1)->owner()->input(0);
        QCOMPARE(a, b);
        QCOMPARE(attributes(o.trace, "merged_state"), std::vector<std::string>{"sit_sot-1 -> sit_sot-0"});
    }

    // Mutually dependent pairs: the survivors' step reads only survivors.
    void survivorsReadSurvivors() {
        auto g = buildGraph([](GraphBuilder& b) {
            Var x0 = vec(b, "x0"), y0 = vec(b, "y0");
            return loop(b, {OutputInfo(x0), OutputInfo(y0), OutputInfo(x0), OutputInfo(y0)},
                        [](GraphBuilder&, const std::vector<Var>& s) -> StepResult {
                            return {{s[0] * 0.5 + s[1], s[1] * 0.9 - s[0], s[2] * 0.5 + s[3], s[3] * 0.9 - s[2]}};
                        })
                .outputs;
        });
        RewriteOutcome o = rewriteAndCompare(*g, singleRewrite(scanMergeStates()));
        QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
        const Node* scan = scanNodes(*o.after).at(0);
        const Graph& inner = *scanOp(scan).inner();
        QCOMPARE(inner.inputs().size(), size_t(2));
        QCOMPARE(inner.outputs().size(), size_t(2));
        QVERIFY(inner.validate().empty());
        // Graph outputs 2 and 3 (the duplicates' traces) read the survivors' outputs.
        QCOMPARE(o.after->output(2)->owner()->input(0), o.after->output(0)->owner()->input(0));
        QCOMPARE(o.after->output(3)->owner()->input(0), o.after->output(1)->owner()->input(0));
    }

    // PyTensor's reference cases: merged where they should be, never where they should
    // not, and the outputs equal PyTensor's.
    void oracle_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("statesAfter");
        QTest::newRow("seed_dup") << "seed_dup" << 1;
        QTest::newRow("dup_affine") << "dup_affine" << 1;
        QTest::newRow("dup_last_only") << "dup_last_only" << 1;
        QTest::newRow("dup_mitsot_fib") << "dup_mitsot_fib" << 1;
        QTest::newRow("dup_diff_update") << "dup_diff_update" << 2;
    }

    void oracle() {
        QFETCH(QString, name);
        QFETCH(int, statesAfter);
        const nlohmann::json e = oracleCase(name.toStdString());
        auto g = buildExample(name.toStdString());
        const std::vector<NDArray> inputs = oracleInputs(e, *g);
        RewriteOutcome o = rewriteAndCompare(*g, singleRewrite(scanMergeStates()), {}, 1, 1e-12, 0.0, &inputs);
        QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
        const std::string m = compareWithOracle(e, o.outputsAfter);
        QVERIFY2(m.empty(), m.c_str());
        const Node* scan = scanNodes(*o.after).at(0);
        QCOMPARE(scanOp(scan).info().nTracedStates(), statesAfter);
        // At least as good as PyTensor: never more states than its fast_run loop keeps.
        QVERIFY(statesAfter <= static_cast<int>(oracleBufferRows(e, "fast_run").size()));
    }

    // A loop without duplicates is left alone, and says why under --explain.
    void explainsWhyNot() {
        auto g = buildExample("dup_diff_update");
        PipelineOptions opts;
        opts.explain = true;
        RewriteOutcome o = rewriteAndCompare(*g, singleRewrite(scanMergeStates()), opts);
        QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
        QCOMPARE(o.trace.size(), size_t(0));
        bool found = false;
        for (const auto& [k, fails] : o.trace.failures())
            for (const MatchFailure& f : fails) found |= f.rewrite == "scan_merge_states" && f.reason.find("different updates") != std::string::npos;
        QVERIFY(found);
    }
};

TL_TEST_SUITE(TestScanMergeStates)
#include "tst_rw_scan_merge_states.moc"
