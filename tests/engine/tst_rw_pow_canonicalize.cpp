// local_pow_canonicalize: x ** 1, x ** 0 and 1 ** y. Each case runs the graph before
// and after on the same inputs (NaN among them), where the rewrite fires and where it
// must not.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Math.h"
#include "rewrite/Pipeline.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;

Var in(GraphBuilder& b, const char* name, StaticShape s, DType d = DType::Float64) { return b.input(name, d, std::move(s)); }

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"x ** 1", [] {
             GraphBuilder b;
             return b.finish({pow(in(b, "x", {3}), 1.0) + 2.0});
         }},
        {"x ** 0", [] {
             GraphBuilder b;
             return b.finish({pow(in(b, "x", {3}), 0.0)});
         }},
        {"1 ** y", [] {
             GraphBuilder b;
             return b.finish({pow(b.constant(1.0), in(b, "y", {3}))});
         }},
        {"int x ** 1 as float", [] {
             GraphBuilder b;
             return b.finish({pow(in(b, "k", {3}, DType::Int32), b.constant(1.0, DType::Float64))});
         }},
        {"0-d x ** 0", [] {
             GraphBuilder b;
             return b.finish({pow(in(b, "x", {}), 0.0)});
         }},
        {"x ** 2", [] {
             GraphBuilder b;
             return b.finish({pow(in(b, "x", {3}), 2.0)});
         }},
        {"x ** y", [] {
             GraphBuilder b;
             return b.finish({pow(in(b, "x", {3}), in(b, "y", {3}))});
         }},
        {"scalar x ** a vector of ones", [] {
             GraphBuilder b;
             return b.finish({pow(in(b, "x", {}), b.constant(NDArray::fromVector(DType::Float64, {3}, {1.0, 1.0, 1.0})))});
         }},
    };
    return m;
}

} // namespace

class TestPowCanonicalize : public QObject {
    Q_OBJECT
private slots:
    void rewrites_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("elemwiseAfter");
        QTest::addColumn<int>("steps");
        QTest::newRow("x ** 1 -> x") << "x ** 1" << 1 << 1;
        QTest::newRow("x ** 0 -> ones") << "x ** 0" << 0 << 1;
        QTest::newRow("1 ** y -> ones") << "1 ** y" << 0 << 1;
        QTest::newRow("int x ** 1.0 -> cast(x)") << "int x ** 1 as float" << 1 << 1;
        QTest::newRow("0-d x ** 0 -> 1") << "0-d x ** 0" << 0 << 1;
        QTest::newRow("not x ** 2") << "x ** 2" << 1 << 0;
        QTest::newRow("not x ** y") << "x ** y" << 1 << 0;
        QTest::newRow("not when the exponent broadcasts x") << "scalar x ** a vector of ones" << 1 << 0;
    }

    void rewrites() {
        QFETCH(QString, graph);
        QFETCH(int, elemwiseAfter);
        QFETCH(int, steps);
        auto g = graphs().at(graph)();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localPowCanonicalize()), {}, 3, 0.0, 0.0);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countOps(*out.after, OpKind::Elemwise), elemwiseAfter);
        QCOMPARE(out.stepsOf("local_pow_canonicalize"), steps);
    }

    // pow(NaN, 0) and pow(1, NaN) are 1: the rewritten graphs agree on NaN inputs.
    void nanInputsKeepTheirPowers() {
        for (const char* graph : {"x ** 0", "1 ** y"}) {
            auto g = graphs().at(graph)();
            const std::vector<NDArray> inputs{NDArray::fromVector(DType::Float64, {3}, {std::nan(""), 0.0, INFINITY})};
            RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 1, 0.0, 0.0, &inputs);
            QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
            QCOMPARE(out.stepsOf("local_pow_canonicalize"), 1);
        }
    }
};

TL_TEST_SUITE(TestPowCanonicalize)
#include "tst_rw_pow_canonicalize.moc"
