// Rewrite infrastructure on a toy op: the equilibrium driver, the pipeline's
// honesty and validation checks, trace recording and replay.
#include "TestSuites.h"
#include "ir/GraphAssembler.h"
#include "trace/TraceReplayer.h"
#include "ir/Fingerprint.h"
#include "rewrite/EquilibriumDriver.h"
#include "rewrite/Pipeline.h"
#include "trace/TraceRecorder.h"

#include <QtTest>

using namespace tl;

namespace {
class PassOp : public Op {
public:
    PassOp() : Op(OpKind::Opaque) {}
    std::string name() const override { return "Pass"; }
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override { return {*in[0]}; }
    void perform(std::span<const NDArray> in, std::span<NDArray> out) const override { out[0] = in[0]; }
};

// Pass(Pass(x)) -> Pass(x)
class CollapsePass : public NodeRewrite {
public:
    struct M : RewriteMatch {
        Variable* inner;
    };
    std::string_view name() const override { return "collapse_pass"; }
    std::vector<std::string> tags() const override { return {"toy"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Opaque}; }
    MatchResult match(const Node& n, const RewriteOptions&) const override {
        Node* prev = n.input(0)->owner();
        if (!prev || prev->op().name() != "Pass") return MatchResult::fail("input is not a Pass");
        auto m = std::make_unique<M>();
        m->inner = prev->output(0);
        return MatchResult::ok(std::move(m));
    }
    void apply(Rewriter& rw, Node& n, const RewriteMatch& m, const RewriteOptions&) const override {
        rw.replace(n.output(0), static_cast<const M&>(m).inner);
    }
};

// Matches Pass(Pass(x)) and fails while rewriting it, as a rewrite with a bug would.
class FailingRewrite : public CollapsePass {
public:
    std::string_view name() const override { return "failing_rewrite"; }
    void apply(Rewriter&, Node&, const RewriteMatch&, const RewriteOptions&) const override {
        throw GraphError("cannot replace a Vector with a Matrix");
    }
};

// Claims no change but edits the graph: the pipeline must catch it.
class LyingPass : public GraphPass {
public:
    std::string_view name() const override { return "liar"; }
    bool run(Rewriter& rw, const RewriteOptions&) override {
        const Graph& g = rw.graph();
        rw.setOutput(0, g.inputs().front());
        return false;
    }
};

std::unique_ptr<Graph> chain(int n) {
    GraphAssembler gA;
    Variable* v = gA.addInput(Type::tensor(DType::Float64, {3}), "x");
    auto op = std::make_shared<PassOp>();
    for (int i = 0; i < n; ++i) v = gA.addNode(op, {v})->output(0);
    gA.setOutputs({v});
    auto g = gA.finish();
    return g;
}

Pipeline toyPipeline(const NodeRewrite* r) {
    Pipeline p;
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(std::make_unique<EquilibriumDriver>("toy_driver", std::vector<std::string>{"toy"},
                                                         std::vector<const NodeRewrite*>{r}));
    p.addPhase("toy", std::move(passes));
    return p;
}
} // namespace

class TestTrace : public QObject {
    Q_OBJECT
private slots:
    void driverReachesFixpointAndTraceReplays() {
        CollapsePass rewrite;
        auto original = chain(6);
        Trace trace(original->clone());
        auto work = original->clone();
        PipelineOptions opts;
        opts.checkHonestChange = true;
        toyPipeline(&rewrite).run(*work, opts, &trace);
        QCOMPARE(work->numNodes(), size_t(1));
        QCOMPARE(trace.size(), size_t(5));
        for (const TraceStep& s : trace.steps()) {
            QCOMPARE(QString::fromStdString(s.rewrite), QString("collapse_pass"));
            QCOMPARE(QString::fromStdString(s.phase), QString("toy"));
            QVERIFY(!s.erasedNodes().empty());
        }
        TraceReplayer replay(trace, 2);
        QCOMPARE(fingerprint(replay.graphAt(0)), fingerprint(*original));
        QCOMPARE(fingerprint(replay.graphAt(5)), fingerprint(*work));
        // Back and forth through checkpoints gives the same graphs.
        const uint64_t at3 = fingerprint(replay.graphAt(3));
        replay.graphAt(1);
        QCOMPARE(fingerprint(replay.graphAt(3)), at3);
        QCOMPARE(replay.graphAt(3).numNodes(), size_t(3));
        QVERIFY(replay.graphAt(3).validate().empty());
    }

    void excludedRewriteDoesNotRun_data() {
        QTest::addColumn<QString>("excluded");
        QTest::newRow("by name") << "collapse_pass";
        QTest::newRow("by tag") << "toy";
        QTest::newRow("by pass name") << "toy_driver";
    }
    void excludedRewriteDoesNotRun() {
        QFETCH(QString, excluded);
        CollapsePass rewrite;
        auto g = chain(4);
        PipelineOptions opts;
        opts.exclude.insert(excluded.toStdString());
        toyPipeline(&rewrite).run(*g, opts);
        QCOMPARE(g->numNodes(), size_t(4));
    }

    void unknownExcludeNamesAreReported() {
        CollapsePass rewrite;
        PipelineOptions opts;
        opts.exclude.insert("no_such_rewrite");
        auto unknown = toyPipeline(&rewrite).unknownNames(opts);
        QCOMPARE(unknown.size(), size_t(1));
    }

    void dishonestPassIsCaught() {
        Pipeline p;
        std::vector<std::unique_ptr<GraphPass>> passes;
        passes.push_back(std::make_unique<LyingPass>());
        p.addPhase("lies", std::move(passes));
        auto g = chain(2);
        PipelineOptions opts;
        opts.checkHonestChange = true;
        QVERIFY_THROWS_EXCEPTION(PipelineError, p.run(*g, opts));
    }

    // An error inside a rewrite names the rewrite, the node it was rewriting, the pass
    // and the phase: what a bug report needs, the graph left to the caller.
    void aFailingRewriteIsNamed() {
        FailingRewrite rewrite;
        auto g = chain(3);
        std::string message;
        try {
            toyPipeline(&rewrite).run(*g, {});
        } catch (const PipelineError& e) {
            message = e.what();
        }
        QVERIFY2(message.find("in pass toy_driver (phase toy)") != std::string::npos, message.c_str());
        QVERIFY2(message.find("rewrite failing_rewrite at Pass#") != std::string::npos, message.c_str());
        QVERIFY2(message.find("cannot replace a Vector with a Matrix") != std::string::npos, message.c_str());
    }

    void explainRecordsMatchFailures() {
        CollapsePass rewrite;
        auto g = chain(1);
        Trace trace(g->clone());
        PipelineOptions opts;
        opts.explain = true;
        toyPipeline(&rewrite).run(*g, opts, &trace);
        QCOMPARE(trace.size(), size_t(0));
        QCOMPARE(trace.failures()[0].size(), size_t(1));
        QCOMPARE(QString::fromStdString(trace.failures()[0][0].reason), QString("input is not a Pass"));
    }
};

TL_TEST_SUITE(TestTrace)
#include "tst_trace.moc"
