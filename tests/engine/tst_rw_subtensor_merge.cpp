// local_subtensor_merge: basic indexing of basic indexing becomes one Subtensor where
// constants and known lengths make the merge exact; each graph run before and after on the same
// inputs, the merged indices checked by value, and the cases it must leave alone.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Scan.h"
#include "builder/Math.h"
#include "io/JsonValues.h"
#include "ops/Subtensor.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;

Var in(GraphBuilder& b, const char* name, StaticShape s) { return b.input(name, DType::Float64, std::move(s)); }
const std::nullopt_t none = std::nullopt;

// scan()'s trace of x' = tanh(x) over 5 steps: the loop's output without its initial row.
Var trace(GraphBuilder& b) {
    Var x0 = in(b, "x0", {3});
    ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{tanh(a[0])}}; },
                        ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nSteps = 5});
    return r.outputs[0];
}

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"x[:3][:1]", [] {
             GraphBuilder b;
             return b.finish({slice(slice(in(b, "x", {9}), none, 3), none, 1) * 2.0});
         }},
        {"x[:3][1:]", [] {
             GraphBuilder b;
             return b.finish({slice(slice(in(b, "x", {9}), none, 3), 1, none) * 2.0});
         }},
        {"x[2:][1:4] of ?", [] {
             GraphBuilder b;
             return b.finish({slice(slice(in(b, "x", {kUnknownDim}), 2, none), 1, 4) * 2.0});
         }},
        {"x[1:][0] of ?", [] {
             GraphBuilder b;
             return b.finish({index(slice(in(b, "x", {kUnknownDim}), 1, none), 0) * 2.0});
         }},
        {"x[:3][0]", [] {
             GraphBuilder b;
             return b.finish({index(slice(in(b, "x", {9}), none, 3), 0) * 2.0});
         }},
        {"M[1:, 0][2]", [] {
             GraphBuilder b;
             return b.finish({index(subtensor(in(b, "M", {4, 5}), {Slice(1), 0}), 2) * 2.0});
         }},
        {"M[1][1:][:2]", [] {
             GraphBuilder b;
             return b.finish({slice(slice(index(in(b, "M", {4, 5}), 1), 1, none), none, 2) * 2.0});
         }},
        {"M[:, 1:][2:]", [] {
             GraphBuilder b;
             return b.finish({slice(subtensor(in(b, "M", {4, 5}), {Slice(), Slice(1)}), 2, none) * 2.0});
         }},
        // left alone
        {"x[:3][0] of ?", [] {
             GraphBuilder b;
             return b.finish({index(slice(in(b, "x", {kUnknownDim}), none, 3), 0) * 2.0});
         }},
        {"x[-3:][:1]", [] {
             GraphBuilder b;
             return b.finish({slice(slice(in(b, "x", {9}), -3, none), none, 1) * 2.0});
         }},
        {"x[::2][1:]", [] {
             GraphBuilder b;
             return b.finish({slice(slice(in(b, "x", {9}), none, none, 2), 1, none) * 2.0});
         }},
        {"x[i:][1:]", [] {
             GraphBuilder b;
             Var i = b.input("i", DType::Int64, {});
             return b.finish({slice(slice(in(b, "x", {9}), i, none), 1, none) * 2.0});
         }},
        {"x[1:][-1]", [] {
             GraphBuilder b;
             return b.finish({index(slice(in(b, "x", {9}), 1, none), -1) * 2.0});
         }},
        {"x[-3:][:1] of ?", [] {
             GraphBuilder b;
             return b.finish({slice(slice(in(b, "x", {kUnknownDim}), -3, none), none, 1) * 2.0});
         }},
        {"x[::2][1:] of ?", [] {
             GraphBuilder b;
             return b.finish({slice(slice(in(b, "x", {kUnknownDim}), none, none, 2), 1, none) * 2.0});
         }},
        // A loop's trace is typed (?, 3); its buffer has 6 rows (5 steps and the initial state).
        {"trace[1:][-1]", [] {
             GraphBuilder b;
             return b.finish({index(trace(b), -1) * 2.0});
         }},
        {"trace[1:][::-1]", [] {
             GraphBuilder b;
             return b.finish({slice(trace(b), none, none, -1) * 2.0});
         }},
    };
    return m;
}

