// ScalarLoop (ops/ScalarLoop.h), the Elemwise PyTensor's series gradients build: per
// element a for loop of its own n_steps, a while loop stopping at its until, n_steps
// broadcast like any input, the loop's errors (n_steps < 0 without until, wrong
// dtypes), JSON params, inplace outputs, and the pipeline leaving it alone (no fusion
// into a Composite, no rewrite taking it for a plain scalar op) while it still runs.
#include "TestSuites.h"
#include "TestSupport.h"

#include "builder/GraphBuilder.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "exec/Executor.h"
#include "io/JsonGraph.h"
#include "ops/Elemwise.h"
#include "ops/OpFactory.h"
#include "rewrite/Pipeline.h"

#include <QtTest>
#include <nlohmann/json.hpp>

#include <cmath>

using namespace tl;
using namespace tl::test;
using C = ScalarOpCode;

namespace {

// x <- x * c + 1: states (x), constants (c).
ScalarLoopPtr affineLoop() {
    GraphBuilder b;
    Var x = b.placeholder(Type::scalar(DType::Float64)), c = b.placeholder(Type::scalar(DType::Float64));
    auto body = b.finish({x * c + b.scalarConstant(1.0, DType::Float64)});
    return std::make_shared<const ScalarLoop>(std::make_shared<const Composite>(*body), false);
}

// The series sum_k x^k / k! until a term drops below 1e-16: states (sum, term, k), constant x.
ScalarLoopPtr expSeriesLoop() {
    GraphBuilder b;
    Var sum = b.placeholder(Type::scalar(DType::Float64)), term = b.placeholder(Type::scalar(DType::Float64));
    Var k = b.placeholder(Type::scalar(DType::Int64)), x = b.placeholder(Type::scalar(DType::Float64));
    Var k1 = k + b.scalarConstant(1, DType::Int64);
    Var next = term * x / cast(k1, DType::Float64);
    Var until = applyScalar(C::Lt, {abs(next), b.scalarConstant(1e-16, DType::Float64)});
    auto body = b.finish({sum + next, next, k1, until});
    return std::make_shared<const ScalarLoop>(std::make_shared<const Composite>(*body), true);
}

std::vector<NDArray> perform(const Op& op, std::vector<NDArray> ins) {
    std::vector<NDArray> outs(static_cast<size_t>(static_cast<const Elemwise&>(op).numOutputs()));
    op.perform(ins, outs);
    return outs;
}

NDArray f64(const Shape& s, const std::vector<double>& v) { return NDArray::fromVector(DType::Float64, s, v); }
NDArray i64(const Shape& s, const std::vector<double>& v) { return NDArray::fromVector(DType::Int64, s, v); }

} // namespace

class TestScalarLoop : public QObject {
    Q_OBJECT
private slots:
    void forLoopRunsEachElementsOwnSteps() {
        Elemwise op(affineLoop());
        QCOMPARE(QString::fromStdString(op.name()), QString("Scalarloop"));
        // n_steps per element (broadcast along rows), x per row, c per column.
        const NDArray steps = i64({1, 3}, {0, 1, 5});
        const NDArray x = f64({2, 1}, {0.5, -2.0});
        const NDArray c = f64({1, 3}, {2.0, 0.5, 0.9});
        const auto outs = perform(op, {steps, x, c});
        QCOMPARE(outs[0].shape(), (Shape{2, 3}));
        for (int r = 0; r < 2; ++r)
            for (int col = 0; col < 3; ++col) {
                double v = x.flatGet(r);
                for (int s = 0; s < steps.flatGet(col); ++s) v = v * c.flatGet(col) + 1.0;
                QCOMPARE(outs[0].flatGet(r * 3 + col), v);
            }
    }

    void whileLoopStopsAtItsUntil() {
        Elemwise op(expSeriesLoop());
        QCOMPARE(op.numOutputs(), 4);
        const NDArray x = f64({4}, {0.0, 1.0, -2.5, 10.0});
        const auto outs = perform(op, {i64({1}, {1000}), f64({4}, {1, 1, 1, 1}), f64({4}, {1, 1, 1, 1}),
                                       i64({4}, {0, 0, 0, 0}), x});
        for (int i = 0; i < 4; ++i) {
            QVERIFY2(std::abs(outs[0].flatGet(i) - std::exp(x.flatGet(i))) <= 1e-14 * std::exp(std::abs(x.flatGet(i))),
                     qPrintable(QString::number(outs[0].flatGet(i), 'g', 17)));
            QCOMPARE(outs[3].flatGet(i), 1.0);  // converged
        }
        QCOMPARE(outs[2].flatGet(0), 1.0);   // x = 0: the first term is already below the threshold
        QVERIFY(outs[2].flatGet(3) > 40);     // x = 10 takes many more steps
        // Too few steps: not done, the partial sum; none at all: done, the initial states.
        const auto partial = perform(op, {i64({2}, {3, 0}), f64({2}, {1, 1}), f64({2}, {1, 1}), i64({2}, {0, 0}), f64({2}, {1.0, 1.0})});
        QCOMPARE(partial[0].flatGet(0), 1.0 + 1.0 + 0.5 + 1.0 / 6.0);
        QCOMPARE(partial[3].flatGet(0), 0.0);
        QCOMPARE(partial[0].flatGet(1), 1.0);
        QCOMPARE(partial[3].flatGet(1), 1.0);
    }

