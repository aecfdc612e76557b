// scan_push_out_seq, scan_push_out_non_seq, scan_remove_constants_and_unused_inputs:
// work that does not need the loop leaves it; inputs the step never reads go.
#include "TestSuites.h"
#include "LinalgRewriteTestUtil.h"
#include "RewriteCheck.h"
#include "builder/Examples.h"
#include "builder/Indexing.h"
#include "builder/Linalg.h"
#include "builder/Math.h"
#include "builder/Scan.h"
#include "exec/Executor.h"
#include "ir/GraphAssembler.h"
#include "ops/Elemwise.h"
#include "ops/Reduce.h"
#include "ops/ScanOp.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;

namespace {
Pipeline only(const NodeRewrite& r) { return test::singleRewrite(r); }

const ScanOp* scanIn(const Graph& g) {
    for (const Node* n : g.nodes())
        if (n->op().kind() == OpKind::Scan) return static_cast<const ScanOp*>(&n->op());
    return nullptr;
}

int innerExps(const ScanOp& s) {
    int n = 0;
    for (const Node* node : s.inner()->nodes())
        if (node->op().kind() == OpKind::Elemwise) {
            const auto& e = static_cast<const Elemwise&>(node->op());
            n += !e.isComposite() && e.scalarOp() == ScalarOpCode::Exp;
        }
    return n;
}

// y' = y + exp(w) * 2 with a non_sequence w.
std::unique_ptr<Graph> invariantWork(bool onlyConstants) {
    GraphBuilder b;
    Var y0 = b.input("y0", DType::Float64, {3});
    Var w = b.input("w", DType::Float64, {3});
    ScanResult r = scan(b, [&](GraphBuilder& s, const std::vector<Var>& a) -> StepResult {
        Var inv = onlyConstants ? exp(s.constant(0.5)) * 2 : exp(a[1]) * 2;
        return {{a[0] + inv}};
    }, ScanArgs{.outputsInfo = {OutputInfo(y0)}, .nonSequences = {w}, .nSteps = 4});
    return b.finish({r.outputs[0]});
}

// y' = y + 0.01 LU y + 0.001 sum(p) with (LU, p) = lu_factor(W), W a non_sequence: a
// node of two outputs, both read by the loop's work.
std::unique_ptr<Graph> invariantFactorization() {
    GraphBuilder b;
    Var y0 = b.input("y0", DType::Float64, {3});
    Var w = b.input("w", DType::Float64, {3, 3});
    ScanResult r = scan(b, [&](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
        auto [lu, pivots] = linalg::luFactor(a[1]);
        return {{a[0] + 0.01 * dot(lu, a[0]) + 0.001 * sum(pivots)}};
    }, ScanArgs{.outputsInfo = {OutputInfo(y0)}, .nonSequences = {w}, .nSteps = 4});
    return b.finish({r.outputs[0]});
}

// A sequence of 5 rows read for n steps, n given at run time: scan() cuts it to xs[:n].
std::unique_ptr<Graph> shortLoop() {
    GraphBuilder b;
    Var xs = b.input("xs", DType::Float64, {5, 2});
    Var h0 = b.input("h0", DType::Float64, {2});
    Var n = b.input("n", DType::Int64, {});
    ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[1] + exp(a[0])}}; },
                        ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo(h0)}, .nSteps = n});
    return b.finish({r.outputs[0]});
}

