// local_sum_prod_all_to_none: a Sum or Prod over every axis, named one by one, becomes
// the same reduction with axes=None. Each case runs the graph before and after on the
// same inputs, where the rewrite fires and where it must not.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "ops/Reduce.h"
#include "rewrite/Pipeline.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;

Var in(GraphBuilder& b, StaticShape s) { return b.input("x", DType::Float64, std::move(s)); }

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"sum(x, (0, 1))", [] { GraphBuilder b; return b.finish({sum(in(b, {3, 4}), std::vector<int>{0, 1})}); }},
        {"prod(x, (1, 0))", [] { GraphBuilder b; return b.finish({prod(in(b, {3, 2}), std::vector<int>{1, 0})}); }},
        {"sum(x, (-1, 0, 1))", [] { GraphBuilder b; return b.finish({sum(in(b, {2, 3, 2}), std::vector<int>{-1, 0, 1})}); }},
        {"sum(x, 0) of a vector", [] { GraphBuilder b; return b.finish({sum(in(b, {5}), std::vector<int>{0})}); }},
        {"sum(x, 1)", [] { GraphBuilder b; return b.finish({sum(in(b, {3, 4}), std::vector<int>{1})}); }},
        {"sum(x)", [] { GraphBuilder b; return b.finish({sum(in(b, {3, 4}))}); }},
        {"max(x, (0, 1))", [] { GraphBuilder b; return b.finish({max(in(b, {3, 4}), std::vector<int>{0, 1})}); }},
    };
    return m;
}

} // namespace

class TestReduceAllAxes : public QObject {
    Q_OBJECT
private slots:
    void rewrites_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("steps");
        QTest::newRow("sum over both axes") << "sum(x, (0, 1))" << 1;
        QTest::newRow("prod over both axes, listed backwards") << "prod(x, (1, 0))" << 1;
        QTest::newRow("negative axes") << "sum(x, (-1, 0, 1))" << 1;
        QTest::newRow("a vector's only axis") << "sum(x, 0) of a vector" << 1;
        QTest::newRow("not one axis of two") << "sum(x, 1)" << 0;
        QTest::newRow("not already axes=None") << "sum(x)" << 0;
        QTest::newRow("not Max") << "max(x, (0, 1))" << 0;
    }

    void rewrites() {
        QFETCH(QString, graph);
        QFETCH(int, steps);
        auto g = graphs().at(graph)();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localSumProdAllToNone()), {}, 4, 0.0, 0.0);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_sum_prod_all_to_none"), steps);
        if (steps) {
            for (const Node* n : out.after->toposort())
                if (n->op().kind() == OpKind::Reduce) QVERIFY(!static_cast<const ReduceOp&>(n->op()).axes());
        }
    }

    // sum(x, (0, 1)) and sum(x) are one node after canonicalize's merge.
    void mergesWithTheUnnamedSum() {
        GraphBuilder b;
        Var x = in(b, {3, 4});
        auto g = b.finish({sum(x, std::vector<int>{0, 1}) + sum(x)});
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 2);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_sum_prod_all_to_none"), 1);
        QCOMPARE(countOps(*out.after, OpKind::Reduce), 1);
    }
};

TL_TEST_SUITE(TestReduceAllAxes)
#include "tst_rw_reduce_all_axes.moc"
