// scan_inner_rewrites: every Scan's step goes through Pipeline::innerGraph()
// (merge, canonicalize, ..., specialize, fusion) and the rewritten step replaces the old one.
// Firing and non-firing cases side by side, every one run before and after.
#include "TestSuites.h"
#include "FusionTestUtil.h"
#include "BuildCases.h"
#include "RewriteCheck.h"
#include "builder/Examples.h"
#include "builder/Indexing.h"
#include "builder/Linalg.h"
#include "builder/Scan.h"
#include "ops/ScanOp.h"
#include "analysis/FusionGroups.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

Pipeline innerOnly(InnerRewriteStage stage) {
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(makeScanInnerRewrites(stage));
    return singlePhase(stage == InnerRewriteStage::Early ? "canonicalize" : "fusion", std::move(passes));
}

std::vector<const Node*> scans(const Graph& g) {
    std::vector<const Node*> out;
    for (const Node* n : g.nodes())
        if (n->op().kind() == OpKind::Scan) out.push_back(n);
    return out;
}

const ScanOp& scanOf(const Node* n) { return static_cast<const ScanOp&>(n->op()); }

Var vec(GraphBuilder& b, const char* name) { return b.input(name, DType::Float64, {7}); }

// The seed's step after Rop: x' = exp(x) - 5, dx' = exp(x) * dx (exp written twice).
ScanResult seedStep(GraphBuilder& b) {
    return scan(b, [](GraphBuilder&, const std::vector<Var>& s) -> StepResult {
        return {{exp(s[0]) - 5, exp(s[0]) * s[1]}};
    }, ScanArgs{.outputsInfo = {OutputInfo(vec(b, "x0")), OutputInfo(vec(b, "dx0"))}, .nSteps = 10});
}

} // namespace

class TestScanInner : public QObject {
    Q_OBJECT

private slots:
    void cases_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<int>("stepElemwise");  // Elemwise nodes in the step afterwards
        QTest::addColumn<int>("stepExp");       // exp applications in the step afterwards
        QTest::addColumn<int>("steps");

