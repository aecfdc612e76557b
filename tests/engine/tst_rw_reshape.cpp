// local_useless_reshape and local_reshape_chain: each case PyTensor's rewrites take,
// beside reshapes that must stay; every graph run before and after. Where a reshape
// made a dim static that its replacement does not know, the replacement comes back
// through SpecifyShape.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "exec/Executor.h"
#include "ops/Reshape.h"
#include "rewrite/Rewrites.h"
#include "rewrite/StaticShapeValue.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;

// Unknown dims are 4 in the seeded inputs (randomInputs).
Var in(GraphBuilder& b, const char* name, StaticShape s) { return b.input(name, DType::Float64, std::move(s)); }

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"vector to its static length", [] {
             GraphBuilder b;
             return b.finish({reshape(in(b, "x", {6}) * 2.0, {6}) + 1.0});
         }},
        {"vector of unknown length to 4", [] {
             GraphBuilder b;
             return b.finish({reshape(in(b, "x", {kUnknownDim}) * 2.0, {4}) + 1.0});
         }},
        {"matrix to its own Shape", [] {
             GraphBuilder b;
             Var x = in(b, "x", {kUnknownDim, 3}) * 2.0;
             return b.finish({b.apply1(makeReshape(2), {x, shape(x)}) + 1.0});
         }},
        {"matrix to its Shape_i and static dim", [] {
             GraphBuilder b;
             Var x = in(b, "x", {kUnknownDim, 3}) * 2.0;
             return b.finish({reshape(x, {shapeI(x, 0), 3}) + 1.0});
         }},
        {"matrix to its Shape indexed", [] {
             GraphBuilder b;
             Var x = in(b, "x", {kUnknownDim, kUnknownDim}) * 2.0;
             return b.finish({reshape(x, {index(shape(x), 0), index(shape(x), 1)}) + 1.0});
         }},
        {"matrix to -1 and its static dim", [] {
             GraphBuilder b;
             return b.finish({reshape(in(b, "x", {kUnknownDim, 3}) * 2.0, {-1, 3}) + 1.0});
         }},
        {"matrix with one entry not its own", [] {
             GraphBuilder b;
             Var x = in(b, "x", {kUnknownDim, kUnknownDim}) * 2.0;
             Var n = in(b, "y", {kUnknownDim, kUnknownDim});
             return b.finish({reshape(x, {shapeI(x, 0), shapeI(n, 1)}) + 1.0});
         }},
        {"matrix to a static shape it has", [] {
             GraphBuilder b;
             return b.finish({reshape(in(b, "x", {2, 3}) * 2.0, {2, 3}) + 1.0});
         }},
        {"matrix transposed in shape", [] {
             GraphBuilder b;
             return b.finish({reshape(in(b, "x", {2, 3}) * 2.0, {3, 2}) + 1.0});
         }},
        {"matrix to -1 and another length", [] {
             GraphBuilder b;
             Var x = in(b, "x", {kUnknownDim, kUnknownDim}) * 2.0;
             Var n = in(b, "y", {kUnknownDim, kUnknownDim});
             return b.finish({reshape(x, {-1, shapeI(n, 0)}) + 1.0});
         }},
        {"matrix flattened", [] {
             GraphBuilder b;
             return b.finish({reshape(in(b, "x", {kUnknownDim, 3}) * 2.0, {-1}) + 1.0});
         }},
        {"vector to a row", [] {
             GraphBuilder b;
             return b.finish({reshape(in(b, "x", {kUnknownDim}) * 2.0, {1, -1}) + 1.0});
         }},
        // local_reshape_chain
        {"flattened then unflattened", [] {
             GraphBuilder b;
             return b.finish({reshape(reshape(in(b, "x", {2, 3}) * 2.0, {-1}), {3, 2}) + 1.0});
         }},
        {"chain whose size only the inner reshape knew", [] {
             GraphBuilder b;
             return b.finish({reshape(reshape(in(b, "x", {kUnknownDim, 3}) * 2.0, {12}), {-1, 6}) + 1.0});
         }},
        {"chain whose inner reshape has another reader", [] {
             GraphBuilder b;
             Var flat = reshape(in(b, "x", {2, 3}) * 2.0, {-1});
             return b.finish({reshape(flat, {3, 2}) + 1.0, flat * 3.0});
         }},
    };
    return m;
}

} // namespace

