// local_useless_elemwise_comparison: comparisons of lengths with 0 and of an integer
// with itself, by their known answer. Each case runs the graph before and after on
// the same inputs, where the rewrite fires and where it must not.
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
Var zero(GraphBuilder& b) { return b.constant(0.0, DType::Int8); }

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"length below 0", [] {
             GraphBuilder b;
             return b.finish({lt(shapeI(in(b, "x", {kUnknownDim}), 0), zero(b))});
         }},
        {"length at least 0", [] {
             GraphBuilder b;
             return b.finish({ge(shapeI(in(b, "x", {kUnknownDim}), 0), zero(b))});
         }},
        {"sum of lengths at least 0", [] {
             GraphBuilder b;
             Var x = in(b, "x", {kUnknownDim, kUnknownDim});
             return b.finish({ge(shapeI(x, 0) + shapeI(x, 1), zero(b))});
         }},
        {"shape entry equal to -1", [] {
             GraphBuilder b;
             return b.finish({eq(index(shape(in(b, "x", {kUnknownDim, 3})), 0), b.constant(-1.0, DType::Int64))});
         }},
        {"maximum of a length and 0", [] {
             GraphBuilder b;
             return b.finish({maximum(shapeI(in(b, "x", {kUnknownDim}), 0), zero(b))});
         }},
        {"minimum of 0 and a length", [] {
             GraphBuilder b;
             return b.finish({minimum(zero(b), shapeI(in(b, "x", {kUnknownDim}), 0))});
         }},
        {"int below itself", [] {
             GraphBuilder b;
             Var k = in(b, "k", {kUnknownDim}, DType::Int32);
             return b.finish({lt(k, k)});
         }},
        {"int at most itself", [] {
             GraphBuilder b;
             Var k = in(b, "k", {kUnknownDim}, DType::Int32);
             return b.finish({le(k, k)});
         }},
        {"maximum of a float and itself", [] {
             GraphBuilder b;
             Var x = in(b, "x", {3});
             return b.finish({maximum(x, x) * 2.0});
         }},
        {"float below itself", [] {
             GraphBuilder b;
             Var x = in(b, "x", {3});
             return b.finish({lt(x, x)});
         }},
        {"length below 1", [] {
             GraphBuilder b;
             return b.finish({lt(shapeI(in(b, "x", {kUnknownDim}), 0), b.constant(1.0, DType::Int8))});
         }},
        {"float at least 0", [] {
             GraphBuilder b;
             return b.finish({ge(in(b, "x", {3}), zero(b))});
         }},
        {"length at least 0, broadcast by a vector", [] {
             GraphBuilder b;
             Var zeros = b.constant(NDArray::zeros(DType::Int8, {3}));
             return b.finish({ge(shapeI(in(b, "x", {kUnknownDim}), 0), zeros)});
         }},
    };
    return m;
}

} // namespace

class TestKnownComparisons : public QObject {
    Q_OBJECT
private slots:
    void rewrites_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("elemwiseAfter");
        QTest::addColumn<int>("steps");
        QTest::newRow("lt(n, 0) -> False") << "length below 0" << 0 << 1;
        QTest::newRow("ge(n, 0) -> True") << "length at least 0" << 0 << 1;
        QTest::newRow("ge(n + m, 0) -> True") << "sum of lengths at least 0" << 0 << 1;
        QTest::newRow("eq(shape(x)[0], -1) -> False") << "shape entry equal to -1" << 0 << 1;
        QTest::newRow("maximum(n, 0) -> n") << "maximum of a length and 0" << 0 << 1;
        QTest::newRow("minimum(0, n) -> 0") << "minimum of 0 and a length" << 0 << 1;
        QTest::newRow("lt(k, k) of ints -> zeros") << "int below itself" << 0 << 1;
        QTest::newRow("le(k, k) of ints -> ones") << "int at most itself" << 0 << 1;
        QTest::newRow("maximum(x, x) -> x") << "maximum of a float and itself" << 1 << 1;
        QTest::newRow("not lt(x, x) of floats (NaN)") << "float below itself" << 1 << 0;
        QTest::newRow("not lt(n, 1)") << "length below 1" << 1 << 0;
        QTest::newRow("not ge(x, 0) of a float") << "float at least 0" << 1 << 0;
        QTest::newRow("not when the other operand broadcasts") << "length at least 0, broadcast by a vector" << 1 << 0;
    }

    void rewrites() {
        QFETCH(QString, graph);
        QFETCH(int, elemwiseAfter);
        QFETCH(int, steps);
        auto g = graphs().at(graph)();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localUselessElemwiseComparison()), {}, 5, 0.0, 0.0);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countOps(*out.after, OpKind::Elemwise), elemwiseAfter);
        QCOMPARE(out.stepsOf("local_useless_elemwise_comparison"), steps);
    }

    // With NaN in x, lt(x, x) is False and le(x, x) is False too: the float cases stay,
    // so the rewritten graph still gives False where the rewrite would have said True.
    void floatSelfComparisonKeepsNaN() {
        GraphBuilder b;
        Var x = in(b, "x", {3});
        auto g = b.finish({le(x, x)});
        const std::vector<NDArray> inputs{NDArray::fromVector(DType::Float64, {3}, {1.0, std::nan(""), -2.0})};
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 1, 0.0, 0.0, &inputs);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_useless_elemwise_comparison"), 0);
    }
};

TL_TEST_SUITE(TestKnownComparisons)
#include "tst_rw_known_comparisons.moc"
