// Rewrites that drop axes of static length 1 (local_reduce_broadcastable,
// local_subtensor_remove_broadcastable_index) and local_useless_switch: each case
// runs the graph before and after on the same inputs, where the rewrite fires and
// where it must not.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "io/JsonValues.h"
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

Var in(GraphBuilder& b, const char* name, StaticShape s, DType d = DType::Float64) { return b.input(name, d, std::move(s)); }

Var reduce(Var x, ReduceKind kind, std::optional<std::vector<int>> axes, ReduceParams params = {}) {
    return x.builder().apply1(std::make_shared<ReduceOp>(kind, std::move(axes), params), {x});
}

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        // Reductions
        {"sum over the length-1 axis", [] {
             GraphBuilder b;
             return b.finish({sum(in(b, "x", {1, 4}), std::vector<int>{0}) * 2.0});
         }},
        {"max over both axes, one of length 1", [] {
             GraphBuilder b;
             return b.finish({max(in(b, "x", {1, 4}), std::vector<int>{0, 1})});
         }},
        {"sum of all axes, all of length 1", [] {
             GraphBuilder b;
             return b.finish({sum(in(b, "x", {1, 1}))});
         }},
        {"any over the length-1 axis", [] {
             GraphBuilder b;
             return b.finish({reduce(in(b, "x", {3, 1}), ReduceKind::Any, std::vector<int>{1})});
         }},
        {"int8 sum over the length-1 axis", [] {
             GraphBuilder b;
             return b.finish({sum(in(b, "x", {1, 3}, DType::Int8), std::vector<int>{0})});
         }},
        {"sum over an unknown axis", [] {
             GraphBuilder b;
             return b.finish({sum(in(b, "x", {kUnknownDim, 4}), std::vector<int>{0})});
         }},
        {"sum over a long axis", [] {
             GraphBuilder b;
             return b.finish({sum(in(b, "x", {1, 4}), std::vector<int>{1})});
         }},
        {"prod without zeros over the length-1 axis", [] {
             GraphBuilder b;
             Var x = in(b, "x", {1, 4});
             // x * (x > 0): zeros where x is not positive, the case the class exists for.
             return b.finish({reduce(x * cast(gt(x, 0.0), DType::Float64), ReduceKind::ProdWithoutZeros, std::vector<int>{0})});
         }},
        // Subtensor
        {"x[0] of length 1", [] {
             GraphBuilder b;
             return b.finish({index(in(b, "x", {1, 4}), 0) * 2.0});
         }},
        {"x[:, -1] of length 1", [] {
             GraphBuilder b;
             return b.finish({subtensor(in(b, "x", {3, 1}), {Slice{}, -1})});
         }},
        {"x[0, :, -1] of two length-1 axes", [] {
             GraphBuilder b;
             return b.finish({subtensor(in(b, "x", {1, 3, 1}), {0, Slice{}, -1})});
         }},
        {"x[0] of an unknown length", [] {
             GraphBuilder b;
             return b.finish({index(in(b, "x", {kUnknownDim, 4}), 0)});
         }},
        {"x[0, 1:] of length 1", [] {
             GraphBuilder b;
             return b.finish({subtensor(in(b, "x", {1, 4}), {0, Slice{1}})});
         }},
        {"x[i] of length 1", [] {
             GraphBuilder b;
             Var i = b.input("i", DType::Int64, {});
             return b.finish({index(in(b, "x", {1, 4}), IntArg(i))});
         }},
        // Switch
        {"switch on a true constant", [] {
             GraphBuilder b;
             Var x = in(b, "x", {4}), y = in(b, "y", {4});
             return b.finish({switch_(b.constant(1.0, DType::Bool), x, y) * 2.0});
         }},
        {"switch on a false constant array", [] {
             GraphBuilder b;
             Var x = in(b, "x", {4}), y = in(b, "y", {4});
             return b.finish({switch_(b.constant(NDArray::zeros(DType::Bool, {4})), x, y)});
         }},
        {"switch of one branch twice", [] {
             GraphBuilder b;
             Var x = in(b, "x", {4}), c = in(b, "c", {4});
             return b.finish({switch_(gt(c, 0.0), x, x)});
         }},
        {"switch of two equal constants", [] {
             GraphBuilder b;
             Var x = in(b, "x", {});
             return b.finish({switch_(gt(x, 0.0), b.constant(2.0), b.constant(2.0)) + x});
         }},
        {"switch on a constant, an int branch cast", [] {
             GraphBuilder b;
             Var k = in(b, "k", {4}, DType::Int32), y = in(b, "y", {4});
             return b.finish({switch_(b.constant(1.0, DType::Bool), k, y)});
         }},
        {"switch of a clamped length", [] {
             GraphBuilder b;
             Var n = shapeI(in(b, "x", {kUnknownDim}), 0);
             return b.finish({switch_(le(n, 0.0), b.constant(0.0, DType::Int64), n)});
         }},
        {"switch on a variable", [] {
             GraphBuilder b;
             Var x = in(b, "x", {4}), y = in(b, "y", {4});
             return b.finish({switch_(gt(x, y), x, y)});
         }},
        {"switch whose condition stretches the branch", [] {
             GraphBuilder b;
             Var x = in(b, "x", {}), y = in(b, "y", {4});
             return b.finish({switch_(b.constant(1.0, DType::Bool), x, y)});
         }},
    };
    return m;
}

