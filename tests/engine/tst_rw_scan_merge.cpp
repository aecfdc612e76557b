// scan_merge: loops of equal n_steps without a dependency become one loop "a&b".
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "builder/Examples.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Scan.h"
#include "ops/ScanOp.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;

namespace {
Pipeline scanMergeOnly() {
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(makeScanMergePass());
    return test::singlePhase("scan_merge", std::move(passes));
}

std::vector<const ScanOp*> scans(const Graph& g) {
    std::vector<const ScanOp*> out;
    for (const Node* n : g.toposort())
        if (n->op().kind() == OpKind::Scan) out.push_back(static_cast<const ScanOp*>(&n->op()));
    return out;
}

// b's loop reads a's last value as its initial state: a dependency.
std::unique_ptr<Graph> dependentLoops() {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {3});
    auto step = [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[0] * 0.5 + 1}}; };
    Var first = scan(b, step, ScanArgs{.outputsInfo = {OutputInfo(x)}, .nSteps = 4}).outputs[0];
    Var second = scan(b, step, ScanArgs{.outputsInfo = {OutputInfo(index(first, -1))}, .nSteps = 4}).outputs[0];
    return b.finish({second});
}

// Loops a (4 steps) and b (6 steps) side by side; e (6 steps) starts from a's last
// value, c (4 steps) from b's. b and e merge; were c merged into a, each merged loop
// would read the other's result.
std::unique_ptr<Graph> crossedLoops() {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {3});
    Var y = b.input("y", DType::Float64, {3});
    auto loop = [&](Var init, int n) {
        auto step = [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[0] * 0.5 + 1}}; };
        return scan(b, step, ScanArgs{.outputsInfo = {OutputInfo(init)}, .nSteps = n}).outputs[0];
    };
    Var la = loop(x, 4);
    Var lb = loop(y, 6);
    Var le = loop(index(la, -1), 6);
    Var lc = loop(index(lb, -1), 4);
    return b.finish({le, lc});
}

// A while loop next to a for loop of the same n_steps.
std::unique_ptr<Graph> whileAndFor() {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {});
    Var y = b.input("y", DType::Float64, {});
    Var w = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                Var next = a[0] * 2.0;
                return {{next}, {}, gt(next, 100.0)};
            }, ScanArgs{.outputsInfo = {OutputInfo(x)}, .nSteps = 20}).outputs[0];
    Var f = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[0] + 1.0}}; },
                 ScanArgs{.outputsInfo = {OutputInfo(y)}, .nSteps = 20}).outputs[0];
    return b.finish({w, f});
}
} // namespace

class TestScanMerge : public QObject {
    Q_OBJECT
private slots:
    void mergesLoopsOfEqualLength() {
        auto g = buildExample("merge_same_nsteps");
        auto out = test::rewriteAndCompare(*g, scanMergeOnly());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        auto s = scans(*out.after);
        QCOMPARE(s.size(), size_t(1));
        QCOMPARE(QString::fromStdString(s[0]->scanName()), QString("scan_fn&scan_fn"));
        QCOMPARE(s[0]->info().nSitSot, 2);
        QCOMPARE(out.stepsOf("scan_merge"), 1);
        // Provenance: the merged loop records both sources.
        QCOMPARE(out.trace.steps()[0].clonedFrom.size(), size_t(1));
    }

    void mergesTheSeedLoopWithItsRop() {
        auto g = buildExample("seed_rop");
        auto out = test::rewriteAndCompare(*g, scanMergeOnly());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        auto s = scans(*out.after);
        QCOMPARE(s.size(), size_t(1));
        // Merged in PyTensor 2.34's order, so named as its compiled graph names it (tests/oracle/seed_rop).
        QCOMPARE(QString::fromStdString(s[0]->scanName()), QString("rop_of_scan_fn&scan_fn"));
        QCOMPARE(s[0]->info().nSitSot, 3);
    }

    void doesNotMerge_data() {
        QTest::addColumn<int>("which");
        QTest::newRow("different n_steps") << 0;
        QTest::newRow("one loop reads the other") << 1;
        QTest::newRow("a while loop") << 2;
    }
    void doesNotMerge() {
        QFETCH(int, which);
        std::unique_ptr<Graph> g = which == 0 ? buildExample("merge_diff_nsteps") : which == 1 ? dependentLoops() : whileAndFor();
        PipelineOptions opts;
        opts.explain = true;
        auto out = test::rewriteAndCompare(*g, scanMergeOnly(), opts);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(scans(*out.after).size(), size_t(2));
        QCOMPARE(out.trace.size(), size_t(0));
        QVERIFY(!out.trace.failures().empty());
    }

    // Groups are built so that no merged loop reads another that reads it back.
    void mergedLoopsNeverReadEachOther() {
        auto g = crossedLoops();
        PipelineOptions opts;
        opts.explain = true;
        auto out = test::rewriteAndCompare(*g, scanMergeOnly(), opts);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QVERIFY(out.after->validate().empty());
        QCOMPARE(scans(*out.after).size(), size_t(3));
        QCOMPARE(out.stepsOf("scan_merge"), 1);
        bool explained = false;
        for (const auto& [step, failures] : out.trace.failures())
            for (const auto& f : failures)
                explained = explained || f.reason.find("never read each other") != std::string::npos;
        QVERIFY(explained);
    }

    void mergesFiftyLoopsIntoOne() {
        GraphBuilder b;
        std::vector<Var> lasts;
        for (int i = 0; i < 50; ++i) {
            Var x = b.input("x" + std::to_string(i), DType::Float64, {2});
            lasts.push_back(index(scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{tanh(a[0])}}; },
                                       ScanArgs{.outputsInfo = {OutputInfo(x)}, .nSteps = 3}).outputs[0], -1));
        }
        auto g = b.finish({add(lasts)});
        auto out = test::rewriteAndCompare(*g, scanMergeOnly());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(scans(*out.after).size(), size_t(1));
        QCOMPARE(scans(*out.after)[0]->info().nSitSot, 50);
    }
};

TL_TEST_SUITE(TestScanMerge)
#include "tst_rw_scan_merge.moc"
