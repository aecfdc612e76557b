// scan_make_inplace: loops write into their outer buffers where that is safe.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Scan.h"
#include "ops/ScanOp.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;

namespace {
Pipeline inplaceOnly() {
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(makeScanMakeInplace());
    return test::singlePhase("inplace", std::move(passes));
}

const ScanOp* firstScan(const Graph& g) {
    for (const Node* n : g.nodes())
        if (n->op().kind() == OpKind::Scan) return static_cast<const ScanOp*>(&n->op());
    return nullptr;
}

// x' = x * 0.5 + 1 for 5 steps; optionally the buffer's first row (the initial
// value, the only row written before the loop) is read after the loop too.
std::unique_ptr<Graph> loop(bool bufferIsAlsoAnOutput) {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {3});
    ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[0] * 0.5 + 1}}; },
                        ScanArgs{.outputsInfo = {OutputInfo(x)}, .nSteps = 5});
    std::vector<Var> outs = r.outputs;
    if (bufferIsAlsoAnOutput) outs.push_back(index(b.wrap(r.node->input(1)), 0));
    return b.finish(outs);
}
} // namespace

class TestScanInplace : public QObject {
    Q_OBJECT
private slots:
    void makesTheBufferInplace() {
        auto g = loop(false);
        auto out = test::rewriteAndCompare(*g, inplaceOnly());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(firstScan(*out.after)->inplaceStates(), std::vector<int>{0});
        QCOMPARE(out.stepsOf("scan_make_inplace"), 1);
        QCOMPARE(QString::fromStdString(out.trace.steps()[0].attributes[0].after), QString("{0: [1]}"));
    }

    void keepsABufferThatIsReadLater() {
        auto g = loop(true);
        PipelineOptions opts;
        opts.explain = true;
        auto out = test::rewriteAndCompare(*g, inplaceOnly(), opts);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QVERIFY(firstScan(*out.after)->inplaceStates().empty());
        QCOMPARE(out.trace.size(), size_t(0));
        QVERIFY(!out.trace.failures().empty());
    }
};

TL_TEST_SUITE(TestScanInplace)
#include "tst_rw_scan_inplace.moc"