class TestReshapeRewrites : public QObject {
    Q_OBJECT
private slots:
    void rewrites_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("reshapes");
        QTest::addColumn<int>("specifyShapes");
        QTest::addColumn<int>("steps");
        QTest::newRow("1-d to its static length") << "vector to its static length" << 0 << 0 << 1;
        QTest::newRow("1-d of unknown length: through SpecifyShape") << "vector of unknown length to 4" << 0 << 1 << 1;
        QTest::newRow("Reshape(x, Shape(x))") << "matrix to its own Shape" << 0 << 0 << 1;
        QTest::newRow("Shape_i{0}(x) and a static dim") << "matrix to its Shape_i and static dim" << 0 << 0 << 1;
        QTest::newRow("Shape(x)[0], Shape(x)[1]") << "matrix to its Shape indexed" << 0 << 0 << 1;
        QTest::newRow("-1 and a static dim") << "matrix to -1 and its static dim" << 0 << 0 << 1;
        QTest::newRow("one entry not its own (shape-unsafe)") << "matrix with one entry not its own" << 0 << 0 << 1;
        QTest::newRow("a static shape it has") << "matrix to a static shape it has" << 0 << 0 << 1;
        QTest::newRow("not (2, 3) to (3, 2)") << "matrix transposed in shape" << 1 << 0 << 0;
        QTest::newRow("not -1 with another length") << "matrix to -1 and another length" << 1 << 0 << 0;
        QTest::newRow("not a flattening") << "matrix flattened" << 1 << 0 << 0;
        QTest::newRow("not a new axis") << "vector to a row" << 1 << 0 << 0;
    }

    void rewrites() {
        QFETCH(QString, graph);
        QFETCH(int, reshapes);
        QFETCH(int, specifyShapes);
        QFETCH(int, steps);
        auto g = graphs().at(graph)();
        QCOMPARE(countOps(*g, OpKind::Reshape), 1);
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localUselessReshape()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countOps(*out.after, OpKind::Reshape), reshapes);
        QCOMPARE(countOps(*out.after, OpKind::SpecifyShape), specifyShapes);
        QCOMPARE(out.stepsOf("local_useless_reshape"), steps);
    }

    // The reshape's static length stays in the graph: readers keep the type they were built for.
    void specifyShapeKeepsTheType() {
        auto g = graphs().at("vector of unknown length to 4")();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localUselessReshape()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        const Node* add = out.after->output(0)->owner();
        const Variable* kept = add->input(0)->owner()->kind() == OpKind::SpecifyShape ? add->input(0) : add->input(1);
        QCOMPARE(QString::fromStdString(kept->type().toString()), QString("Vector(float64, shape=(4,))"));
        QCOMPARE(kept->owner()->input(1)->constantValue().itemInt(), int64_t(4));
        QCOMPARE(kept->owner()->input(1)->type().dtype, DType::Int8);  // PyTensor's constant of a Python int
    }

    // A wrong length is still caught at run time: SpecifyShape checks what Reshape did.
    void wrongLengthStillFails() {
        auto g = graphs().at("vector of unknown length to 4")();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localUselessReshape()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        const std::vector<NDArray> five{NDArray::empty(DType::Float64, {5})};
        QVERIFY_THROWS_EXCEPTION(ExecError, runGraph(*g, five));
        QVERIFY_THROWS_EXCEPTION(ExecError, runGraph(*out.after, five));
    }

    // x: (?, 4) reshaped to [1, Shape_i{1}(x)]: the reshape is (1, ?), x (?, 4), neither
    // type more specific than the other. x replaces it through SpecifyShape(x, 1, None),
    // (1, 4), which the readers accept; a row count other than 1 still fails at run time.
    void staticDimsFromBothSides() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {kUnknownDim, 4});
        Var r = tl::reshape(x, {1, shapeI(x, 1)});
        QCOMPARE(QString::fromStdString(r.type().toString()), QString("Matrix(float64, shape=(1, ?))"));
        auto g = b.finish({r * 2.0});
        const std::vector<NDArray> row{NDArray::fromVector(DType::Float64, {1, 4}, {1, 2, 3, 4})};
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localUselessReshape()), {}, 1, 0.0, 0.0, &row);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_useless_reshape"), 1);
        QCOMPARE(countOps(*out.after, OpKind::Reshape), 0);
        QCOMPARE(countOps(*out.after, OpKind::SpecifyShape), 1);
        const std::vector<NDArray> two{NDArray::empty(DType::Float64, {2, 4})};
        QVERIFY_THROWS_EXCEPTION(ExecError, runGraph(*g, two));
        QVERIFY_THROWS_EXCEPTION(ExecError, runGraph(*out.after, two));
    }

    void chain_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("reshapes");
        QTest::addColumn<int>("specifyShapes");
        QTest::addColumn<int>("steps");
        QTest::newRow("(2, 3) -> [-1] -> [3, 2]: one reshape") << "flattened then unflattened" << 1 << 0 << 1;
        QTest::newRow("size known only inside: through SpecifyShape") << "chain whose size only the inner reshape knew" << 1 << 1 << 1;
        QTest::newRow("inner reshape kept for its other reader") << "chain whose inner reshape has another reader" << 2 << 0 << 1;
        QTest::newRow("not a reshape of another op") << "vector to a row" << 1 << 0 << 0;
    }
    void chain() {
        QFETCH(QString, graph);
        QFETCH(int, reshapes);
        QFETCH(int, specifyShapes);
        QFETCH(int, steps);
        auto g = graphs().at(graph)();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localReshapeChain()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countOps(*out.after, OpKind::Reshape), reshapes);
        QCOMPARE(countOps(*out.after, OpKind::SpecifyShape), specifyShapes);
        QCOMPARE(out.stepsOf("local_reshape_chain"), steps);
        // The joined reshape reads x itself, and the output keeps its static type.
        const Node* add = out.after->output(0)->owner();
        QCOMPARE(QString::fromStdString(add->output(0)->type().toString()),
                 QString::fromStdString(g->output(0)->owner()->output(0)->type().toString()));
    }

    // The sizes a rebuilt Reshape reads, folded as get_scalar_constant_value folds them;
    // an overflowing product is no size (and no undefined behaviour under UBSan).
    void staticSizesOfShapeGraphs() {
        GraphBuilder b;
        Var x = in(b, "x", {3, 4});
        Var y = in(b, "y", {kUnknownDim, 4});
        auto value = [](const Var& v) { return rw::staticIntValue(*v.get()); };
        QCOMPARE(value(shapeI(x, 1)), std::optional<int64_t>(4));
        QCOMPARE(value(mul(shapeI(x, 0), shapeI(x, 1))), std::optional<int64_t>(12));
        QCOMPARE(value(index(shape(y), 1) * index(shape(x), 0)), std::optional<int64_t>(12));
        QCOMPARE(value(intDiv(intConstant(b, -7), intConstant(b, 2))), std::optional<int64_t>(-4));  // Python's floor
        QCOMPARE(value(-shapeI(x, 0)), std::optional<int64_t>(-3));
        QVERIFY(!value(shapeI(y, 0)));                                                        // unknown dim
        QVERIFY(!value(mul(shapeI(y, 0), shapeI(x, 0))));
        QVERIFY(!value(mul(intConstant(b, int64_t{1} << 62), intConstant(b, 4))));             // overflows int64
        QVERIFY(!value(intDiv(intConstant(b, 5), intConstant(b, 0))));
    }

    // In the whole pipeline, both ways of naming x's own shape leave no Reshape.
    void wholePipeline() {
        for (const char* graph : {"vector of unknown length to 4", "matrix to its Shape_i and static dim", "matrix to its own Shape"}) {
            auto g = graphs().at(graph)();
            RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun());
            QVERIFY2(out.mismatch.empty(), (std::string(graph) + ": " + out.mismatch).c_str());
            QCOMPARE(countOps(*out.after, OpKind::Reshape), 0);
            QVERIFY(out.stepsOf("local_useless_reshape") >= 1);
        }
    }
};

TL_TEST_SUITE(TestReshapeRewrites)
#include "tst_rw_reshape.moc"