// exp of each row of a raw sequence of 5 rows for n steps, n given at run time, the
// sequence not cut to n rows (a loop scan() would not build): rows and steps differ.
std::unique_ptr<Graph> rawSequenceLoop() {
    GraphAssembler step;
    Variable* row = step.addInput(Type::tensor(DType::Float64, {2}));
    step.setOutputs({step.addNode(makeElemwise(ScalarOpCode::Exp), {row})->output(0)});
    ScanInfo info;
    info.nSeqs = 1;
    info.nNitSot = 1;
    GraphAssembler g;
    Variable* xs = g.addInput(Type::tensor(DType::Float64, {5, 2}), "xs");
    Variable* n = g.addInput(Type::tensor(DType::Int64, {}), "n");
    Node* loop = g.addNode(makeScan(info, step.finish()), {n, xs, n});
    g.setOutputs({loop->output(0)});
    return g.finish();
}
// Two raw sequences of 5 rows for n steps: exp of each row of ys (elementwise, leaves
// the loop) and the sum of each row of xs (a reduction over the row: stays).
std::unique_ptr<Graph> twoRawSequencesLoop() {
    GraphAssembler step;
    Variable* x = step.addInput(Type::tensor(DType::Float64, {2}));
    Variable* y = step.addInput(Type::tensor(DType::Float64, {2}));
    step.setOutputs({step.addNode(makeElemwise(ScalarOpCode::Exp), {y})->output(0),
                     step.addNode(makeReduce(ReduceKind::Sum, std::nullopt), {x})->output(0)});
    ScanInfo info;
    info.nSeqs = 2;
    info.nNitSot = 2;
    GraphAssembler g;
    Variable* xs = g.addInput(Type::tensor(DType::Float64, {5, 2}), "xs");
    Variable* ys = g.addInput(Type::tensor(DType::Float64, {5, 2}), "ys");
    Variable* n = g.addInput(Type::tensor(DType::Int64, {}), "n");
    Node* loop = g.addNode(makeScan(info, step.finish()), {n, xs, ys, n, n});
    g.setOutputs({loop->output(0), loop->output(1)});
    return g.finish();
}
// A while loop over 6 rows: s' = s + x_t and the nit_sot 2*exp(x_t), stopping once
// sum(s') > 3. The nit_sot is only sequence work, but it has a row per step that ran.
std::unique_ptr<Graph> whileLoopOverSequence() {
    GraphBuilder b;
    Var xs = b.input("xs", DType::Float64, {6, 2});
    Var s0 = b.input("s0", DType::Float64, {2});
    ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
        Var next = a[1] + a[0];
        return {.outputs = {next, exp(a[0]) * 2}, .until = gt(sum(next), 3.0)};
    }, ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo(s0), OutputInfo::none()}});
    return b.finish({r.outputs[1], r.outputs[0]});
}
} // namespace

