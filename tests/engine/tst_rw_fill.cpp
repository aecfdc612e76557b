// The fill rewrites (docs/rewrites/fill.md): local_useless_fill, local_fill_sink,
// local_fill_to_alloc and local_elemwise_alloc, each with graphs where it fires and,
// beside them, where a dim of unknown length could broadcast at run time and it must
// not; then the whole pipeline on the fills pytensor.grad writes.
#include "TestSuites.h"
#include "FusionTestUtil.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "exec/Executor.h"
#include "io/JsonValues.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;

Var in(GraphBuilder& b, const char* name, StaticShape s) { return b.input(name, DType::Float64, std::move(s)); }
constexpr int64_t U = kUnknownDim;

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        // local_useless_fill
        {"fill of a 0-d cost", [] {  // pytensor.grad's seed: fill(cost, 1.0)
             GraphBuilder b;
             Var x = in(b, "x", {U});
             return b.finish({second(sum(exp(x)), b.constant(1.0)) * 3.0});
         }},
        {"fill by a model the value covers", [] {
             GraphBuilder b;
             Var x = in(b, "x", {U, U});
             Var y = in(b, "y", {U, U});
             return b.finish({second(log(x), x / y) + 1.0});
         }},
        {"fill that may stretch the value", [] {
             GraphBuilder b;
             Var x = in(b, "x", {U});
             Var y = in(b, "y", {U});
             return b.finish({second(x, y) + 1.0});
         }},
        // local_fill_sink
        {"fill under a division", [] {  // grad(log(erfc(x)).sum(), x) before canonicalize
             GraphBuilder b;
             Var x = in(b, "x", {U});
             Var g = in(b, "g", {});
             Var model = log(erfc(x));
             return b.finish({second(model, expandDims(g, 0)) / erfc(x)});
         }},
        {"fill under an unrelated product", [] {
             GraphBuilder b;
             Var x = in(b, "x", {U});
             Var y = in(b, "y", {U});
             Var g = in(b, "g", {});
             return b.finish({second(exp(x), expandDims(g, 0)) * y});
         }},
        {"nested fills", [] {
             GraphBuilder b;
             Var x = in(b, "x", {U});
             Var g = in(b, "g", {});
             Var inner = second(sum(x), g);
             return b.finish({second(exp(x), expandDims(inner, 0)) * x});
         }},
        {"fill read by a sum", [] {
             GraphBuilder b;
             Var x = in(b, "x", {U});
             Var y = in(b, "y", {U});
             return b.finish({sum(second(x, y))});
         }},
        // local_fill_to_alloc
        {"fill of a broadcast value", [] {  // the gradient of sum(x * y) at x, before its fills go
             GraphBuilder b;
             Var x = in(b, "x", {U, 4});
             Var y = in(b, "y", {U, 4});
             Var g = in(b, "g", {});
             return b.finish({second(x * y, expandDims(expandDims(g, 0), 0)) + 0.0});
         }},
        {"fill where both may broadcast", [] {
             GraphBuilder b;
             Var x = in(b, "x", {U, 1});
             Var y = in(b, "y", {1, U});
             return b.finish({second(x, y) * 2.0});
         }},
        // local_elemwise_alloc
        {"alloc another operand shapes", [] {
             GraphBuilder b;
             Var x = in(b, "x", {U});
             Var g = in(b, "g", {});
             return b.finish({alloc(g, {shapeI(exp(x), 0)}) * x});
         }},
        {"alloc no other operand shapes", [] {
             GraphBuilder b;
             Var x = in(b, "x", {U});
             Var y = in(b, "y", {U});
             Var g = in(b, "g", {});
             return b.finish({alloc(g, {shapeI(y, 0)}) * x});
         }},
    };
    return m;
}

const NodeRewrite& rewriteNamed(const QString& n) {
    if (n == "local_useless_fill") return localUselessFill();
    if (n == "local_fill_sink") return localFillSink();
    if (n == "local_fill_to_alloc") return localFillToAlloc();
    return localElemwiseAlloc();
}

