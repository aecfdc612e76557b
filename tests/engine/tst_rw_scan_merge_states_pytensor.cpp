// scan_merge_states on loops shaped as PyTensor leaves them (docs/rewrites/scan_merge_states.md):
// buffers another rewrite already sized differently, initial values wrapped in
// SpecifyShape / Unbroadcast / DeepCopyOp, updates fused into different Composites,
// and the seed report's own compiled listing. Firing and not firing, every graph
// run before and after.
#include "TestSuites.h"
#include "TestSupport.h"
#include "BuildCases.h"
#include "RewriteCheck.h"
#include "ScanRewriteTestUtil.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Scan.h"
#include "compare/GraphSummary.h"
#include "io/DPrintImport.h"
#include "rewrite/EquilibriumDriver.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <algorithm>

using namespace tl;
using namespace tl::test;

namespace {

Var vec(GraphBuilder& b, const char* name, int64_t n = 4) { return b.input(name, DType::Float64, {n}); }

// Two copies of x' = 0.5 x + 1 from `a` and `b`, `steps` steps, read through `readA` / `readB`.
BuildFn twin(std::function<Var(GraphBuilder&, Var)> initB, std::function<Var(Var)> readA, std::function<Var(Var)> readB,
             bool whileLoop = false) {
    return [=](GraphBuilder& g) {
        Var x0 = vec(g, "x0");
        ScanArgs args{.outputsInfo = {OutputInfo(x0), OutputInfo(initB(g, x0))}, .nSteps = 8};
        ScanResult r = scan(g, [whileLoop](GraphBuilder&, const std::vector<Var>& s) -> StepResult {
            Var a = s[0] * 0.5 + 1, b = s[1] * 0.5 + 1;
            if (whileLoop) return {{a, b}, {}, gt(sum(a), 100.0)};
            return {{a, b}};
        }, args);
        return std::vector<Var>{readA(r.outputs[0]), readB(r.outputs[1])};
    };
}

Var last(Var x) { return index(x, -1); }
Var lastThree(Var x) { return slice(x, -3, std::nullopt); }

// scan_save_mem first (which sizes the two buffers differently), then scan_merge_states.
Pipeline sizeThenMerge() {
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(std::make_unique<EquilibriumDriver>("scan_save_mem", std::vector<std::string>{"scan"},
                                                         std::vector<const NodeRewrite*>{&scanSaveMem()}));
    passes.push_back(std::make_unique<EquilibriumDriver>("scan_merge_states", std::vector<std::string>{"scan"},
                                                         std::vector<const NodeRewrite*>{&scanMergeStates()}));
    return singlePhase("size_then_merge", std::move(passes));
}

std::string whyNot(const Trace& t) {
    std::string s;
    for (const auto& [k, fails] : t.failures())
        for (const MatchFailure& f : fails)
            if (f.rewrite == "scan_merge_states") s += f.reason + "\n";
    return s;
}

} // namespace

