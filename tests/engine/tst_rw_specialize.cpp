// The specialize phase: local_pow_specialize, local_pow_to_nested_squaring, local_mul_specialize,
// local_add_remove_zeros, with the cases where each must not fire beside them.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Math.h"
#include "ops/Elemwise.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;

Var in(GraphBuilder& b, const char* name, StaticShape s, DType d = DType::Float64) { return b.input(name, d, std::move(s)); }
Var cv(GraphBuilder& b, double v, int64_t n = 1, DType d = DType::Float64) {
    return b.constant(NDArray::fromVector(d, {n}, std::vector<double>(static_cast<size_t>(n), v)));
}

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"pow 2", [] { GraphBuilder b; return b.finish({pow(in(b, "x", {4}), cv(b, 2))}); }},
        {"pow 0.5", [] { GraphBuilder b; return b.finish({pow(abs(in(b, "x", {4})), cv(b, 0.5))}); }},
        {"pow 1", [] { GraphBuilder b; return b.finish({pow(in(b, "x", {4}), cv(b, 1)) * 2.0}); }},
        {"pow 2 of float32 to float64", [] {
             GraphBuilder b;
             return b.finish({pow(in(b, "x", {4}, DType::Float32), cv(b, 2))});
         }},
        {"pow 3", [] { GraphBuilder b; return b.finish({pow(in(b, "x", {4}), cv(b, 3))}); }},
        {"pow 6", [] { GraphBuilder b; return b.finish({pow(in(b, "x", {4}), cv(b, 6))}); }},
        {"pow -3", [] { GraphBuilder b; return b.finish({pow(in(b, "x", {4}), cv(b, -3))}); }},
        {"pow 3 of int64", [] {
             GraphBuilder b;
             return b.finish({pow(in(b, "k", {4}, DType::Int64), cv(b, 3, 1, DType::Int64))});
         }},
        {"pow -3 of int64", [] {
             GraphBuilder b;
             return b.finish({pow(in(b, "k", {4}, DType::Int64), cv(b, -3, 1, DType::Int64))});
         }},
        {"pow 2.5", [] { GraphBuilder b; return b.finish({pow(abs(in(b, "x", {4})), cv(b, 2.5))}); }},
        {"pow 513", [] { GraphBuilder b; return b.finish({pow(in(b, "x", {4}), cv(b, 513))}); }},
        {"pow 3 broadcasting x", [] { GraphBuilder b; return b.finish({pow(in(b, "x", {1}), cv(b, 3, 3))}); }},
        {"pow 0", [] { GraphBuilder b; return b.finish({pow(in(b, "x", {4}), cv(b, 0))}); }},
        {"pow 0 of an unknown length", [] { GraphBuilder b; return b.finish({pow(in(b, "x", {kUnknownDim}), cv(b, 0))}); }},
        {"pow -1", [] { GraphBuilder b; return b.finish({pow(in(b, "x", {4}), cv(b, -1))}); }},
        {"pow -2", [] { GraphBuilder b; return b.finish({pow(in(b, "x", {4}), cv(b, -2))}); }},
        {"pow -0.5", [] { GraphBuilder b; return b.finish({pow(abs(in(b, "x", {4})), cv(b, -0.5))}); }},
        {"pow -1 of int64", [] {
             GraphBuilder b;
             return b.finish({pow(in(b, "k", {4}, DType::Int64), cv(b, -1, 1, DType::Int64))});
         }},
        {"pow 2 broadcasting x", [] { GraphBuilder b; return b.finish({pow(in(b, "x", {1}), cv(b, 2, 3))}); }},
        {"pow of a variable", [] { GraphBuilder b; return b.finish({pow(abs(in(b, "x", {4})), in(b, "y", {4}))}); }},
        {"mul by 1", [] { GraphBuilder b; return b.finish({mul({cv(b, 1), in(b, "x", {4}), in(b, "y", {4})})}); }},
        {"mul by -1", [] { GraphBuilder b; return b.finish({mul(cv(b, -1), in(b, "x", {4}))}); }},
        {"mul of neg", [] { GraphBuilder b; return b.finish({mul(-in(b, "x", {4}), in(b, "y", {4}))}); }},
        {"mul by -1 of two", [] { GraphBuilder b; return b.finish({mul({cv(b, -1), in(b, "x", {4}), in(b, "y", {4})})}); }},
        {"mul by 1 broadcasting", [] { GraphBuilder b; return b.finish({mul(cv(b, 1, 3), in(b, "x", {1}))}); }},
        {"mul by 2", [] { GraphBuilder b; return b.finish({mul(cv(b, 2), in(b, "x", {4}))}); }},
        {"add 0", [] { GraphBuilder b; return b.finish({add({in(b, "x", {4}), cv(b, 0), in(b, "y", {4})})}); }},
        {"add 0 of one", [] { GraphBuilder b; return b.finish({add(cv(b, 0), in(b, "x", {4}))}); }},
        {"add 0 upcasting", [] {
             GraphBuilder b;
             return b.finish({add(cv(b, 0), in(b, "x", {4}, DType::Float32))});
         }},
        {"add 1", [] { GraphBuilder b; return b.finish({add(cv(b, 1), in(b, "x", {4}))}); }},
    };
    return m;
}

