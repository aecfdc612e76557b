// local_sum_prod_of_mul_or_div: factors constant along the reduced axes leave a sum or
// product. Each case runs the graph before and after on the same inputs, where the
// rewrite fires and where it must not.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "rewrite/Pipeline.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;

Var in(GraphBuilder& b, const char* name, StaticShape s, DType d = DType::Float64) { return b.input(name, d, std::move(s)); }

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"sum of a row times X over rows", [] {
             GraphBuilder b;
             Var a = in(b, "a", {1, 4}), x = in(b, "x", {3, 4});
             return b.finish({sum(a * x, std::vector<int>{0})});
         }},
        {"sum of 2 * X", [] {
             GraphBuilder b;
             return b.finish({sum(2.0 * in(b, "x", {3, 4}))});
         }},
        {"sum of X over a row", [] {
             GraphBuilder b;
             Var a = in(b, "a", {1, 4}), x = in(b, "x", {3, 4});
             return b.finish({sum(x / a, std::vector<int>{0})});
         }},
        {"prod of a column times X over columns", [] {
             GraphBuilder b;
             Var a = in(b, "a", {3, 1}), x = in(b, "x", {3, 4});
             return b.finish({prod(a * x, std::vector<int>{1})});
         }},
        {"prod of X of unknown rows over a row", [] {
             GraphBuilder b;
             Var a = in(b, "a", {1, 4}), x = in(b, "x", {kUnknownDim, 4});
             return b.finish({prod(x / a, std::vector<int>{0})});
         }},
        {"sum of two rows over rows", [] {
             GraphBuilder b;
             Var a = in(b, "a", {1, 4}), c = in(b, "c", {1, 4});
             return b.finish({sum(a * c, std::vector<int>{0})});
         }},
        {"sum of a over X", [] {
             GraphBuilder b;
             Var a = in(b, "a", {1, 4}), x = in(b, "x", {3, 4});
             return b.finish({sum(a / (exp(x) + 1.0), std::vector<int>{0})});
         }},
        {"sum of two varying factors", [] {
             GraphBuilder b;
             Var a = in(b, "a", {3, 4}), x = in(b, "x", {3, 4});
             return b.finish({sum(a * x, std::vector<int>{0})});
         }},
        {"sum of a float32 row times X", [] {
             GraphBuilder b;
             Var a = in(b, "a", {1, 4}, DType::Float32), x = in(b, "x", {3, 4});
             return b.finish({sum(a * x, std::vector<int>{0})});
         }},
        {"max of a row times X", [] {
             GraphBuilder b;
             Var a = in(b, "a", {1, 4}), x = in(b, "x", {3, 4});
             return b.finish({max(a * x, std::vector<int>{0})});
         }},
    };
    return m;
}

} // namespace

class TestReductionFactors : public QObject {
    Q_OBJECT
private slots:
    void rewrites_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("reducesAfter");
        QTest::addColumn<int>("steps");
        QTest::newRow("sum(a * X) -> a * sum(X)") << "sum of a row times X over rows" << 1 << 1;
        QTest::newRow("sum(2 * X) -> 2 * sum(X)") << "sum of 2 * X" << 1 << 1;
        QTest::newRow("sum(X / a) -> sum(X) / a") << "sum of X over a row" << 1 << 1;
        QTest::newRow("prod(a * X) -> a ** 4 * prod(X)") << "prod of a column times X over columns" << 1 << 1;
        QTest::newRow("prod(X / a) of unknown rows -> prod(X) / a ** n") << "prod of X of unknown rows over a row" << 1 << 1;
        QTest::newRow("sum(a * c), both constant along the axis -> a * c") << "sum of two rows over rows" << 0 << 1;
        QTest::newRow("not sum(a / X)") << "sum of a over X" << 1 << 0;
        QTest::newRow("not two varying factors") << "sum of two varying factors" << 1 << 0;
        QTest::newRow("a float32 factor, cast as the product did") << "sum of a float32 row times X" << 1 << 1;
        QTest::newRow("not max") << "max of a row times X" << 1 << 0;
    }

    void rewrites() {
        QFETCH(QString, graph);
        QFETCH(int, reducesAfter);
        QFETCH(int, steps);
        auto g = graphs().at(graph)();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localSumProdOfMulOrDiv()), {}, 3, 1e-12, 0.0);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countOps(*out.after, OpKind::Reduce), reducesAfter);
        QCOMPARE(out.stepsOf("local_sum_prod_of_mul_or_div"), steps);
    }

    // Through FAST_RUN the scale of a gradient-like sum leaves the reduction.
    void pipelineTakesTheScaleOut() {
        GraphBuilder b;
        Var x = in(b, "x", {3, 4});
        Var s = in(b, "s", {});
        auto g = b.finish({sum(s * exp(x), std::vector<int>{0, 1})});
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 1, 1e-12, 0.0);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_sum_prod_of_mul_or_div"), 1);
    }
};

TL_TEST_SUITE(TestReductionFactors)
#include "tst_rw_reduction_factors.moc"
