// local_mul_switch_sink and local_div_switch_sink: a product (a quotient's numerator)
// with a switch that has a constant-zero branch moves inside the other branch. Each
// case is run before and after; where the other factors are inf or NaN the rewrite's
// point is that the result becomes 0 where the switch picks 0 (PyTensor's
// values_eq_approx_remove_nan), checked on inputs chosen for it.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Math.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;

Var in(GraphBuilder& b, const char* name, DType d = DType::Float64) { return b.input(name, d, {4}); }
Var zero(GraphBuilder& b, DType d = DType::Float64) { return b.constant(NDArray::scalar(d, 0)); }

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"x * switch(x > 0, 0, y)", [] {
             GraphBuilder b;
             Var x = in(b, "x"), y = in(b, "y");
             return b.finish({x * switch_(gt(x, 0.0), zero(b), y)});
         }},
        {"mul(switch(x > 0, y, 0), x, z)", [] {
             GraphBuilder b;
             Var x = in(b, "x"), y = in(b, "y"), z = in(b, "z");
             return b.finish({mul({switch_(gt(x, 0.0), y, zero(b)), x, z})});
         }},
        {"x * switch(x > 0, 1, y)", [] {
             GraphBuilder b;
             Var x = in(b, "x"), y = in(b, "y");
             return b.finish({x * switch_(gt(x, 0.0), b.constant(1.0), y)});
         }},
        {"x * switch(x > 0, z, y)", [] {
             GraphBuilder b;
             Var x = in(b, "x"), y = in(b, "y"), z = in(b, "z");
             return b.finish({x * switch_(gt(x, 0.0), z, y)});
         }},
        {"x * y", [] {
             GraphBuilder b;
             return b.finish({in(b, "x") * in(b, "y")});
         }},
        {"switch(x > 0, 0, y) / z", [] {
             GraphBuilder b;
             Var x = in(b, "x"), y = in(b, "y"), z = in(b, "z");
             return b.finish({trueDiv(switch_(gt(x, 0.0), zero(b), y), z)});
         }},
        {"switch(k > 0, k, 0) // j", [] {
             GraphBuilder b;
             Var k = in(b, "k", DType::Int64), j = in(b, "j", DType::Int64);
             return b.finish({intDiv(switch_(gt(k, int64_t(0)), k, zero(b, DType::Int64)), j)});
         }},
        {"z / switch(x > 0, 0, y)", [] {
             GraphBuilder b;
             Var x = in(b, "x"), y = in(b, "y"), z = in(b, "z");
             return b.finish({trueDiv(z, switch_(gt(x, 0.0), zero(b), y))});
         }},
        {"switch(x > 0, 2, y) / z", [] {
             GraphBuilder b;
             Var x = in(b, "x"), y = in(b, "y"), z = in(b, "z");
             return b.finish({trueDiv(switch_(gt(x, 0.0), b.constant(2.0), y), z)});
         }},
    };
    return m;
}

const NodeRewrite& rewriteNamed(const QString& n) {
    return n == "local_mul_switch_sink" ? localMulSwitchSink() : localDivSwitchSink();
}

// The op of the graph's output node ("Switch", "Mul").
QString outputOp(const Graph& g) {
    const Node* n = g.output(0)->owner();
    return n ? QString::fromStdString(n->op().name()) : QString();
}

// x * log(x) written as log(x) * switch(x == 0, 0, x): -inf * 0 at x = 0.
std::unique_ptr<Graph> xlogxBySwitch() {
    GraphBuilder b;
    Var x = in(b, "x");
    return b.finish({log(x) * switch_(eq(x, 0.0), zero(b), x)});
}

} // namespace

class TestSwitchSink : public QObject {
    Q_OBJECT
private slots:
    void rewrites_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<QString>("rewrite");
        QTest::addColumn<QString>("output");  // the output node's op after
        QTest::addColumn<int>("steps");
        const QString ml = "local_mul_switch_sink", dv = "local_div_switch_sink";
        QTest::newRow("mul: switch(c, 0, y) -> switch(c, 0, x * y)") << "x * switch(x > 0, 0, y)" << ml << "Switch" << 1;
        QTest::newRow("mul: switch(c, y, 0) among three factors") << "mul(switch(x > 0, y, 0), x, z)" << ml << "Switch" << 1;
        QTest::newRow("mul: not a branch of 1") << "x * switch(x > 0, 1, y)" << ml << "Mul" << 0;
        QTest::newRow("mul: not two variable branches") << "x * switch(x > 0, z, y)" << ml << "Mul" << 0;
        QTest::newRow("mul: not without a switch") << "x * y" << ml << "Mul" << 0;
        QTest::newRow("div: switch(c, 0, y) / z -> switch(c, 0, y / z)") << "switch(x > 0, 0, y) / z" << dv << "Switch" << 1;
        QTest::newRow("div: int_div of a switch(c, k, 0)") << "switch(k > 0, k, 0) // j" << dv << "Switch" << 1;
        QTest::newRow("div: not a switch in the denominator") << "z / switch(x > 0, 0, y)" << dv << "True_div" << 0;
        QTest::newRow("div: not a branch of 2") << "switch(x > 0, 2, y) / z" << dv << "True_div" << 0;
    }

    void rewrites() {
        QFETCH(QString, graph);
        QFETCH(QString, rewrite);
        QFETCH(QString, output);
        QFETCH(int, steps);
        auto g = graphs().at(graph)();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(rewriteNamed(rewrite)));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(outputOp(*out.after), output);
        QCOMPARE(out.stepsOf(rewrite.toStdString()), steps);
    }

    // Where the switch picks 0, the product is 0 after the rewrite although the other
    // factor is -inf there (NaN before); elsewhere the values are the same.
    void zeroBranchMasksInfinities() {
        auto g = xlogxBySwitch();
        const std::vector<NDArray> inputs = {NDArray::fromVector(DType::Float64, {4}, {0.0, 0.5, 1.0, 2.0})};
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localMulSwitchSink()), {}, 1, 1e-12, 0.0, &inputs);
        QCOMPARE(out.stepsOf("local_mul_switch_sink"), 1);
        QVERIFY(std::isnan(out.outputsBefore.at(0).flatGet(0)));
        QCOMPARE(out.outputsAfter.at(0).flatGet(0), 0.0);
        for (int64_t i = 1; i < 4; ++i) QCOMPARE(out.outputsAfter.at(0).flatGet(i), out.outputsBefore.at(0).flatGet(i));
        QVERIFY(!out.mismatch.empty());  // the comparison sees the NaN become 0, as it should
    }

    // The canonicalize phase runs the sink: the gradient-shaped product comes out as a switch.
    void canonicalizeRunsIt() {
        auto g = xlogxBySwitch();
        const std::vector<NDArray> inputs = {NDArray::fromVector(DType::Float64, {4}, {0.25, 0.5, 1.0, 2.0})};
        RewriteOutcome out = rewriteAndCompare(*g, singlePhase("canonicalize", [] {
            std::vector<std::unique_ptr<GraphPass>> passes;
            passes.push_back(makeCanonicalizeDriver());
            return passes;
        }()), {}, 1, 1e-12, 0.0, &inputs);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_mul_switch_sink"), 1);
        QCOMPARE(outputOp(*out.after), QString("Switch"));
    }
};

TL_TEST_SUITE(TestSwitchSink)
#include "tst_rw_switch_sink.moc"
