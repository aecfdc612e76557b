// local_subtensor_of_batch_dims: a Subtensor of an Elemwise becomes the Elemwise of its
// indexed operands. Each case runs the graph before and after on the same inputs, where
// the rewrite fires (slices, indices, symbolic indices, operands the op broadcasts) and
// where it must not (the Elemwise read elsewhere, not an Elemwise).
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

Var in(GraphBuilder& b, const char* name, StaticShape s) { return b.input(name, DType::Float64, std::move(s)); }

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"exp(x)[:, 0]", [] {
             GraphBuilder b;
             return b.finish({subtensor(exp(in(b, "x", {3, 4})), {Slice{}, 0})});
         }},
        {"(x + y)[1:]", [] {
             GraphBuilder b;
             return b.finish({subtensor(in(b, "x", {3, 4}) + in(b, "y", {3, 4}), {Slice{1}})});
         }},
        {"(x * y)[::-1, 2]", [] {
             GraphBuilder b;
             return b.finish({subtensor(in(b, "x", {kUnknownDim, 4}) * in(b, "y", {kUnknownDim, 4}),
                                        {Slice{std::nullopt, std::nullopt, -1}, 2})});
         }},
        {"(row + y)[2]", [] {
             GraphBuilder b;
             return b.finish({subtensor(in(b, "r", {1, 4}) + in(b, "y", {3, 4}), {2})});
         }},
        {"(row + y)[1:, -1]", [] {
             GraphBuilder b;
             return b.finish({subtensor(in(b, "r", {1, 4}) - in(b, "y", {3, 4}), {Slice{1}, -1})});
         }},
        {"(x * 2)[i]", [] {
             GraphBuilder b;
             Var i = b.input("i", DType::Int64, {});
             return b.finish({subtensor(in(b, "x", {6, 4}) * 2.0, {i})});  // i is drawn from 0..5
         }},
        {"exp(x)[0] and exp(x)", [] {
             GraphBuilder b;
             Var e = exp(in(b, "x", {3, 4}));
             return b.finish({subtensor(e, {0}), e});
         }},
        {"exp(x)[0] and log(exp(x))", [] {
             GraphBuilder b;
             Var e = exp(in(b, "x", {3, 4}));
             return b.finish({subtensor(e, {0}) + 1.0, log(e)});
         }},
        {"dot(x, y)[0]", [] {
             GraphBuilder b;
             return b.finish({subtensor(dot(in(b, "x", {3, 4}), in(b, "y", {4, 2})), {0})});
         }},
    };
    return m;
}

} // namespace

class TestSubtensorOfBatchDims : public QObject {
    Q_OBJECT
private slots:
    void lifts_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("elemwiseAfter");
        QTest::newRow("exp(x)[:, 0] -> exp(x[:, 0])") << "exp(x)[:, 0]" << 1 << 1;
        QTest::newRow("(x + y)[1:] -> x[1:] + y[1:]") << "(x + y)[1:]" << 1 << 1;
        QTest::newRow("reversed and indexed") << "(x * y)[::-1, 2]" << 1 << 1;
        QTest::newRow("a broadcast row keeps row 0") << "(row + y)[2]" << 1 << 1;
        QTest::newRow("a broadcast row keeps its axis whole") << "(row + y)[1:, -1]" << 1 << 1;
        QTest::newRow("a symbolic index") << "(x * 2)[i]" << 1 << 1;
        QTest::newRow("not when the Elemwise is an output") << "exp(x)[0] and exp(x)" << 0 << 1;
        QTest::newRow("not when another node reads it") << "exp(x)[0] and log(exp(x))" << 0 << 3;
        QTest::newRow("not a Subtensor of an Elemwise") << "dot(x, y)[0]" << 0 << 0;
    }

    void lifts() {
        QFETCH(QString, graph);
        QFETCH(int, steps);
        QFETCH(int, elemwiseAfter);
        auto g = graphs().at(graph)();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localSubtensorOfBatchDims()), {}, 5, 0.0, 0.0);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_subtensor_of_batch_dims"), steps);
        QCOMPARE(countOps(*out.after, OpKind::Elemwise), elemwiseAfter);
        if (steps) {
            // The Subtensors now read the operands: none reads an Elemwise.
            for (const Node* n : out.after->toposort())
                if (n->op().kind() == OpKind::Subtensor && n->input(0)->owner())
                    QVERIFY(n->input(0)->owner()->op().kind() != OpKind::Elemwise);
        }
    }

    // Through FAST_RUN: a chain of elementwise ops indexed at the end is indexed at its
    // inputs, and computes the same numbers.
    void liftsThroughAChainInFastRun() {
        GraphBuilder b;
        Var x = in(b, "x", {5, 6});
        Var y = in(b, "y", {1, 6});
        auto g = b.finish({subtensor(tanh(exp(x) * y + 1.0), {Slice{1, 3}, 4})});
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 2);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QVERIFY(out.stepsOf("local_subtensor_of_batch_dims") >= 1);
        for (const Node* n : out.after->toposort())
            if (n->op().kind() == OpKind::Subtensor) QVERIFY(n->input(0)->owner() == nullptr);
    }
};

TL_TEST_SUITE(TestSubtensorOfBatchDims)
#include "tst_rw_subtensor_of_batch_dims.moc"
