// output_protection (PyTensor's insert_deepcopy): an output whose memory is a
// graph input, a constant or another output's goes through a DeepCopyOp.
// Firing and non-firing cases side by side, every one run before and after.
#include "TestSuites.h"
#include "BuildCases.h"
#include "RewriteCheck.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "ops/Elemwise.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

Pipeline protectionOnly() {
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(makeOutputProtection());
    return singlePhase("output_protection", std::move(passes));
}

// "0,2": the outputs of `after` returned through a DeepCopyOp that `before` did not have.
QString copiedOutputs(const Graph& after, const Graph& before) {
    QStringList l;
    for (size_t i = 0; i < after.outputs().size(); ++i) {
        const Variable* out = after.output(static_cast<int>(i));
        const Node* n = out->owner();
        if (n && n->op().kind() == OpKind::DeepCopy && before.output(static_cast<int>(i))->id() != out->id())
            l << QString::number(i);
    }
    return l.join(",");
}

Var mat(GraphBuilder& b, const char* name) { return b.input(name, DType::Float64, {3, 4}); }

} // namespace

class TestOutputProtection : public QObject {
    Q_OBJECT

private slots:
    void cases_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<QString>("copied");

        // ---- must copy
        QTest::newRow("output is a graph input") << BuildFn([](GraphBuilder& b) {
            Var m = mat(b, "m");
            return std::vector<Var>{exp(m), m};
        }) << "1";
        QTest::newRow("output is a view of a graph input") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{transpose(mat(b, "m"))};
        }) << "0";
        QTest::newRow("output is a constant") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{b.constant(NDArray::fromVector(DType::Float64, {2}, {1.5, 2.5})), exp(mat(b, "m"))};
        }) << "0";
        QTest::newRow("the same value twice") << BuildFn([](GraphBuilder& b) {
            Var a = exp(mat(b, "m"));
            return std::vector<Var>{a, a};
        }) << "0";
        QTest::newRow("two views of one value") << BuildFn([](GraphBuilder& b) {
            Var a = exp(mat(b, "m"));
            return std::vector<Var>{index(a, 0), index(a, 2)};
        }) << "0";
        QTest::newRow("a value and its view") << BuildFn([](GraphBuilder& b) {
            Var a = exp(mat(b, "m"));
            return std::vector<Var>{transpose(a), a};
        }) << "0";
        QTest::newRow("an input twice") << BuildFn([](GraphBuilder& b) {
            Var m = mat(b, "m");
            return std::vector<Var>{m, m};
        }) << "0,1";
        // ---- must not copy
        QTest::newRow("owns its memory") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{exp(mat(b, "m"))};
        }) << "";
        QTest::newRow("two different values of one input") << BuildFn([](GraphBuilder& b) {
            Var m = mat(b, "m");
            return std::vector<Var>{exp(m), sin(m)};
        }) << "";
        QTest::newRow("view of an intermediate") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{index(exp(mat(b, "m")), 1)};
        }) << "";
        QTest::newRow("a destroyer's output owns the memory it took over") << BuildFn([](GraphBuilder& b) {
            // sin overwrites exp's value after sum read it: no other output shares it.
            Var a = exp(mat(b, "m"));
            Var s = b.apply1(makeElemwise(ScalarOpCode::Sin, DType::Float64, {{0, 0}}), {a});
            return std::vector<Var>{s, sum(a)};
        }) << "";
        QTest::newRow("already a copy") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{deepCopy(mat(b, "m"))};
        }) << "";
    }

    void cases() {
        QFETCH(BuildFn, graph);
        QFETCH(QString, copied);
        auto g = buildGraph(graph);
        RewriteOutcome r = rewriteAndCompare(*g, protectionOnly());
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(copiedOutputs(*r.after, *r.before), copied);
        const int copies = copied.isEmpty() ? 0 : static_cast<int>(copied.split(",").size());
        QCOMPARE(r.stepsOf("output_protection"), copies);
        for (const TraceStep& s : r.trace.steps()) {
            QCOMPARE(s.attributes.size(), size_t(1));
            QCOMPARE(s.attributes[0].key, std::string("deep_copy"));
        }
        // A second run finds nothing left to protect.
        RewriteOutcome again = rewriteAndCompare(*r.after, protectionOnly());
        QCOMPARE(again.trace.size(), size_t(0));
    }
};

TL_TEST_SUITE(TestOutputProtection)
#include "tst_rw_output_protection.moc"