class TestScanPushOut : public QObject {
    Q_OBJECT
private slots:
    void elementwiseMapLeavesNoLoop() {
        auto out = test::rewriteAndCompare(*buildExample("misc_map_elemwise"), only(scanPushOutSeq()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(test::countOps(*out.after, OpKind::Scan), 0);
    }

    void sequenceWorkLeavesTheLoop() {
        auto out = test::rewriteAndCompare(*buildExample("pushout_seq"), only(scanPushOutSeq()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        const ScanOp* s = scanIn(*out.after);
        QVERIFY(s);
        QCOMPARE(innerExps(*s), 0);
        QCOMPARE(s->info().nSeqs, 2);
    }

    void stateDependentWorkStays_data() {
        QTest::addColumn<QString>("example");
        QTest::newRow("running sum (s + m_t reads the state)") << "misc_running_sum";
        QTest::newRow("no sequences") << "seed_dup";
    }
    void stateDependentWorkStays() {
        QFETCH(QString, example);
        auto out = test::rewriteAndCompare(*buildExample(example.toStdString()), only(scanPushOutSeq()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.trace.size(), size_t(0));
    }

    void sequenceCutToTheLoopLeavesIt() {
        // xs[:n] has n rows whenever the loop can run: its work leaves the loop, on 3 of 5 rows.
        auto g = shortLoop();
        std::vector<NDArray> in = {NDArray::fromVector(DType::Float64, {5, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}),
                                   NDArray::fromVector(DType::Float64, {2}, {0.5, -0.5}), NDArray::scalar(DType::Int64, 3)};
        auto out = test::rewriteAndCompare(*g, only(scanPushOutSeq()), {}, 1, 1e-12, 0.0, &in);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("scan_push_out_seq"), 1);
        QCOMPARE(innerExps(*scanIn(*out.after)), 0);
    }

    void rawSequenceLongerThanTheLoopIsCutFirst() {
        // 5 rows read for 3 steps: exp runs on xs[:3] outside the loop, and the nit_sot
        // that was only that work is the 3-row value itself.
        auto g = rawSequenceLoop();
        std::vector<NDArray> in = {NDArray::fromVector(DType::Float64, {5, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}),
                                   NDArray::scalar(DType::Int64, 3)};
        auto out = test::rewriteAndCompare(*g, only(scanPushOutSeq()), {}, 1, 1e-12, 0.0, &in);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("scan_push_out_seq"), 1);
        QCOMPARE(test::countOps(*out.after, OpKind::Scan), 0);
        QCOMPARE(test::countOps(*out.after, OpKind::Subtensor), 1);
        QCOMPARE(runGraph(*out.after, in).outputs.at(0).shape(), (std::vector<int64_t>{3, 2}));
    }

    void whileLoopKeepsItsSequenceOnlyOutput() {
        // The exp leaves the loop, but the nit_sot stays the loop's output: 3 rows, the
        // steps that ran, not the 6 of the sequence (the loop stops after step 3).
        auto g = whileLoopOverSequence();
        std::vector<NDArray> in = {NDArray::fromVector(DType::Float64, {6, 2}, {0.5, 0.1, 0.9, 0.3, 1.1, 0.4, 0.6, 0.2, 0.3, 0.3, 0.9, 0.1}),
                                   NDArray::fromVector(DType::Float64, {2}, {0.0, 0.25})};
        auto out = test::rewriteAndCompare(*g, only(scanPushOutSeq()), {}, 1, 1e-12, 0.0, &in);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("scan_push_out_seq"), 1);
        QCOMPARE(test::countOps(*out.after, OpKind::Scan), 1);
        QCOMPARE(innerExps(*scanIn(*out.after)), 0);
        QCOMPARE(runGraph(*out.after, in).outputs.at(0).shape(), (std::vector<int64_t>{3, 2}));
    }

    void onlyTheSequencesTheWorkReadsAreCut() {
        auto g = twoRawSequencesLoop();
        std::vector<NDArray> in = {NDArray::fromVector(DType::Float64, {5, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}),
                                   NDArray::fromVector(DType::Float64, {5, 2}, {-1, -2, -3, -4, -5, -6, -7, -8, -9, -10}),
                                   NDArray::scalar(DType::Int64, 3)};
        auto out = test::rewriteAndCompare(*g, only(scanPushOutSeq()), {}, 1, 1e-12, 0.0, &in);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("scan_push_out_seq"), 1);
        QCOMPARE(test::countOps(*out.after, OpKind::Scan), 1);
        // ys[:n] for the exp; xs, read only by the reduction that stays, is not cut.
        QCOMPARE(test::countOps(*out.after, OpKind::Subtensor), 1);
        // And nothing is left that no one reads.
        for (const Node* n : out.after->nodes()) {
            bool read = false;
            for (const Variable* o : n->outputs()) read = read || !o->clients().empty();
            QVERIFY2(read, qPrintable(QString::fromStdString(n->label())));
        }
    }

    void invariantWorkLeavesTheLoop() {
        auto out = test::rewriteAndCompare(*invariantWork(false), only(scanPushOutNonSeq()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(innerExps(*scanIn(*out.after)), 0);
        QCOMPARE(test::countOps(*out.after, OpKind::Elemwise) >= 2, true);
    }

    void invariantNodeOfTwoOutputsLeavesTheLoop() {
        auto out = test::rewriteAndCompare(*invariantFactorization(), only(scanPushOutNonSeq()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("scan_push_out_non_seq"), 1);
        QCOMPARE(test::countCore(*out.after, OpKind::LUFactor), 1);
        QCOMPARE(test::countCore(*scanIn(*out.after)->inner(), OpKind::LUFactor), 0);
        QCOMPARE(scanIn(*out.after)->info().nNonSeqs, 3);  // w (unread now, for the unused-inputs rewrite), LU, pivots
    }

    void constantOnlyWorkStaysForConstantFolding() {
        auto out = test::rewriteAndCompare(*invariantWork(true), only(scanPushOutNonSeq()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.trace.size(), size_t(0));
    }

    void unusedInputsAreDropped() {
        // After the map's product leaves the loop, xs and w are no longer read inside.
        auto g = buildExample("misc_map_nonseq");
        auto pushed = test::rewriteAndCompare(*g, only(scanPushOutSeq()));
        auto out = test::rewriteAndCompare(*pushed.after, only(scanRemoveUnusedInputs()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        const ScanOp* s = scanIn(*out.after);
        QCOMPARE(s->info().nSeqs, 1);
        QCOMPARE(s->info().nNonSeqs, 0);
    }

    void inputsInUseStay() {
        auto out = test::rewriteAndCompare(*buildExample("misc_running_sum"), only(scanRemoveUnusedInputs()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.trace.size(), size_t(0));
    }
};

TL_TEST_SUITE(TestScanPushOut)
#include "tst_rw_scan_pushout.moc"
