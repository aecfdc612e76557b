// scan_merge_inouts: an outer variable given twice as a sequence is read once.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "builder/Math.h"
#include "builder/Scan.h"
#include "ops/ScanOp.h"
#include "rewrite/EquilibriumDriver.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;

namespace {
// The builder slices each sequence with its own nodes; merge (CSE) makes them one
// variable first, as the pipeline's merge phase does.
Pipeline inoutsThenCleanup() {
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(makeMergePass());
    passes.push_back(std::make_unique<EquilibriumDriver>(
        "d", std::vector<std::string>{}, std::vector<const NodeRewrite*>{&scanMergeInouts(), &scanRemoveUnusedInputs()}));
    return test::singlePhase("scan_merge", std::move(passes));
}

// h' = h + x_t * y_t, with y the same outer sequence as x or another one.
std::unique_ptr<Graph> twoSequences(bool same) {
    GraphBuilder b;
    Var xs = b.input("xs", DType::Float64, {4, 2});
    Var ys = same ? xs : b.input("ys", DType::Float64, {4, 2});
    Var h0 = b.input("h0", DType::Float64, {2});
    ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[2] + a[0] * a[1]}}; },
                        ScanArgs{.sequences = {xs, ys}, .outputsInfo = {OutputInfo(h0)}});
    return b.finish({r.outputs[0]});
}

int sequencesOf(const Graph& g) {
    for (const Node* n : g.nodes())
        if (n->op().kind() == OpKind::Scan) return static_cast<const ScanOp&>(n->op()).info().nSeqs;
    return -1;
}
} // namespace

class TestScanMergeInouts : public QObject {
    Q_OBJECT
private slots:
    void sameSequenceTwiceIsReadOnce() {
        auto g = twoSequences(true);
        QCOMPARE(sequencesOf(*g), 2);
        auto out = test::rewriteAndCompare(*g, inoutsThenCleanup());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(sequencesOf(*out.after), 1);
        QVERIFY(out.stepsOf("scan_merge_inouts") == 1);
    }

    void differentSequencesStay() {
        auto out = test::rewriteAndCompare(*twoSequences(false), inoutsThenCleanup());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(sequencesOf(*out.after), 2);
        QCOMPARE(out.stepsOf("scan_merge_inouts"), 0);
    }
};

TL_TEST_SUITE(TestScanMergeInouts)
#include "tst_rw_scan_merge_inouts.moc"
