// RewriteSession headless: steps, phases, diffs, provenance through clones,
// explain data, selection, no-op detection. The trace is recorded by the real
// Rewriter + TraceRecorder on a small graph, so the session sees what the
// pipeline would give it.
#include "TestSuites.h"
#include "ir/GraphAssembler.h"
#include "session/RewriteSession.h"
#include "builder/Examples.h"
#include "trace/GraphFacts.h"
#include "session/FileLoader.h"
#include "trace/StepDiff.h"

#include "ir/Rewriter.h"
#include "trace/TraceRecorder.h"

#include <QSignalSpy>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <QtTest>

using namespace tl;

namespace {
// n inputs of any type, one output of the first input's type (as in tst_graph).
class PassOp : public Op {
public:
    explicit PassOp(std::string name = "Pass") : Op(OpKind::Opaque), m_name(std::move(name)) {}
    std::string name() const override { return m_name; }
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        if (in.empty()) throw OpTypeError("needs an input");
        return {*in[0]};
    }
    void perform(std::span<const NDArray> in, std::span<NDArray> out) const override { out[0] = in[0]; }

private:
    std::string m_name;
};

struct Recorded {
    std::unique_ptr<Trace> trace;
    NodeId a = -1, b = -1, c = -1, c2 = -1, c3 = -1;
};

// x -> A -> B -> C -> out, then:
//  step 1 canonicalize/remove_pass: C reads A, B is erased
//  step 2 scan_save_mem/rebuild: C2 = clone of C, replaces C; buffer + merged attributes
//  step 3 scan_save_mem/rebuild_again: C3 = clone of C2, replaces C2
//  step 4 inplace/rename: same op name again (a no-op for the user)
Recorded record() {
    Recorded r;
    GraphAssembler gA;
    Variable* x = gA.addInput(Type::tensor(DType::Float64, {11, 7}), "x");
    auto pass = std::make_shared<PassOp>();
    Node* a = gA.addNode(pass, {x});
    Node* b = gA.addNode(pass, {a->output(0)});
    Node* c = gA.addNode(pass, {b->output(0)});
    gA.setOutputs({c->output(0)});
    auto g = gA.finish();
    r.a = a->id();
    r.b = b->id();
    r.c = c->id();
    r.trace = std::make_unique<Trace>(g->clone());

    Rewriter rw(*g);
    TraceRecorder rec(*r.trace, /*explain=*/true);
    rw.addListener(&rec);

    rw.matchFailure("fuse_elemwise", *a, "a single elementwise op: nothing to fuse");
    rec.setPhase("canonicalize");
    rw.beginRewrite("remove_pass", b);
    rw.replace(b->output(0), a->output(0));
    rw.endRewrite("remove_pass", true);

    rec.setPhase("scan_save_mem");
    rw.beginRewrite("rebuild", c);
    Node* c2 = rw.create(pass, {a->output(0)});
    rw.cloned(c2->id(), c->id());
    rw.attribute(c2->id(), "buffer_shape", "(11, 7)", "(1, 7)", "exact: the only reader of the oldest tap is elementwise");
    rw.attribute(c2->id(), "merged_state", "sit_sot-1", "sit_sot-0", "equal updates under the assumption");
    rw.replace(c->output(0), c2->output(0));
    rw.endRewrite("rebuild", true);
    r.c2 = c2->id();
    rw.matchFailure("scan_merge", *c2, "only one scan");

    rw.beginRewrite("rebuild_again", c2);
    Node* c3 = rw.create(pass, {a->output(0)});
    rw.cloned(c3->id(), c2->id());
    rw.replace(c2->output(0), c3->output(0));
    rw.endRewrite("rebuild_again", true);
    r.c3 = c3->id();

    rec.setPhase("inplace");
    rw.beginRewrite("rename", c3);
    rw.setOp(c3, std::make_shared<PassOp>());
    rw.endRewrite("rename", true);
    return r;
}
} // namespace

