// local_merge_switch_same_cond: an add, mul or binary Elemwise of switches on one
// condition becomes one switch of the op on each side. Each case is run before and
// after on seeded inputs (the conditions pick both sides somewhere).
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Math.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;

Var in(GraphBuilder& b, const char* name, StaticShape s = {4}) { return b.input(name, DType::Float64, std::move(s)); }

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"sum of two", [] {
             GraphBuilder b;
             Var x = in(b, "x"), y = in(b, "y"), z = in(b, "z");
             Var c = gt(x, 0.0);
             return b.finish({switch_(c, x, y) + switch_(c, y, z)});
         }},
        {"product of three", [] {
             GraphBuilder b;
             Var x = in(b, "x"), y = in(b, "y"), z = in(b, "z");
             Var c = gt(x, 0.0);
             return b.finish({mul({switch_(c, x, y), switch_(c, y, z), switch_(c, z, x)})});
         }},
        {"maximum", [] {
             GraphBuilder b;
             Var x = in(b, "x"), y = in(b, "y");
             Var c = gt(x, 0.0);
             return b.finish({maximum(switch_(c, x, b.constant(0.0)), switch_(c, y, b.constant(0.0)))});
         }},
        {"branches of different ranks", [] {
             GraphBuilder b;
             Var x = in(b, "x", {3, 4}), w = in(b, "w", {3, 4}), y = in(b, "y"), z = in(b, "z");
             Var c = gt(x, 0.0);
             return b.finish({switch_(c, x, y) - switch_(c, w, z)});
         }},
        {"a switch through a DimShuffle", [] {
             GraphBuilder b;
             Var x = in(b, "x", {3, 4}), y = in(b, "y"), z = in(b, "z");
             Var c = gt(z, 0.0);
             return b.finish({switch_(c, x, y) - switch_(c, y, z)});
         }},
        {"different conditions", [] {
             GraphBuilder b;
             Var x = in(b, "x"), y = in(b, "y"), z = in(b, "z");
             return b.finish({switch_(gt(x, 0.0), x, y) + switch_(gt(y, 0.0), y, z)});
         }},
        {"one input not a switch", [] {
             GraphBuilder b;
             Var x = in(b, "x"), y = in(b, "y"), z = in(b, "z");
             Var c = gt(x, 0.0);
             return b.finish({switch_(c, x, y) + z});
         }},
        {"not a binary op", [] {
             GraphBuilder b;
             Var x = in(b, "x"), y = in(b, "y"), z = in(b, "z");
             Var c = gt(x, 0.0);
             return b.finish({switch_(gt(z, 0.0), switch_(c, x, y), switch_(c, y, z))});
         }},
    };
    return m;
}

int switches(const Graph& g) {
    int n = 0;
    for (const Node* node : g.nodes())
        if (node->kind() == OpKind::Elemwise && node->op().name() == "Switch") ++n;
    return n;
}

} // namespace

class TestMergeSwitchSameCond : public QObject {
    Q_OBJECT
private slots:
    void merge_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("switchesAfter");
        QTest::newRow("switch(c, x, y) + switch(c, y, z)") << "sum of two" << 1 << 1;
        QTest::newRow("a product of three switches") << "product of three" << 1 << 1;
        QTest::newRow("maximum of two switches") << "maximum" << 1 << 1;
        QTest::newRow("branches of different ranks") << "branches of different ranks" << 1 << 1;
        QTest::newRow("not through a DimShuffle") << "a switch through a DimShuffle" << 0 << 2;
        QTest::newRow("not on different conditions") << "different conditions" << 0 << 2;
        QTest::newRow("not when an input is no switch") << "one input not a switch" << 0 << 1;
        QTest::newRow("not a switch of switches (ternary)") << "not a binary op" << 0 << 3;
    }
    void merge() {
        QFETCH(QString, graph);
        QFETCH(int, steps);
        QFETCH(int, switchesAfter);
        auto g = graphs().at(graph)();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localMergeSwitchSameCond()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_merge_switch_same_cond"), steps);
        QCOMPARE(switches(*out.after), switchesAfter);
        QCOMPARE(out.after->output(0)->type(), g->output(0)->type());
    }

    // In the pipeline the merged sides simplify: max(0, 0) folds to a constant.
    void sidesSimplifyInCanonicalize() {
        auto g = graphs().at("maximum")();
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_merge_switch_same_cond"), 1);
        QVERIFY(out.stepsOf("constant_folding") >= 1);
    }
};

TL_TEST_SUITE(TestMergeSwitchSameCond)
#include "tst_rw_merge_switch.moc"