const NodeRewrite& rewriteNamed(const QString& name) {
    if (name == "local_reduce_broadcastable") return localReduceBroadcastable();
    if (name == "local_subtensor_remove_broadcastable_index") return localSubtensorRemoveBroadcastableIndex();
    return localUselessSwitch();
}

} // namespace

class TestLengthOneAxes : public QObject {
    Q_OBJECT
private slots:
    void rewrites_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<QString>("rewrite");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("after");
        QTest::addColumn<int>("steps");
        const QString rb = "local_reduce_broadcastable", ri = "local_subtensor_remove_broadcastable_index",
                      sw = "local_useless_switch";
        QTest::newRow("reduce: sum over a length-1 axis goes") << "sum over the length-1 axis" << rb << "Reduce" << 0 << 1;
        QTest::newRow("reduce: max keeps its other axis") << "max over both axes, one of length 1" << rb << "Reduce" << 1 << 1;
        QTest::newRow("reduce: axes=None of length-1 axes") << "sum of all axes, all of length 1" << rb << "Reduce" << 0 << 1;
        QTest::newRow("reduce: any becomes a cast to bool") << "any over the length-1 axis" << rb << "Reduce" << 0 << 1;
        QTest::newRow("reduce: int8 sum becomes a cast to int64") << "int8 sum over the length-1 axis" << rb << "Reduce" << 0 << 1;
        QTest::newRow("reduce: not over an unknown length") << "sum over an unknown axis" << rb << "Reduce" << 1 << 0;
        QTest::newRow("reduce: not over a long axis") << "sum over a long axis" << rb << "Reduce" << 1 << 0;
        QTest::newRow("reduce: not ProdWithoutZeros") << "prod without zeros over the length-1 axis" << rb << "Reduce" << 1 << 0;
        QTest::newRow("index: x[0] of length 1") << "x[0] of length 1" << ri << "Subtensor" << 0 << 1;
        QTest::newRow("index: x[:, -1] of length 1") << "x[:, -1] of length 1" << ri << "Subtensor" << 0 << 1;
        QTest::newRow("index: two axes at once") << "x[0, :, -1] of two length-1 axes" << ri << "Subtensor" << 0 << 1;
        QTest::newRow("index: not of an unknown length") << "x[0] of an unknown length" << ri << "Subtensor" << 1 << 0;
        QTest::newRow("index: not beside a partial slice") << "x[0, 1:] of length 1" << ri << "Subtensor" << 1 << 0;
        QTest::newRow("index: not a variable index") << "x[i] of length 1" << ri << "Subtensor" << 1 << 0;
        QTest::newRow("switch: a true constant keeps the first") << "switch on a true constant" << sw << "Elemwise" << 1 << 1;
        QTest::newRow("switch: a false array keeps the second") << "switch on a false constant array" << sw << "Elemwise" << 0 << 1;
        QTest::newRow("switch: one branch twice") << "switch of one branch twice" << sw << "Elemwise" << 0 << 1;
        QTest::newRow("switch: two equal constants") << "switch of two equal constants" << sw << "Elemwise" << 1 << 1;
        QTest::newRow("switch: the branch cast to the output dtype") << "switch on a constant, an int branch cast" << sw << "Elemwise" << 1 << 1;
        QTest::newRow("switch: a clamped length") << "switch of a clamped length" << sw << "Elemwise" << 0 << 1;
        QTest::newRow("switch: not on a variable") << "switch on a variable" << sw << "Elemwise" << 2 << 0;
        QTest::newRow("switch: not when the branch would broadcast") << "switch whose condition stretches the branch" << sw << "Elemwise" << 1 << 0;
    }

    void rewrites() {
        QFETCH(QString, graph);
        QFETCH(QString, rewrite);
        QFETCH(QString, kind);
        QFETCH(int, after);
        QFETCH(int, steps);
        auto g = graphs().at(graph)();
        std::vector<NDArray> inputs = randomInputs(*g, 7);
        for (size_t i = 0; i < g->inputs().size(); ++i)
            if (g->inputs()[i]->name() == "i") inputs[i] = NDArray::scalar(DType::Int64, 0);  // a valid index
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(rewriteNamed(rewrite)), {}, 1, 0.0, 0.0, &inputs);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countOps(*out.after, *parseOpKind(kind.toStdString())), after);
        QCOMPARE(out.stepsOf(rewrite.toStdString()), steps);
    }

    // In the FAST_RUN pipeline the gradient of a sum over a length-1 axis reads no
    // reduction and no index.
    void pipelineDropsLengthOneAxes() {
        GraphBuilder b;
        Var x = in(b, "x", {1, 4});
        Var y = index(x, 0);
        auto g = b.finish({sum(exp(y), std::vector<int>{0}) + max(x, std::vector<int>{0})});
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countOps(*out.after, OpKind::Subtensor), 0);
        QVERIFY(out.stepsOf("local_subtensor_remove_broadcastable_index") >= 1);
        QVERIFY(out.stepsOf("local_reduce_broadcastable") >= 1);
    }
};

TL_TEST_SUITE(TestLengthOneAxes)
#include "tst_rw_length_one_axes.moc"