class TestRewriteSession : public QObject {
    Q_OBJECT
private slots:
    void stepsAndPhases() {
        Recorded r = record();
        RewriteSession s;
        QSignalSpy opened(&s, &RewriteSession::opened);
        s.openTrace(std::move(r.trace), "test");
        QCOMPARE(opened.count(), 1);
        QCOMPARE(s.stepCount(), 4);
        QCOMPARE(s.step(1).rewrite, std::string("remove_pass"));
        auto groups = s.phases();
        QCOMPARE(groups.size(), size_t(3));
        QCOMPARE(groups[0].phase, std::string("canonicalize"));
        QCOMPARE(groups[1].steps, (std::vector<int>{2, 3}));
        QCOMPARE(groups[2].steps, (std::vector<int>{4}));
    }

    void navigationClampsAndSignals() {
        Recorded r = record();
        RewriteSession s;
        s.openTrace(std::move(r.trace));
        QSignalSpy moved(&s, &RewriteSession::currentStepChanged);
        QCOMPARE(s.currentStep(), 0);
        QCOMPARE(s.currentGraph().numNodes(), size_t(3));
        s.next();
        QCOMPARE(s.currentStep(), 1);
        QCOMPARE(s.currentGraph().numNodes(), size_t(2));
        s.last();
        QCOMPARE(s.currentStep(), 4);
        s.next();  // clamped: no signal
        QCOMPARE(s.currentStep(), 4);
        s.setCurrentStep(-5);
        QCOMPARE(s.currentStep(), 0);
        QCOMPARE(moved.count(), 3);
        QCOMPARE(moved.last().at(0).toInt(), 0);
        QCOMPARE(moved.last().at(1).toInt(), 4);
        QVERIFY(s.currentDiff() == nullptr);
    }

    void aStepWaitsForReadersOfTheCurrentGraph() {
        Recorded r = record();
        RewriteSession s;
        s.openTrace(std::move(r.trace));
        QSignalSpy starting(&s, &RewriteSession::currentStepStarting);
        s.setCurrentStep(1);
        QCOMPARE(starting.count(), 1);
        QCOMPARE(starting.last().at(0).toInt(), 1);
        // A reader on another thread still walking the graph of step 1 when the
        // next step is asked for: the step waits, so the reader sees step 1 whole.
        const Graph& g = s.currentGraph();
        std::atomic<bool> release{false};
        std::atomic<int> seenStep{-1};
        std::atomic<size_t> seenNodes{0};
        QThreadPool pool;
        s.addCurrentGraphReader(QtConcurrent::run(&pool, [&] {
            while (!release.load()) QThread::msleep(1);
            QThread::msleep(20);
            seenNodes = g.numNodes();
            seenStep = s.currentStep();  // still 1: the step has not begun
        }));
        release = true;
        s.setCurrentStep(4);
        QCOMPARE(seenStep.load(), 1);
        QCOMPARE(seenNodes.load(), size_t(2));
        QCOMPARE(s.currentStep(), 4);
        // Opening another trace waits for readers too.
        const Graph& last = s.currentGraph();
        std::atomic<bool> done{false};
        s.addCurrentGraphReader(QtConcurrent::run(&pool, [&] {
            QThread::msleep(20);
            done = last.numNodes() == 2 && s.currentStep() == 4;
        }));
        Recorded again = record();
        s.openTrace(std::move(again.trace));
        QVERIFY(done.load());
        QCOMPARE(s.currentStep(), 0);
    }

    void graphAtDoesNotDisturbTheCurrentGraph() {
        Recorded r = record();
        RewriteSession s;
        s.openTrace(std::move(r.trace));
        s.setCurrentStep(1);
        const Graph& cur = s.currentGraph();
        QCOMPARE(s.graphAt(0).numNodes(), size_t(3));
        QCOMPARE(s.graphAt(4).numNodes(), size_t(2));
        QVERIFY(cur.findNode(r.c) != nullptr);
        QCOMPARE(&s.currentGraph(), &cur);
        auto copy = s.cloneGraphAt(2);
        QVERIFY(copy->findNode(r.c2) != nullptr);
    }

