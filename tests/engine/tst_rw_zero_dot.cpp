// local_0_dot_x: a matrix product with a constant operand of zeros is an Alloc of
// zeros of the product's shape, as PyTensor's rewrite. Each case run before and after.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;
constexpr int64_t U = kUnknownDim;

Var in(GraphBuilder& b, const char* name, StaticShape s) { return b.input(name, DType::Float64, std::move(s)); }
Var filled(GraphBuilder& b, Shape s, double first, double rest) {
    int64_t n = 1;
    for (int64_t d : s) n *= d;
    std::vector<double> values(static_cast<size_t>(n), rest);
    values[0] = first;
    return b.constant(NDArray::fromVector(DType::Float64, s, values));
}

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"zeros on the left", [] {
             GraphBuilder b;
             return b.finish({dot(filled(b, {3, 6}, 0, 0), in(b, "M", {6, U})) * 2.0});
         }},
        {"zeros on the right", [] {
             GraphBuilder b;
             return b.finish({dot(in(b, "M", {U, 6}), filled(b, {6, 2}, 0, 0)) * 2.0});
         }},
        {"one element not zero", [] {
             GraphBuilder b;
             return b.finish({dot(filled(b, {3, 6}, 1, 0), in(b, "M", {6, U})) * 2.0});
         }},
        {"zeros seen through a transpose", [] {
             GraphBuilder b;
             return b.finish({dot(transpose(filled(b, {6, 3}, 0, 0)), in(b, "M", {6, U})) * 2.0});
         }},
        {"a vector of zeros", [] {
             GraphBuilder b;
             return b.finish({dot(filled(b, {6}, 0, 0), in(b, "M", {6, U})) * 2.0});
         }},
    };
    return m;
}

} // namespace

class TestZeroDot : public QObject {
    Q_OBJECT
private slots:
    void rewrite_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("steps");
        QTest::newRow("Dot(zeros, M) -> Alloc(0, 3, Shape_i{1}(M))") << "zeros on the left" << 1;
        QTest::newRow("Dot(M, zeros) -> Alloc(0, Shape_i{0}(M), 2)") << "zeros on the right" << 1;
        QTest::newRow("not a constant with a non-zero") << "one element not zero" << 0;
        QTest::newRow("not zeros behind another op (only constants)") << "zeros seen through a transpose" << 0;
        QTest::newRow("not a vector operand (nor its ExpandDims)") << "a vector of zeros" << 0;
    }
    void rewrite() {
        QFETCH(QString, graph);
        QFETCH(int, steps);
        auto g = graphs().at(graph)();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(local0DotX()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_0_dot_x"), steps);
        QCOMPARE(countOps(*out.after, OpKind::Dot), steps ? 0 : 1);
        QCOMPARE(countOps(*out.after, OpKind::Alloc), steps);
        QCOMPARE(out.after->output(0)->type(), g->output(0)->type());
    }

    // In the pipeline nothing of the product is left: no Dot and no BLAS call.
    void pipeline() {
        auto g = graphs().at("zeros on the left")();
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_0_dot_x"), 1);
        for (OpKind k : {OpKind::Dot, OpKind::Dot22, OpKind::Gemm}) QCOMPARE(countOps(*out.after, k), 0);
    }

    // --exclude shape_unsafe keeps the product, as in PyTensor.
    void excludedAsShapeUnsafe() {
        auto g = graphs().at("zeros on the left")();
        PipelineOptions opts;
        opts.exclude = {"shape_unsafe"};
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun(), opts);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_0_dot_x"), 0);
    }
};

TL_TEST_SUITE(TestZeroDot)
#include "tst_rw_zero_dot.moc"