/// The Subtensor under the output's Elemwise: "Subtensor{start:stop}(1, 3)".
QString describe(const Graph& g) {
    const Node* mul = g.output(0)->owner();
    const Node* n = nullptr;
    for (Variable* v : mul->inputs())
        if (v->owner() && v->owner()->op().kind() == OpKind::Subtensor) n = v->owner();
    if (!n) return "no Subtensor";
    QString s = QString::fromStdString(n->op().name()) + "(";
    for (int k = 1; k < n->numInputs(); ++k) {
        auto c = rw::constantIntOf(*n->input(k));
        s += (k > 1 ? ", " : "") + (c ? QString::number(*c) : QString::fromStdString(n->input(k)->name()));
    }
    return s + ")";
}

} // namespace

class TestSubtensorMerge : public QObject {
    Q_OBJECT
private slots:
    void merges_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<QString>("expected");  // "" for left alone
        QTest::newRow("slice of a slice") << "x[:3][:1]" << "Subtensor{:stop}(1)";
        QTest::newRow("start inside a stop") << "x[:3][1:]" << "Subtensor{start:stop}(1, 3)";
        QTest::newRow("both bounded, x of unknown length") << "x[2:][1:4] of ?" << "Subtensor{start:stop}(3, 6)";
        QTest::newRow("index into an open slice, unknown length") << "x[1:][0] of ?" << "Subtensor{i}(1)";
        QTest::newRow("index proven inside by the static length") << "x[:3][0]" << "Subtensor{i}(0)";
        QTest::newRow("index after an index keeps the first") << "M[1:, 0][2]" << "Subtensor{i, j}(3, 0)";
        QTest::newRow("three indexings into one") << "M[1][1:][:2]" << "Subtensor{i, start:stop}(1, 1, 3)";
        QTest::newRow("second indexing on the first's first dim") << "M[:, 1:][2:]" << "Subtensor{start:, start:}(2, 1)";
        QTest::newRow("known length: a negative start") << "x[-3:][:1]" << "Subtensor{start:stop}(6, 7)";
        QTest::newRow("known length: a step of 2") << "x[::2][1:]" << "Subtensor{start::step}(2, 2)";
        QTest::newRow("known length: a negative index") << "x[1:][-1]" << "Subtensor{i}(8)";
        QTest::newRow("a trace's length from its buffer: index") << "trace[1:][-1]" << "Subtensor{i}(5)";
        QTest::newRow("a trace's length from its buffer: reversed") << "trace[1:][::-1]" << "Subtensor{start:stop:step}(5, 0, -1)";
        QTest::newRow("not an index into a stopped slice of unknown length") << "x[:3][0] of ?" << "";
        QTest::newRow("not a negative start, unknown length") << "x[-3:][:1] of ?" << "";
        QTest::newRow("not a step of 2, unknown length") << "x[::2][1:] of ?" << "";
        QTest::newRow("not a symbolic start") << "x[i:][1:]" << "";
    }

    void merges() {
        QFETCH(QString, graph);
        QFETCH(QString, expected);
        auto g = graphs().at(graph)();
        std::vector<NDArray> inputs = randomInputs(*g, 5, 7);
        for (size_t k = 0; k < g->inputs().size(); ++k)
            if (g->inputs()[k]->type().dtype == DType::Int64) inputs[k] = NDArray::scalar(DType::Int64, 2);
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localSubtensorMerge()), {}, 1, 0.0, 0.0, &inputs);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        if (expected.isEmpty()) {
            QCOMPARE(out.stepsOf("local_subtensor_merge"), 0);
            QCOMPARE(countOps(*out.after, OpKind::Subtensor), countOps(*g, OpKind::Subtensor));
        } else {
            QVERIFY(out.stepsOf("local_subtensor_merge") > 0);
            QCOMPARE(countOps(*out.after, OpKind::Subtensor), 1);
            QCOMPARE(describe(*out.after), expected);
        }
    }
};

TL_TEST_SUITE(TestSubtensorMerge)
#include "tst_rw_subtensor_merge.moc"