class TestScanMergeStatesPyTensor : public QObject {
    Q_OBJECT

private slots:
    void merges_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<int>("statesAfter");
        QTest::addColumn<QString>("why");  // the reason recorded when it does not merge
        auto same = [](GraphBuilder&, Var x0) { return x0; };
        QTest::newRow("buffers of 1 and 3 rows, both read: the shorter is the longer's last rows")
            << twin(same, last, lastThree) << 1 << "";
        QTest::newRow("initial value under SpecifyShape") << twin([](GraphBuilder&, Var x0) { return specifyShape(x0, {4}); }, last, last)
                                                          << 1 << "";
        QTest::newRow("initial value under a DeepCopyOp") << twin([](GraphBuilder&, Var x0) { return deepCopy(x0); }, lastThree, last)
                                                          << 1 << "";
        QTest::newRow("not: initial values that only compute the same numbers")
            << twin([](GraphBuilder&, Var x0) { return x0 * 1.0; }, last, last) << 2 << "equal taps, types and initial values";
        QTest::newRow("not: a while loop whose buffers differ and are both read")
            << twin(same, last, [](Var x) { return slice(x, 1, std::nullopt); }, true) << 2 << "both are read";
    }

    void merges() {
        QFETCH(BuildFn, graph);
        QFETCH(int, statesAfter);
        QFETCH(QString, why);
        auto g = buildGraph(graph);
        PipelineOptions opts;
        opts.explain = true;
        RewriteOutcome o = rewriteAndCompare(*g, sizeThenMerge(), opts);
        QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
        const Node* scan = scanNodes(*o.after).at(0);
        QCOMPARE(scanOp(scan).info().nTracedStates(), statesAfter);
        if (!why.isEmpty()) QVERIFY2(whyNot(o.trace).find(why.toStdString()) != std::string::npos, whyNot(o.trace).c_str());
    }

    // Updates PyTensor fused into different Composites (the seed's Rop step): the
    // Composites are opened, the states merge and the step computes exp once.
    void fusedUpdatesMerge() {
        auto g = buildGraph([](GraphBuilder& b) {
            Var x = b.input("x_init", DType::Float64, {7}), dx = b.input("x_init_tangent", DType::Float64, {7});
            ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& s) -> StepResult {
                return {{exp(s[0]) - 5, exp(s[1]) - 5, exp(s[1]) * s[2]}};
            }, ScanArgs{.outputsInfo = {OutputInfo(x), OutputInfo(x), OutputInfo(dx)}, .nSteps = 10});
            return std::vector<Var>{index(r.outputs[0], -1), index(r.outputs[2], -1)};
        });
        std::vector<std::unique_ptr<GraphPass>> passes;
        passes.push_back(makeScanInnerRewrites(InnerRewriteStage::Late));  // fuses the step, as PyTensor compiles it
        passes.push_back(std::make_unique<EquilibriumDriver>("scan_merge_states", std::vector<std::string>{"scan"},
                                                             std::vector<const NodeRewrite*>{&scanMergeStates()}));
        passes.push_back(makeScanInnerRewrites(InnerRewriteStage::Late));  // and fuses it again
        RewriteOutcome o = rewriteAndCompare(*g, singlePhase("fused", std::move(passes)));
        QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
        const Node* scan = scanNodes(*o.after).at(0);
        QCOMPARE(scanOp(scan).info().nTracedStates(), 2);
        QCOMPARE(stepCost(*scanOp(scan).inner()).exps, 1);
        const auto merged = attributes(o.trace, "merged_state");
        QCOMPARE(merged.size(), size_t(1));
    }

    // The seed report's first listing, PyTensor's compiled graph as pasted from the
    // issue: buffers of 2 and 1 rows for the duplicated state, initial values under
    // SpecifyShape(Unbroadcast(ExpandDims(x_init))). The whole pipeline merges the
    // states and shrinks both buffers that are left to one row; exp once per step.
    void seedListing() {
        DPrintImport imp = importDprint(seedDprintListing(1), "seed-listing-1");
        RewriteOutcome o = rewriteAndCompare(*imp.graph, Pipeline::fastRun());
        QVERIFY2(o.mismatch.empty(), o.mismatch.c_str());
        QCOMPARE(o.stepsOf("scan_merge_states"), 1);
        const auto shapes = attributes(o.trace, "buffer_shape");
        QCOMPARE(std::count(shapes.begin(), shapes.end(), std::string("(2, 7) -> (1, 7)")), std::ptrdiff_t(2));
        const Node* scan = scanNodes(*o.after).at(0);
        QCOMPARE(scanOp(scan).info().nTracedStates(), 2);
        QCOMPARE(stepCost(*scanOp(scan).inner()).exps, 1);
        for (int s = 0; s < 2; ++s) QCOMPARE(bufferRows(scan, s), int64_t(1));
    }
};

TL_TEST_SUITE(TestScanMergeStatesPyTensor)
#include "tst_rw_scan_merge_states_pytensor.moc"