        QTest::newRow("seed step: one Composite, exp once") << BuildFn([](GraphBuilder& b) {
            ScanResult r = seedStep(b);
            return std::vector<Var>{index(r.outputs[0], -1), index(r.outputs[1], -1)};
        }) << 1 << 1 << 1;
        QTest::newRow("step with a sequence and a non-sequence") << BuildFn([](GraphBuilder& b) {
            Var xs = b.input("xs", DType::Float64, {5, 7});
            Var w = vec(b, "w");
            ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                return {{tanh(a[0] * a[2]) + a[1] * 0.5}};
            }, ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo(vec(b, "h0"))}, .nonSequences = {w}});
            return std::vector<Var>{r.outputs[0]};
        }) << 1 << 0 << 1;
        QTest::newRow("a step of one op is left alone") << BuildFn([](GraphBuilder& b) {
            ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& s) -> StepResult { return {{sin(s[0])}}; },
                                ScanArgs{.outputsInfo = {OutputInfo(vec(b, "x0"))}, .nSteps = 4});
            return std::vector<Var>{r.outputs[0]};
        }) << 1 << 0 << 0;
        QTest::newRow("ops split by a reduction stay apart") << BuildFn([](GraphBuilder& b) {
            ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& s) -> StepResult {
                Var e = exp(s[0] * 0.1);
                return {{e / sum(e)}};
            }, ScanArgs{.outputsInfo = {OutputInfo(vec(b, "x0"))}, .nSteps = 4});
            return std::vector<Var>{r.outputs[0]};
        }) << 2 << 1 << 1;
    }

    void cases() {
        QFETCH(BuildFn, graph);
        QFETCH(int, stepElemwise);
        QFETCH(int, stepExp);
        QFETCH(int, steps);
        auto g = buildGraph(graph);
        RewriteOutcome r = rewriteAndCompare(*g, innerOnly(InnerRewriteStage::Late));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(r.stepsOf("scan_inner_rewrites"), steps);
        const auto loops = scans(*r.after);
        QCOMPARE(loops.size(), size_t(1));
        const Graph& step = *scanOf(loops[0]).inner();
        QCOMPARE(countElemwise(step), stepElemwise);
        QCOMPARE(scalarOpCount(step, ScalarOpCode::Exp), stepExp);
        // The loop keeps its interface.
        const Node* before = scans(*r.before)[0];
        QCOMPARE(loops[0]->id(), before->id());
        QCOMPARE(loops[0]->numInputs(), before->numInputs());
        QCOMPARE(scanOf(loops[0]).info(), scanOf(before).info());
        for (const TraceStep& s : r.trace.steps()) QCOMPARE(s.attributes.at(0).key, std::string("inner_graph"));
    }

    void earlyStageDoesNotFuse() {
        GraphBuilder b;
        ScanResult sr = seedStep(b);
        auto g = b.finish({index(sr.outputs[0], -1), index(sr.outputs[1], -1)});
        RewriteOutcome r = rewriteAndCompare(*g, innerOnly(InnerRewriteStage::Early));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(countComposites(*scanOf(scans(*r.after)[0]).inner()), 0);
    }

    // A step is rewritten as PyTensor compiles it: late, specialize's and the inplace
    // phase's local_useless_unbatched_blockwise apply inside (a solve's unbatched
    // Blockwise becomes the solve); early, the step keeps its Blockwise.
    void compiledStepIsSpecialized_data() {
        QTest::addColumn<bool>("late");
        QTest::addColumn<int>("blockwise");
        QTest::newRow("late") << true << 0;
        QTest::newRow("early") << false << 1;
    }
    void compiledStepIsSpecialized() {
        QFETCH(bool, late);
        QFETCH(int, blockwise);
        GraphBuilder b;
        Var w = b.input("W", DType::Float64, {7, 7});
        std::vector<double> diagonal(49, 0.0);
        for (int i = 0; i < 7; ++i) diagonal[static_cast<size_t>(i * 8)] = 8.0;
        Var wellConditioned = w + b.constant(NDArray::fromVector(DType::Float64, {7, 7}, diagonal));
        ScanResult sr = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
            return {{linalg::solve(a[1], a[0]) + a[0] * 0.5}};
        }, ScanArgs{.outputsInfo = {OutputInfo(vec(b, "x0"))}, .nonSequences = {wellConditioned}, .nSteps = 4});
        auto g = b.finish({sr.outputs[0]});
        RewriteOutcome r = rewriteAndCompare(*g, innerOnly(late ? InnerRewriteStage::Late : InnerRewriteStage::Early), {}, 1,
                                             1e-10);
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        const Graph& step = *scanOf(scans(*r.after)[0]).inner();
        QCOMPARE(countOps(step, OpKind::Blockwise), blockwise);
        QCOMPARE(countOps(step, OpKind::Solve), 1 - blockwise);
    }

    void exclusionsApplyInsideSteps() {
        // --exclude elemwise_fusion keeps steps unfused too; merge still runs inside.
        GraphBuilder b;
        ScanResult sr = seedStep(b);
        auto g = b.finish({index(sr.outputs[0], -1), index(sr.outputs[1], -1)});
        PipelineOptions opts;
        opts.exclude.insert("elemwise_fusion");
        RewriteOutcome r = rewriteAndCompare(*g, innerOnly(InnerRewriteStage::Late), opts);
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        const Graph& step = *scanOf(scans(*r.after)[0]).inner();
        QCOMPARE(countComposites(step), 0);
        QCOMPARE(scalarOpCount(step, ScalarOpCode::Exp), 1);  // the two exp(x) merged
        opts.exclude.insert("scan_inner_rewrites");
        RewriteOutcome none = rewriteAndCompare(*g, innerOnly(InnerRewriteStage::Late), opts);
        QCOMPARE(none.trace.size(), size_t(0));
    }

    void reuseProofSurvivesFusion() {
        GraphBuilder b;
        ScanResult sr = seedStep(b);
        auto g = b.finish({index(sr.outputs[0], -1), index(sr.outputs[1], -1)});
        {
            Rewriter rw(*g);
            Node* loop = g->findNode(sr.node->id());
            rw.setOp(loop, scanOf(loop).withReuseProvenSafe({true, true}));
        }
        RewriteOutcome r = rewriteAndCompare(*g, innerOnly(InnerRewriteStage::Late));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        const ScanOp& op = scanOf(scans(*r.after)[0]);
        QCOMPARE(countComposites(*op.inner()), 1);
        // The Composite reads both taps elementwise and writes both states: still provable.
        QCOMPARE(op.reuseProvenSafe(), (std::vector<bool>{true, true}));
    }

    void seedThroughTheFullPipeline() {
        // Whatever the scan rewrites before did, no step is left with Elemwise nodes
        // that could still be fused.
        for (const char* name : {"seed_rop", "seed_dup"}) {
            const Example* ex = findExample(name);
            QVERIFY(ex);
            GraphBuilder b;
            auto g = b.finish(ex->build(b));
            RewriteOutcome r = rewriteAndCompare(*g, Pipeline::fastRun());
            QVERIFY2(r.mismatch.empty(), (std::string(name) + ": " + r.mismatch).c_str());
            QVERIFY(!scans(*r.after).empty());
            for (const Node* loop : scans(*r.after)) QVERIFY(findFusionGroups(*scanOf(loop).inner()).empty());
        }
    }
};

TL_TEST_SUITE(TestScanInner)
#include "tst_rw_scan_inner.moc"
