// scan_make_inplace: loops write into their outer buffers where that is safe.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Scan.h"
#include "ops/Alloc.h"
#include "ops/ScanOp.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>

using namespace tl;

namespace {
Pipeline inplaceOnly() {
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(makeScanMakeInplace());
    return test::singlePhase("inplace", std::move(passes));
}

Node* scanNode(const Graph& g) {
    for (Node* n : g.nodes())
        if (n->op().kind() == OpKind::Scan) return n;
    return nullptr;
}

// A loop of three states over 4 steps whose buffers (5 rows of 3) are all `buffer(rw)`.
std::unique_ptr<Graph> threeStatesOnOneBuffer(const std::function<Variable*(Rewriter&)>& buffer) {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {3});
    ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
        return {{a[0] * 0.5 + 1, a[1] * 2.0 - a[0], a[2] - a[1]}};
    }, ScanArgs{.outputsInfo = {OutputInfo(x), OutputInfo(x), OutputInfo(x)}, .nSteps = 4});
    auto g = b.finish(r.outputs);
    Rewriter rw(*g);
    Variable* shared = buffer(rw);
    for (int state = 1; state <= 3; ++state) rw.setInput(scanNode(*g), state, shared);
    rw.pruneDead();
    return g;
}

// Alloc(value, rows, 3): a buffer as constant folding leaves a zero-initialized one.
Variable* allocRows(Rewriter& rw, double value, int64_t rows) {
    auto i64 = [&](int64_t v) { return rw.constant(NDArray::scalar(DType::Int64, static_cast<double>(v))); };
    return rw.create(makeAlloc(), {rw.constant(NDArray::scalar(DType::Float64, value)), i64(rows), i64(3)})->output(0);
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

    // Two states start from the same constant buffer (constant folding and merge make
    // equal initial values one): the second gets a copy of it, which the loop may
    // overwrite; the first keeps the constant, which nothing may.
    void aSharedBufferIsCopiedForTheLaterState() {
        auto g = threeStatesOnOneBuffer([](Rewriter& rw) {
            return rw.constant(NDArray::fromVector(DType::Float64, {5, 3}, std::vector<double>(15, 0.25)));
        });
        auto out = test::rewriteAndCompare(*g, inplaceOnly());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        const Node* loop = scanNode(*out.after);
        for (int state = 2; state <= 3; ++state) {
            QCOMPARE(loop->input(state)->owner()->op().kind(), OpKind::DeepCopy);
            QCOMPARE(loop->input(state)->owner()->input(0), loop->input(1));
        }
        QCOMPARE(firstScan(*out.after)->inplaceStates(), (std::vector<int>{1, 2}));
        QCOMPARE(test::countOps(*out.after, OpKind::DeepCopy), 2);
    }

    // Three states start from one Alloc: the first two get Allocs of their own, the last
    // keeps it (no other reader left), and all three are overwritten in place.
    void anAllocationSharedByStatesIsMadeAgain() {
        auto g = threeStatesOnOneBuffer([](Rewriter& rw) { return allocRows(rw, 0.5, 5); });
        auto out = test::rewriteAndCompare(*g, inplaceOnly());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(firstScan(*out.after)->inplaceStates(), (std::vector<int>{0, 1, 2}));
        QCOMPARE(test::countOps(*out.after, OpKind::Alloc), 3);
        QCOMPARE(test::countOps(*out.after, OpKind::DeepCopy), 0);
    }

    // A buffer that is an Alloc others read too is allocated again for the loop, which
    // then overwrites its own; a buffer of another producer read later stays (above).
    void aSharedAllocationIsMadeAgain_data() {
        QTest::addColumn<bool>("readLater");
        QTest::newRow("the Alloc is read after the loop too") << true;
        QTest::newRow("only the loop reads it") << false;
    }
    void aSharedAllocationIsMadeAgain() {
        QFETCH(bool, readLater);
        auto g = loop(readLater);
        {
            Rewriter rw(*g);
            rw.replace(scanNode(*g)->input(1), allocRows(rw, 0.0, 6));
            rw.pruneDead();
        }
        auto out = test::rewriteAndCompare(*g, inplaceOnly());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(firstScan(*out.after)->inplaceStates(), std::vector<int>{0});
        QCOMPARE(test::countOps(*out.after, OpKind::Alloc), readLater ? 2 : 1);
        QCOMPARE(test::countOps(*out.after, OpKind::DeepCopy), 0);
    }
};

TL_TEST_SUITE(TestScanInplace)
#include "tst_rw_scan_inplace.moc"