// Seeded inputs with unknown dims of length `n`, except the inputs `ones` names, whose
// unknown dims are 1 long (a dim of unknown length that is 1 at run time broadcasts).
std::vector<NDArray> inputsAt(const Graph& g, int64_t n, const std::vector<std::string>& ones = {}) {
    std::vector<NDArray> out = randomInputs(g, 7, n);
    for (size_t i = 0; i < out.size(); ++i) {
        const Variable* v = g.inputs()[i];
        if (std::find(ones.begin(), ones.end(), v->name()) == ones.end()) continue;
        Shape s;
        for (int64_t d : v->type().shape) s.push_back(d == U ? 1 : d);
        int64_t size = 1;
        for (int64_t d : s) size *= d;
        out[i] = NDArray::fromVector(DType::Float64, s, std::vector<double>(static_cast<size_t>(size), 0.7));
    }
    return out;
}

} // namespace

class TestFillRewrites : public QObject {
    Q_OBJECT
private slots:
    void rewrites_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<QString>("rewrite");
        QTest::addColumn<int>("seconds");
        QTest::addColumn<int>("steps");
        const QString uf = "local_useless_fill", fs = "local_fill_sink", fa = "local_fill_to_alloc", ea = "local_elemwise_alloc";
        QTest::newRow("useless: fill(0-d cost, 1)") << "fill of a 0-d cost" << uf << 0 << 1;
        QTest::newRow("useless: the value covers the model") << "fill by a model the value covers" << uf << 0 << 1;
        QTest::newRow("useless: not when the model may stretch the value") << "fill that may stretch the value" << uf << 1 << 0;
        QTest::newRow("sink: through a division, fill dropped") << "fill under a division" << fs << 0 << 1;
        QTest::newRow("sink: through a product, fill kept") << "fill under an unrelated product" << fs << 1 << 1;
        QTest::newRow("sink: nested fills") << "nested fills" << fs << 1 << 1;
        QTest::newRow("sink: not into a reduction") << "fill read by a sum" << fs << 1 << 0;
        QTest::newRow("to alloc: value broadcast by the model") << "fill of a broadcast value" << fa << 0 << 1;
        QTest::newRow("to alloc: not when both may broadcast") << "fill where both may broadcast" << fa << 1 << 0;
        QTest::newRow("to alloc: not when the model may stretch") << "fill that may stretch the value" << fa << 1 << 0;
    }

    // Each rewrite on its own, run before and after at lengths 3 and 1 (a dim of
    // unknown length that is 1 at run time broadcasts in tensorlens).
    void rewrites() {
        QFETCH(QString, graph);
        QFETCH(QString, rewrite);
        QFETCH(int, seconds);
        QFETCH(int, steps);
        for (int64_t n : {3, 1}) {
            auto g = graphs().at(graph)();
            const std::vector<NDArray> inputs = inputsAt(*g, n);
            RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(rewriteNamed(rewrite)), {}, 1, 1e-12, 0.0, &inputs);
            QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
            QCOMPARE(scalarOpCount(*out.after, ScalarOpCode::Second), seconds);
            QCOMPARE(out.stepsOf(rewrite.toStdString()), steps);
        }
    }

    void elemwiseAlloc_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("allocs");
        QTest::addColumn<int>("steps");
        QTest::newRow("drops an Alloc x gives the shape of") << "alloc another operand shapes" << 0 << 1;
        QTest::newRow("not an Alloc of another array's length") << "alloc no other operand shapes" << 1 << 0;
    }

    void elemwiseAlloc() {
        QFETCH(QString, graph);
        QFETCH(int, allocs);
        QFETCH(int, steps);
        for (int64_t n : {3, 1}) {
            auto g = graphs().at(graph)();
            const std::vector<NDArray> inputs = inputsAt(*g, n);
            RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localElemwiseAlloc()), {}, 1, 1e-12, 0.0, &inputs);
            QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
            QCOMPARE(countOps(*out.after, OpKind::Alloc), allocs);
            QCOMPARE(out.stepsOf("local_elemwise_alloc"), steps);
        }
        // Where y has length 1 and x length 3, the Alloc made the product 3 long; it stays.
        auto g = graphs().at("alloc no other operand shapes")();
        const std::vector<NDArray> inputs = inputsAt(*g, 3, {"x"});
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localElemwiseAlloc()), {}, 1, 1e-12, 0.0, &inputs);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
    }

    // The kept fill's model exp(x) is 3 long where g and y are 1 long: only the fill makes
    // the product 3 long, so dropping it would change the result's shape.
    void sinkKeepsAFillThatStretches() {
        auto g = graphs().at("fill under an unrelated product")();
        const std::vector<NDArray> inputs = inputsAt(*g, 3, {"y"});
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localFillSink()), {}, 1, 1e-12, 0.0, &inputs);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
    }

    // fill(k: (3,), x + 0) with x of unknown length: the model's shape is all static, so
    // the fill goes and the sum comes back as SpecifyShape(x + 0, 3) (PyTensor's graph),
    // which checks k's length at run time. A 1-long x, which PyTensor refuses to
    // broadcast at run time, fails after the rewrite instead of being stretched.
    void sinkDropsAFillWhoseStaticShapeIsChecked() {
        GraphBuilder b;
        Var k = in(b, "k", {3});
        Var x = in(b, "x", {U});
        auto g = b.finish({second(k, b.constant(0.0)) + x});
        const std::vector<NDArray> inputs = inputsAt(*g, 3);
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localFillSink()), {}, 1, 1e-12, 0.0, &inputs);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_fill_sink"), 1);
        QCOMPARE(scalarOpCount(*out.after, ScalarOpCode::Second), 0);
        QCOMPARE(out.after->output(0)->owner()->kind(), OpKind::SpecifyShape);
        QCOMPARE(out.after->output(0)->type(), g->output(0)->type());
        QVERIFY_THROWS_EXCEPTION(ExecError, runGraph(*out.after, inputsAt(*g, 1)));
        // A model of unknown length is kept: nothing would check it.
        GraphBuilder b2;
        Var k2 = in(b2, "k", {U});
        Var x2 = in(b2, "x", {U});
        auto g2 = b2.finish({second(k2, b2.constant(0.0)) + x2});
        RewriteOutcome kept = rewriteAndCompare(*g2, singleRewrite(localFillSink()), {}, 1, 1e-12, 0.0, &inputs);
        QVERIFY2(kept.mismatch.empty(), kept.mismatch.c_str());
        QCOMPARE(scalarOpCount(*kept.after, ScalarOpCode::Second), 1);
    }

    // The whole pipeline on grad(log(erfc(x)).sum(), x) as pytensor.grad writes it: no
    // fill stays, and neither does log(erfc(x)) nor its sum, computed only to shape it.
    void pipelineDropsTheForwardValueOfAGradient() {
        GraphBuilder b;
        Var x = in(b, "x", {U});
        Var model = log(erfc(x));
        Var cost = sum(model);
        Var seed = second(cost, b.constant(1.0));
        Var grad = second(model, expandDims(seed, 0)) / erfc(x) * (b.constant(-2.0 / std::sqrt(M_PI)) * exp(-(x * x)));
        auto g = b.finish({grad});
        const std::vector<NDArray> inputs = inputsAt(*g, 5);
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 1, 1e-12, 0.0, &inputs);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(scalarOpCount(*out.after, ScalarOpCode::Second), 0);
        QCOMPARE(scalarOpCount(*out.after, ScalarOpCode::Log), 0);
        QCOMPARE(countOps(*out.after, OpKind::Reduce), 0);
    }

    // ones_like(exp(x) * 2) needs only x's length: the fill becomes an Alloc of
    // Shape_i(exp(x) * 2), which local_track_shape_i reads off x, and exp(x) goes. With
    // exp(x) * y either operand may fix the length, so the product stays to give it.
    void pipelineKeepsOnlyTheShapeOfAModel() {
        for (bool twoOperands : {false, true}) {
            GraphBuilder b;
            Var x = in(b, "x", {U});
            Var y = in(b, "y", {U});
            Var model = twoOperands ? exp(x) * y : exp(x) * 2.0;
            auto g = b.finish({second(model, b.constant(1.0)) + sum(x) + sum(y)});
            for (int64_t n : {4, 1}) {
                const std::vector<NDArray> inputs = inputsAt(*g, n);
                RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 1, 1e-12, 0.0, &inputs);
                QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
                QCOMPARE(scalarOpCount(*out.after, ScalarOpCode::Second), 0);
                QCOMPARE(scalarOpCount(*out.after, ScalarOpCode::Exp), twoOperands ? 1 : 0);
            }
        }
    }
};

TL_TEST_SUITE(TestFillRewrites)
#include "tst_rw_fill.moc"
