// merge (and final_merge): CSE of constants and nodes, with the cases that must stay
// apart side by side; structural equality of inner graphs; a 10,000-node graph.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Scan.h"
#include "ops/Elemwise.h"
#include "ops/IncSubtensor.h"
#include "analysis/GraphEquality.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;

Var vec(GraphBuilder& b, const char* name = "x") { return b.input(name, DType::Float64, {4}); }

Var scanOf(GraphBuilder& b, Var x0, double factor, int steps) {
    return scan(b, [factor](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{exp(a[0]) * factor}}; },
                ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nSteps = steps})
        .outputs[0];
}

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"equal constants", [] {
             GraphBuilder b;
             Var x = vec(b);
             return b.finish({x + b.constant(2.0), x * b.constant(2.0)});
         }},
        {"constants of other dtypes", [] {
             GraphBuilder b;
             Var x = vec(b);
             return b.finish({x + b.constant(2.0, DType::Float64), x * b.constant(2.0, DType::Float32)});
         }},
        {"exp twice", [] {
             GraphBuilder b;
             Var x = vec(b);
             return b.finish({exp(x) + exp(x)});
         }},
        {"exp and log", [] {
             GraphBuilder b;
             Var x = vec(b);
             return b.finish({exp(x) + log(abs(x))});
         }},
        {"casts to other dtypes", [] {
             GraphBuilder b;
             Var x = vec(b);
             return b.finish({cast(x, DType::Float32), cast(x, DType::Int8)});
         }},
        {"exp of different inputs", [] {
             GraphBuilder b;
             Var x = vec(b), y = vec(b, "y");
             return b.finish({exp(x) + exp(y)});
         }},
        {"nested duplicates", [] {
             GraphBuilder b;
             Var x = vec(b);
             return b.finish({tanh(exp(x) * 0.5) - tanh(exp(x) * 0.5), sin(tanh(exp(x) * 0.5))});
         }},
        {"destroyed output stays", [] {
             // e1 is overwritten in place by the IncSubtensor; e2 is read afterwards.
             GraphBuilder b;
             Var x = vec(b), y = b.input("y", DType::Float64, {});
             Var e1 = exp(x), e2 = exp(x);
             Var inc = incSubtensor(e1, y, {Idx(0)}, /*inplace=*/true);
             return b.finish({inc, e2 * 2.0});
         }},
        {"buffers apart, equal loops merge", [] {
             GraphBuilder b;
             Var x = vec(b);
             return b.finish({scanOf(b, x, 0.5, 3), scanOf(b, x, 0.5, 3)});
         }},
        {"loops with other bodies", [] {
             GraphBuilder b;
             Var x = vec(b);
             return b.finish({scanOf(b, x, 0.5, 3), scanOf(b, x, 0.25, 3)});
         }},
        {"loops with other inits", [] {
             GraphBuilder b;
             Var x = vec(b), y = vec(b, "y");
             return b.finish({scanOf(b, x, 0.5, 3), scanOf(b, y, 0.5, 3)});
         }},
        {"deep copies", [] {
             GraphBuilder b;
             Var x = vec(b);
             return b.finish({deepCopy(x), deepCopy(x)});
         }},
        {"two outputs", [] {
             GraphBuilder b;
             Var x = vec(b);
             return b.finish({exp(x), exp(x)});
         }},
    };
    return m;
}

int countKind(const Graph& g, const QString& kind) {
    return countOps(g, *parseOpKind(kind.toStdString()));
}

} // namespace