const NodeRewrite& rewriteNamed(const QString& n) {
    if (n == "local_pow_specialize") return localPowSpecialize();
    if (n == "local_pow_to_nested_squaring") return localPowToNestedSquaring();
    if (n == "local_mul_specialize") return localMulSpecialize();
    return localAddRemoveZeros();
}

/// Printed names of the Elemwise ops of `g`, sorted ("Cast{float64},Sqr").
QString elemwiseNames(const Graph& g) {
    QStringList names;
    for (const Node* n : g.nodes())
        if (n->op().kind() == OpKind::Elemwise) names << QString::fromStdString(n->op().name());
    names.sort();
    return names.join(',');
}

} // namespace

class TestSpecialize : public QObject {
    Q_OBJECT
private slots:
    void rewrites_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<QString>("rewrite");
        QTest::addColumn<QString>("ops");  // Elemwise ops after, sorted
        QTest::addColumn<int>("steps");
        const QString pw = "local_pow_specialize", sq = "local_pow_to_nested_squaring", ml = "local_mul_specialize", ad = "local_add_remove_zeros";
        QTest::newRow("pow(x, 2) -> sqr") << "pow 2" << pw << "Sqr" << 1;
        QTest::newRow("pow(x, 0.5) -> sqrt") << "pow 0.5" << pw << "Abs,Sqrt" << 1;
        QTest::newRow("pow(x, 1) -> x") << "pow 1" << pw << "Mul" << 1;
        QTest::newRow("pow(x32, 2) -> sqr(cast)") << "pow 2 of float32 to float64" << pw << "Cast{float64},Sqr" << 1;
        QTest::newRow("pow: not 3") << "pow 3" << pw << "Pow" << 0;
        QTest::newRow("pow(x, 0) -> ones like x") << "pow 0" << pw << "" << 1;
        QTest::newRow("pow(x, 0) -> ones of x's shape") << "pow 0 of an unknown length" << pw << "" << 1;
        QTest::newRow("pow(x, -1) -> reciprocal") << "pow -1" << pw << "Reciprocal" << 1;
        QTest::newRow("pow(x, -2) -> reciprocal(sqr)") << "pow -2" << pw << "Reciprocal,Sqr" << 1;
        QTest::newRow("pow(x, -0.5) -> reciprocal(sqrt)") << "pow -0.5" << pw << "Abs,Reciprocal,Sqrt" << 1;
        QTest::newRow("pow: not -1 of an integer") << "pow -1 of int64" << pw << "Pow" << 0;
        QTest::newRow("nested: pow(x, 3) -> sqr(x) * x") << "pow 3" << sq << "Composite{(sqr(i0) * i0)}" << 1;
        QTest::newRow("nested: pow(x, 6)") << "pow 6" << sq << "Composite{(sqr(sqr(i0)) * sqr(i0))}" << 1;
        QTest::newRow("nested: pow(x, -3) -> reciprocal") << "pow -3" << sq << "Composite{(sqr(i0) * i0)},Reciprocal" << 1;
        QTest::newRow("nested: pow(k, 3) of int64") << "pow 3 of int64" << sq << "Composite{(sqr(i0) * i0)}" << 1;
        QTest::newRow("nested: not -3 of an integer") << "pow -3 of int64" << sq << "Pow" << 0;
        QTest::newRow("nested: not 2.5") << "pow 2.5" << sq << "Abs,Pow" << 0;
        QTest::newRow("nested: not above 512") << "pow 513" << sq << "Pow" << 0;
        QTest::newRow("nested: not when the exponent broadcasts x") << "pow 3 broadcasting x" << sq << "Pow" << 0;
        QTest::newRow("pow: not when the exponent broadcasts x") << "pow 2 broadcasting x" << pw << "Pow" << 0;
        QTest::newRow("pow: not a variable exponent") << "pow of a variable" << pw << "Abs,Pow" << 0;
        QTest::newRow("mul(1, x, y) -> mul(x, y)") << "mul by 1" << ml << "Mul" << 1;
        QTest::newRow("mul(-1, x) -> neg") << "mul by -1" << ml << "Neg" << 1;
        QTest::newRow("mul(neg(x), y) -> mul(-1, x, y)") << "mul of neg" << ml << "Mul" << 1;
        QTest::newRow("mul: not mul(-1, x, y)") << "mul by -1 of two" << ml << "Mul" << 0;
        QTest::newRow("mul: not when 1 broadcasts") << "mul by 1 broadcasting" << ml << "Mul" << 0;
        QTest::newRow("mul: not 2") << "mul by 2" << ml << "Mul" << 0;
        QTest::newRow("add(x, 0, y) -> add(x, y)") << "add 0" << ad << "Add" << 1;
        QTest::newRow("add(0, x) -> x") << "add 0 of one" << ad << "" << 1;
        QTest::newRow("add: not when 0 upcasts") << "add 0 upcasting" << ad << "Add" << 0;
        QTest::newRow("add: not 1") << "add 1" << ad << "Add" << 0;
    }

    void rewrites() {
        QFETCH(QString, graph);
        QFETCH(QString, rewrite);
        QFETCH(QString, ops);
        QFETCH(int, steps);
        auto g = graphs().at(graph)();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(rewriteNamed(rewrite)));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(elemwiseNames(*out.after), ops);
        QCOMPARE(out.stepsOf(rewrite.toStdString()), steps);
    }
};

TL_TEST_SUITE(TestSpecialize)
#include "tst_rw_specialize.moc"
