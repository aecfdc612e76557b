// Elementwise identities of PyTensor's canonicalize and specialize: local_mul_to_sqr,
// local_add_neg_to_sub, local_intdiv_by_one and the useless_<f>_of_<g> inverse pairs.
// Each case runs the graph before and after on the same inputs, where the rewrite fires
// and where it must not.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
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
        {"x * x", [] {
             GraphBuilder b;
             Var x = in(b, "x", {3});
             return b.finish({mul({x, x}) + 1.0});
         }},
        {"int x * x", [] {
             GraphBuilder b;
             Var x = in(b, "k", {3}, DType::Int32);
             return b.finish({mul({x, x})});
         }},
        {"x * y", [] {
             GraphBuilder b;
             return b.finish({mul({in(b, "x", {3}), in(b, "y", {3})})});
         }},
        {"x * x * x", [] {
             GraphBuilder b;
             Var x = in(b, "x", {3});
             return b.finish({mul({x, x, x})});
         }},
        {"x + -y", [] {
             GraphBuilder b;
             return b.finish({add({in(b, "x", {2, 3}), neg(in(b, "y", {1, 3}))})});
         }},
        {"-x + y", [] {
             GraphBuilder b;
             return b.finish({add({neg(in(b, "x", {3})), in(b, "y", {3})})});
         }},
        {"x + y + -z", [] {
             GraphBuilder b;
             return b.finish({add({in(b, "x", {3}), in(b, "y", {3}), neg(in(b, "z", {3}))})});
         }},
        {"k // 1", [] {
             GraphBuilder b;
             return b.finish({intDiv(in(b, "k", {4}, DType::Int64), b.constant(1.0, DType::Int64))});
         }},
        {"k // 2", [] {
             GraphBuilder b;
             return b.finish({intDiv(in(b, "k", {4}, DType::Int64), b.constant(2.0, DType::Int64))});
         }},
        {"x // 1.0", [] {
             GraphBuilder b;
             return b.finish({intDiv(in(b, "x", {4}), b.constant(1.0))});
         }},
        {"0-d k // ones", [] {
             GraphBuilder b;
             return b.finish({intDiv(in(b, "k", {}, DType::Int64),
                                     b.constant(NDArray::fromVector(DType::Int64, {3}, {1, 1, 1})))});
         }},
        {"-(-x)", [] {
             GraphBuilder b;
             return b.finish({neg(neg(in(b, "x", {3})))});
         }},
        {"1/(1/x)", [] {
             GraphBuilder b;
             return b.finish({reciprocal(reciprocal(in(b, "x", {3})))});
         }},
        {"tanh(arctanh(x))", [] {
             GraphBuilder b;
             return b.finish({tanh(arctanh(in(b, "x", {3})))});
         }},
        {"arcsinh(sinh(x))", [] {
             GraphBuilder b;
             return b.finish({arcsinh(sinh(in(b, "x", {3})))});
         }},
        {"rad2deg(deg2rad(k))", [] {
             GraphBuilder b;
             return b.finish({rad2deg(deg2rad(in(b, "k", {3}, DType::Int32)))});
         }},
        {"cosh(arccosh(1 + x^2))", [] {
             GraphBuilder b;
             return b.finish({cosh(arccosh(sqr(in(b, "x", {3})) + 1.0))});
         }},
        {"arccosh(cosh(x))", [] {
             GraphBuilder b;
             return b.finish({arccosh(cosh(in(b, "x", {3})))});
         }},
        {"tanh(arcsinh(x))", [] {
             GraphBuilder b;
             return b.finish({tanh(arcsinh(in(b, "x", {3})))});
         }},
    };
    return m;
}

const NodeRewrite& rewriteNamed(const QString& name) {
    for (const NodeRewrite* r : {&localMulToSqr(), &localAddNegToSub(), &localIntdivByOne()})
        if (QString::fromStdString(std::string(r->name())) == name) return *r;
    for (const NodeRewrite* r : uselessInversePairs())
        if (QString::fromStdString(std::string(r->name())) == name) return *r;
    throw std::logic_error("no rewrite " + name.toStdString());
}

} // namespace