class TestMerge : public QObject {
    Q_OBJECT
private slots:
    void merges_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<bool>("final");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("before");
        QTest::addColumn<int>("after");
        QTest::addColumn<int>("constantsAfter");  // -1: not checked
        // Fires                                                    // Must not fire
        QTest::newRow("equal constants") << "equal constants" << false << "DimShuffle" << 2 << 1 << 1;
        QTest::newRow("constants of other dtypes") << "constants of other dtypes" << false << "DimShuffle" << 2 << 2 << 2;
        QTest::newRow("exp twice") << "exp twice" << false << "Elemwise" << 3 << 2 << -1;
        QTest::newRow("exp and log") << "exp and log" << false << "Elemwise" << 4 << 4 << -1;
        QTest::newRow("casts to other dtypes") << "casts to other dtypes" << false << "Elemwise" << 2 << 2 << -1;
        QTest::newRow("exp of different inputs") << "exp of different inputs" << false << "Elemwise" << 3 << 3 << -1;
        QTest::newRow("nested duplicates") << "nested duplicates" << false << "Elemwise" << 11 << 5 << -1;
        QTest::newRow("destroyed output stays") << "destroyed output stays" << false << "Elemwise" << 3 << 3 << -1;
        QTest::newRow("equal loops merge") << "buffers apart, equal loops merge" << false << "Scan" << 2 << 1 << -1;
        QTest::newRow("equal loops: one buffer left") << "buffers apart, equal loops merge" << false << "AllocEmpty" << 2 << 1 << -1;
        QTest::newRow("loops with other bodies") << "loops with other bodies" << false << "Scan" << 2 << 2 << -1;
        QTest::newRow("loops with other bodies: buffers apart") << "loops with other bodies" << false << "AllocEmpty" << 2 << 2 << -1;
        QTest::newRow("loops with other inits") << "loops with other inits" << false << "Scan" << 2 << 2 << -1;
        QTest::newRow("deep copies stay") << "deep copies" << false << "DeepCopyOp" << 2 << 2 << -1;
        QTest::newRow("two outputs merge") << "two outputs" << false << "Elemwise" << 2 << 1 << -1;
        QTest::newRow("final_merge keeps two outputs apart") << "two outputs" << true << "Elemwise" << 2 << 2 << -1;
    }

    void merges() {
        QFETCH(QString, graph);
        QFETCH(bool, final);
        QFETCH(QString, kind);
        QFETCH(int, before);
        QFETCH(int, after);
        QFETCH(int, constantsAfter);
        auto g = graphs().at(graph)();
        QCOMPARE(countKind(*g, kind), before);
        std::vector<std::unique_ptr<GraphPass>> passes;
        passes.push_back(final ? makeFinalMergePass() : makeMergePass());
        RewriteOutcome out = rewriteAndCompare(*g, singlePhase(final ? "final_merge" : "merge", std::move(passes)));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countKind(*out.after, kind), after);
        if (constantsAfter >= 0) QCOMPARE(int(out.after->constants().size()), constantsAfter);
        for (const TraceStep& s : out.trace.steps()) QCOMPARE(QString::fromStdString(s.rewrite), QString("merge"));
    }

    // One step per merged node, rooted at the survivor; constants one step per value.
    void traceStepsPerMergedNode() {
        GraphBuilder b;
        Var x = vec(b);
        Var y = exp(x) + exp(x) + exp(x);  // two duplicate exps; three constants none
        auto g = b.finish({y});
        std::vector<std::unique_ptr<GraphPass>> passes;
        passes.push_back(makeMergePass());
        RewriteOutcome out = rewriteAndCompare(*g, singlePhase("merge", std::move(passes)));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("merge"), 2);
        for (const TraceStep& s : out.trace.steps()) QVERIFY(s.root && out.after->findNode(*s.root) != nullptr);
    }

    // A second run finds nothing: the pass is idempotent (and honest about it).
    void idempotent() {
        auto g = graphs().at("nested duplicates")();
        std::vector<std::unique_ptr<GraphPass>> passes;
        passes.push_back(makeMergePass());
        passes.push_back(makeMergePass());
        RewriteOutcome out = rewriteAndCompare(*g, singlePhase("merge", std::move(passes)));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countOps(*out.after, OpKind::Elemwise), 5);
    }

    void structuralEquality() {
        // Two loop bodies built apart compare equal; a different constant does not.
        auto body = [](double c) {
            GraphBuilder b;
            Var s = b.input("s", DType::Float64, {4});
            return b.finish({exp(s) * c + s});
        };
        auto a = body(0.5), a2 = body(0.5), c = body(0.25);
        QVERIFY(graphsStructurallyEqual(*a, *a2));
        QCOMPARE(structuralHash(*a), structuralHash(*a2));
        QVERIFY(!graphsStructurallyEqual(*a, *c));
        // Input types matter; names and ids do not.
        GraphBuilder b;
        Var s = b.input("other_name", DType::Float32, {4});
        auto f32 = b.finish({exp(s) * 0.5 + s});
        QVERIFY(!graphsStructurallyEqual(*a, *f32));
    }

    // 10,000 nodes of duplicated subexpressions merge in one linear pass (the time is
    // measured by bench/bench_rewrite_merge; here: it completes and is right).
    void tenThousandNodes() {
        GraphBuilder b;
        Var v = vec(b);
        for (int i = 0; i < 1200; ++i) {
            Var a = sin(v) + 0.5;
            Var c = sin(v) + 0.5;
            v = a * c * 0.25;
        }
        auto g = b.finish({v});
        QVERIFY(g->numNodes() >= 10000);
        std::vector<std::unique_ptr<GraphPass>> passes;
        passes.push_back(makeMergePass());
        RewriteOutcome out = rewriteAndCompare(*g, singlePhase("merge", std::move(passes)));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        // Per iteration: sin, add, mul, mul; one ExpandDims of each constant for all.
        QCOMPARE(int(out.after->numNodes()), 1200 * 4 + 2);
        QCOMPARE(int(out.after->constants().size()), 2);
    }
};

TL_TEST_SUITE(TestMerge)
#include "tst_rw_merge.moc"