    void diffOfEraseAndRewire() {
        Recorded r = record();
        RewriteSession s;
        s.openTrace(std::move(r.trace));
        const StepDiff& d = s.diff(1);
        QCOMPARE(d.step, 1);
        QCOMPARE(d.rewrite, std::string("remove_pass"));
        QVERIFY(d.added.empty());
        QCOMPARE(d.erased.size(), size_t(1));
        QCOMPARE(d.erased[0].id, r.b);
        QCOMPARE(d.rewired.size(), size_t(1));
        QCOMPARE(d.rewired[0].consumer, r.c);
        QCOMPARE(d.rewired[0].producerBefore, r.b);
        QCOMPARE(d.rewired[0].producerAfter, r.a);
        QVERIFY(d.touches(r.b));
        QVERIFY(d.touches(r.c));
        QVERIFY(!d.isNoOp());
    }

    void diffOfCloneWithBadgeAndMergedState() {
        Recorded r = record();
        RewriteSession s;
        s.openTrace(std::move(r.trace));
        const StepDiff& d = s.diff(2);
        QCOMPARE(d.added, std::vector<NodeId>{r.c2});
        QCOMPARE(d.erased.size(), size_t(1));
        QCOMPARE(d.erased[0].id, r.c);
        // The graph output moved from C to C2.
        QCOMPARE(d.rewired.size(), size_t(1));
        QCOMPARE(d.rewired[0].consumer, NodeId(-1));
        QCOMPARE(d.rewired[0].producerAfter, r.c2);
        QCOMPARE(d.shapeChanges.size(), size_t(1));
        QCOMPARE(QString::fromStdString(d.shapeChanges[0].text()), QString::fromUtf8("(11, 7) \u2192 (1, 7)"));
        QCOMPARE(d.shapeChanges[0].node, r.c2);
        QVERIFY(d.shapeChanges[0].detail.find("exact") != std::string::npos);
        QCOMPARE(d.mergedStates.size(), size_t(1));
        QCOMPARE(d.mergedStates[0].text, std::string("sit_sot-1 merged into sit_sot-0"));
        QCOMPARE(d.clonedFrom.at(r.c2), r.c);
        // Same object on the second call (cached).
        QCOMPARE(&s.diff(2), &d);
    }

    void noOpSteps_data() {
        QTest::addColumn<int>("step");
        QTest::addColumn<bool>("noOp");
        QTest::newRow("erase") << 1 << false;
        QTest::newRow("clone with attributes") << 2 << false;
        QTest::newRow("clone") << 3 << false;
        QTest::newRow("same op name") << 4 << true;
    }
    void noOpSteps() {
        QFETCH(int, step);
        QFETCH(bool, noOp);
        Recorded r = record();
        RewriteSession s;
        s.openTrace(std::move(r.trace));
        QCOMPARE(s.isNoOpStep(step), noOp);
        QCOMPARE(s.diff(step).isNoOp(), noOp);
    }

    void provenanceFollowsClones() {
        Recorded r = record();
        RewriteSession s;
        s.openTrace(std::move(r.trace));
        auto links = s.provenance(r.c3);
        QCOMPARE(links.size(), size_t(3));
        QCOMPARE(links[0].step, 3);
        QCOMPARE(*links[0].from, r.c2);
        QCOMPARE(links[1].step, 2);
        QCOMPARE(links[1].rewrite, std::string("rebuild"));
        QCOMPARE(*links[1].from, r.c);
        QCOMPARE(links[2].step, 0);
        QCOMPARE(links[2].node, r.c);
        const std::string text = s.provenanceText(r.c3);
        QVERIFY2(text.find("created by step 2 rebuild from node " + std::to_string(r.c)) != std::string::npos, text.c_str());
        QVERIFY2(text.find("is in the original graph") != std::string::npos, text.c_str());
        // An original node has a one-link history.
        QCOMPARE(s.provenance(r.a).size(), size_t(1));
    }