    void errors() {
        Elemwise op(affineLoop());
        QVERIFY_THROWS_EXCEPTION(ExecError, perform(op, {i64({1}, {-1}), f64({1}, {1}), f64({1}, {1})}));
        const Type f = Type::tensor(DType::Float64, {3}), i = Type::tensor(DType::Int32, {3});
        const Type* floatSteps[] = {&f, &f, &f};
        QVERIFY_THROWS_EXCEPTION(OpTypeError, op.inferTypes(floatSteps));
        const Type* intState[] = {&i, &i, &f};
        QVERIFY_THROWS_EXCEPTION(OpTypeError, op.inferTypes(intState));
        const Type* twoInputs[] = {&i, &f};
        QVERIFY_THROWS_EXCEPTION(OpTypeError, op.inferTypes(twoInputs));
        // A state whose update has another dtype, a while loop without a bool until.
        GraphBuilder b;
        Var x = b.placeholder(Type::scalar(DType::Float64));
        auto body = b.finish({cast(x, DType::Float32)});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ScalarLoop(std::make_shared<const Composite>(*body), false));
        GraphBuilder b2;
        Var y = b2.placeholder(Type::scalar(DType::Float64));
        auto body2 = b2.finish({y + y, y * y});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ScalarLoop(std::make_shared<const Composite>(*body2), true));
    }

    void jsonParamsAndInplace() {
        const Elemwise op(expSeriesLoop(), InplacePattern{{0, 1}});
        const nlohmann::json p = op.params();
        QCOMPARE(p["scalar_op"].get<std::string>(), std::string("scalar_loop"));
        QCOMPARE(p["is_while"].get<bool>(), true);
        QCOMPARE(p["class"].get<std::string>(), std::string("ScalarLoop"));
        OpPtr back = makeOp(OpKind::Elemwise, p, op.innerGraph());
        QVERIFY(back->equals(op));
        QVERIFY(back->hash() == op.hash());
        QVERIFY(!back->equals(Elemwise(expSeriesLoop())));  // inplace differs
        QVERIFY(!Elemwise(affineLoop()).equals(Elemwise(expSeriesLoop())));
        nlohmann::json bad = p;
        bad["is_while"] = "yes";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeOp(OpKind::Elemwise, bad, op.innerGraph()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeOp(OpKind::Elemwise, p, nullptr));
        // Inplace: output 0 overwrites input 1 (the sum's initial value).
        const NDArray sum0 = f64({2}, {1, 1});
        const auto outs = perform(op, {i64({1}, {100}), sum0, f64({2}, {1, 1}), i64({2}, {0, 0}), f64({2}, {1, 2})});
        QVERIFY(outs[0].sharesStorageWith(sum0));
        QVERIFY(std::abs(sum0.flatGet(1) - std::exp(2.0)) < 1e-13);
    }

    void pipelineLeavesItAloneAndRuns() {
        // exp(loop(n, x, c)) * 2: fusion must not pull the loop into a Composite.
        GraphBuilder b;
        Var n = b.input("n", DType::Int64, {}), x = b.input("x", DType::Float64, {3}), c = b.input("c", DType::Float64, {3});
        Var loop = b.apply1(std::make_shared<Elemwise>(affineLoop()), {expandDims(n, 0), x, c});
        auto g = b.finish({exp(loop) * literal(loop, 2.0)});
        const std::vector<NDArray> ins = {NDArray::scalar(DType::Int64, 4), f64({3}, {0.1, 0.2, 0.3}), f64({3}, {0.5, 0.6, 0.7})};
        const RunResult before = runGraph(*g, ins);
        auto rewritten = graphFromJsonText(graphToJsonText(*g));
        Pipeline::fastRun().run(*rewritten, PipelineOptions{});
        int loops = 0;
        for (const Node* node : rewritten->nodes())
            if (const auto* e = dynamic_cast<const Elemwise*>(&node->op()); e && e->isScalarLoop()) ++loops;
        QCOMPARE(loops, 1);
        const RunResult after = runGraph(*rewritten, ins);
        QCOMPARE(compareArrays(after.outputs[0], before.outputs[0]), std::string());
        // Saved and loaded, it is the same graph.
        auto again = graphFromJsonText(graphToJsonText(*rewritten));
        QCOMPARE(compareArrays(runGraph(*again, ins).outputs[0], before.outputs[0]), std::string());
    }
};

TL_TEST_SUITE(TestScalarLoop)
#include "tst_scalar_loop.moc"