class TestElemwiseIdentities : public QObject {
    Q_OBJECT
private slots:
    void rewrites_data() {
        QTest::addColumn<QString>("rewrite");
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("elemwiseAfter");
        QTest::newRow("x * x -> sqr(x)") << "local_mul_to_sqr" << "x * x" << 1 << 2;
        QTest::newRow("int x * x -> sqr(x)") << "local_mul_to_sqr" << "int x * x" << 1 << 1;
        QTest::newRow("not x * y") << "local_mul_to_sqr" << "x * y" << 0 << 1;
        QTest::newRow("not x * x * x") << "local_mul_to_sqr" << "x * x * x" << 0 << 1;
        QTest::newRow("x + -y -> x - y") << "local_add_neg_to_sub" << "x + -y" << 1 << 1;
        QTest::newRow("-x + y -> y - x") << "local_add_neg_to_sub" << "-x + y" << 1 << 1;
        QTest::newRow("not a three-input add") << "local_add_neg_to_sub" << "x + y + -z" << 0 << 2;
        QTest::newRow("k // 1 -> k") << "local_intdiv_by_one" << "k // 1" << 1 << 0;
        QTest::newRow("not k // 2") << "local_intdiv_by_one" << "k // 2" << 0 << 1;
        QTest::newRow("not a float x // 1.0 (a floor)") << "local_intdiv_by_one" << "x // 1.0" << 0 << 1;
        QTest::newRow("not when the ones broadcast k") << "local_intdiv_by_one" << "0-d k // ones" << 0 << 1;
        QTest::newRow("-(-x) -> x") << "useless_Neg_of_Neg" << "-(-x)" << 1 << 0;
        QTest::newRow("1/(1/x) -> x") << "useless_Reciprocal_of_Reciprocal" << "1/(1/x)" << 1 << 0;
        QTest::newRow("tanh(arctanh(x)) -> x") << "useless_Tanh_of_Arctanh" << "tanh(arctanh(x))" << 1 << 0;
        QTest::newRow("arcsinh(sinh(x)) -> x") << "useless_Arcsinh_of_Sinh" << "arcsinh(sinh(x))" << 1 << 0;
        QTest::newRow("rad2deg(deg2rad(k)) -> float(k)") << "useless_Rad2deg_of_Deg2rad" << "rad2deg(deg2rad(k))" << 1 << 1;
        QTest::newRow("cosh(arccosh(y)) -> y") << "useless_Cosh_of_Arccosh" << "cosh(arccosh(1 + x^2))" << 1 << 2;
        QTest::newRow("not tanh(arcsinh(x))") << "useless_Tanh_of_Arctanh" << "tanh(arcsinh(x))" << 0 << 2;
    }

    void rewrites() {
        QFETCH(QString, rewrite);
        QFETCH(QString, graph);
        QFETCH(int, steps);
        QFETCH(int, elemwiseAfter);
        auto g = graphs().at(graph)();
        // 1e-14: sinh, arcsinh, deg2rad and 1/x round; the rewritten graph is exact.
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(rewriteNamed(rewrite)), {}, 3, 1e-14, 0.0);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf(rewrite.toStdString()), steps);
        QCOMPARE(countOps(*out.after, OpKind::Elemwise), elemwiseAfter);
    }

    // arccosh(cosh(x)) is |x|: no pipeline rewrites it to x (PyTensor does), and FAST_RUN
    // keeps the value on negative inputs.
    void arccoshOfCoshIsNotX() {
        auto g = graphs().at("arccosh(cosh(x))")();
        const std::vector<NDArray> inputs{NDArray::fromVector(DType::Float64, {3}, {-0.5, 0.25, -1.0})};
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 1, 1e-14, 0.0, &inputs);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        for (const NodeRewrite* r : uselessInversePairs()) QVERIFY(r->name() != "useless_Arccosh_of_Cosh");
    }

    // Through FAST_RUN: a - b written as a + (-b), and x * x, end as sub and sqr.
    void specializeFormsInFastRun() {
        GraphBuilder b;
        Var x = in(b, "x", {4});
        Var y = in(b, "y", {4});
        auto g = b.finish({add({exp(x), neg(y)}), mul({tanh(x), tanh(x)})});
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 2, 1e-14, 0.0);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QVERIFY(out.stepsOf("local_add_neg_to_sub") + out.stepsOf("local_mul_to_sqr") >= 1);
    }
};

TL_TEST_SUITE(TestElemwiseIdentities)
#include "tst_rw_elemwise_identities.moc"