    void explainListsMatchFailures() {
        Recorded r = record();
        RewriteSession s;
        s.openTrace(std::move(r.trace));
        auto a = s.explain(r.a);
        QCOMPARE(a.size(), size_t(1));
        QCOMPARE(a[0].position, 0);
        QCOMPARE(a[0].rewrite, std::string("fuse_elemwise"));
        auto c2 = s.explain(r.c2);
        QCOMPARE(c2.size(), size_t(1));
        QCOMPARE(c2[0].position, 2);
        QVERIFY(s.explain(r.b).empty());
    }

    void stepsTouchingANode() {
        Recorded r = record();
        RewriteSession s;
        s.openTrace(std::move(r.trace));
        QCOMPARE(s.stepsTouching(r.c2), (std::vector<int>{2, 3}));
        QCOMPARE(s.stepsTouching(r.b), (std::vector<int>{1}));
        QVERIFY(s.stepTouches(4, {r.c3}));
        QVERIFY(!s.stepTouches(1, {r.c3}));
    }

    void selectionSignalsOnlyOnChange() {
        Recorded r = record();
        RewriteSession s;
        s.openTrace(std::move(r.trace));
        QSignalSpy spy(&s, &RewriteSession::selectionChanged);
        s.setSelection({r.a});
        s.setSelection({r.a});
        QCOMPARE(spy.count(), 1);
        s.openGraph(std::make_unique<Graph>());
        QVERIFY(s.selection().empty());
        QCOMPARE(s.stepCount(), 0);
    }

    // Buffers sized at run time (a sequence of unknown length) have no byte count
    // before scan_save_mem gives them a constant size: they are counted apart, so the
    // step reads "? (2 sized at run time) -> 112 B", not "0 B -> 112 B".
    void bufferBytesOfSymbolicBuffersAreUnknown() {
        RewriteSession s;
        s.openTrace(rewriteToTrace(*buildExample("seed_rop_sequence")));
        int saveMem = -1;
        for (int k = 0; k < s.stepCount() && saveMem < 0; ++k)
            if (s.trace().steps()[k].rewrite == "scan_save_mem") saveMem = k + 1;
        QVERIFY(saveMem > 0);
        s.setCurrentStep(saveMem);
        const BufferTotal before = s.currentDiff()->buffersBefore, after = s.currentDiff()->buffersAfter;
        QCOMPARE(before.bytes, int64_t(0));
        QVERIFY(before.sizedAtRunTime > 0);
        QCOMPARE(after.bytes, int64_t(2 * 7 * 8));
        QCOMPARE(after.sizedAtRunTime, 0);
        QCOMPARE(QString::fromStdString(formatBufferTotal(before)),
                 QString("? (%1 sized at run time)").arg(before.sizedAtRunTime));
        QCOMPARE(QString::fromStdString(formatBufferTotal(after)), QString("112 B"));
    }

    // One buffer known and one sized at run time: the known bytes still show, so a
    // rewrite that shrinks the known one changes the total.
    void bufferTotalKeepsKnownBytesBesideUnknownOnes() {
        BufferRow known, unknown;
        known.bytes = 1232;
        BufferTotal t;
        t.add(known);
        t.add(unknown);
        QCOMPARE(t.bytes, int64_t(1232));
        QCOMPARE(t.sizedAtRunTime, 1);
        QCOMPARE(QString::fromStdString(formatBufferTotal(t)), QString("1,232 B + ? (1 sized at run time)"));
        BufferTotal shrunk;
        known.bytes = 112;
        shrunk.add(known);
        shrunk.add(unknown);
        QVERIFY(!(t == shrunk));
    }

    void openWithoutOriginalThrows() {
        RewriteSession s;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s.openTrace(std::make_unique<Trace>()));
        QVERIFY(!s.isOpen());
    }
};

TL_TEST_SUITE(TestRewriteSession)
#include "tst_rewritesession.moc"
