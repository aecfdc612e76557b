// The shape phase: local_shape_ground, local_Shape_i_ground, local_shape_to_shape_i,
// local_track_shape_i -- each with graphs where it fires and where it must not.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "ops/Shape.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"shape of static", [] {
             GraphBuilder b;
             return b.finish({shape(b.input("x", DType::Float64, {2, 3}))});
         }},
        {"shape of partly static", [] {
             GraphBuilder b;
             return b.finish({shape(b.input("x", DType::Float64, {kUnknownDim, 3}))});
         }},
        {"shape of 0-d", [] {
             GraphBuilder b;
             return b.finish({shape(b.input("x", DType::Float64, {}))});
         }},
        {"shape_i static dim", [] {
             GraphBuilder b;
             return b.finish({shapeI(b.input("x", DType::Float64, {kUnknownDim, 3}), 1)});
         }},
        {"shape_i unknown dim", [] {
             GraphBuilder b;
             return b.finish({shapeI(b.input("x", DType::Float64, {kUnknownDim, 3}), 0)});
         }},
        {"shape_i of alloc", [] {
             GraphBuilder b;
             Var v = b.input("v", DType::Float64, {3});
             Var n = b.input("n", DType::Int64, {});
             Var a = alloc(v, {n, 3});
             return b.finish({shapeI(a, 0) + shapeI(a, 1)});
         }},
        {"shape_i of alloc empty (int8 dim)", [] {
             GraphBuilder b;
             Var n = b.input("n", DType::Int8, {});
             return b.finish({shapeI(allocEmpty(b, DType::Float64, {n, 3}), 0)});
         }},
        {"shape_i of specify_shape", [] {
             GraphBuilder b;
             Var x = b.input("x", DType::Float64, {kUnknownDim, 3});
             Var n = b.input("n", DType::Int64, {});
             return b.finish({shapeI(specifyShape(x, {n, 3}), 0)});
         }},
        {"shape_i of specify_shape None", [] {
             GraphBuilder b;
             Var x = b.input("x", DType::Float64, {kUnknownDim, kUnknownDim});
             return b.finish({shapeI(specifyShape(x, {std::nullopt, 4}), 0)});  // random inputs: 4 by 4
         }},
        {"shape_i of transpose", [] {
             GraphBuilder b;
             Var x = b.input("x", DType::Float64, {kUnknownDim, kUnknownDim});
             return b.finish({shapeI(transpose(x), 1)});
         }},
        {"shape_i of unbroadcast", [] {
             GraphBuilder b;
             Var x = b.input("x", DType::Float64, {kUnknownDim, 1});
             return b.finish({shapeI(unbroadcast(x, {1}), 0)});
         }},
        {"shape_i of elemwise", [] {
             GraphBuilder b;
             Var x = b.input("x", DType::Float64, {kUnknownDim});
             return b.finish({shapeI(exp(x), 0)});
         }},
        {"shape_i of elemwise with a broadcast operand", [] {
             GraphBuilder b;
             Var x = b.input("x", DType::Float64, {kUnknownDim, 3});
             Var c = b.input("c", DType::Float64, {1, 3});
             return b.finish({shapeI(x * c, 0)});
         }},
        {"shape_i of elemwise of two unknown", [] {
             GraphBuilder b;
             Var x = b.input("x", DType::Float64, {kUnknownDim});
             Var y = b.input("y", DType::Float64, {kUnknownDim});
             return b.finish({shapeI(x * y, 0)});
         }},
    };
    return m;
}

const NodeRewrite& rewriteNamed(const QString& n) {
    if (n == "local_shape_ground") return shapeOfStaticShape();
    if (n == "local_Shape_i_ground") return shapeIOfStaticDim();
    if (n == "local_shape_to_shape_i") return localShapeToShapeI();
    return localTrackShapeI();
}

} // namespace

class TestShapeRewrites : public QObject {
    Q_OBJECT
private slots:
    void rewrites_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<QString>("rewrite");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("after");
        QTest::addColumn<int>("steps");
        // local_shape_ground
        QTest::newRow("ground: static") << "shape of static" << "local_shape_ground" << "Shape" << 0 << 1;
        QTest::newRow("ground: 0-d") << "shape of 0-d" << "local_shape_ground" << "Shape" << 0 << 1;
        QTest::newRow("ground: not when a dim is unknown") << "shape of partly static" << "local_shape_ground" << "Shape" << 1 << 0;
        // local_Shape_i_ground
        QTest::newRow("Shape_i ground: static dim") << "shape_i static dim" << "local_Shape_i_ground" << "Shape_i" << 0 << 1;
        QTest::newRow("Shape_i ground: not an unknown dim") << "shape_i unknown dim" << "local_Shape_i_ground" << "Shape_i" << 1 << 0;
        // local_shape_to_shape_i
        QTest::newRow("to shape_i: partly static") << "shape of partly static" << "local_shape_to_shape_i" << "Shape" << 0 << 1;
        QTest::newRow("to shape_i: one Shape_i for the unknown dim") << "shape of partly static" << "local_shape_to_shape_i" << "Shape_i" << 1 << 1;
        QTest::newRow("to shape_i: not when static") << "shape of static" << "local_shape_to_shape_i" << "Shape" << 1 << 0;
        // local_track_shape_i
        QTest::newRow("track: alloc dims") << "shape_i of alloc" << "local_track_shape_i" << "Shape_i" << 0 << 2;
        QTest::newRow("track: alloc empty, cast to int64") << "shape_i of alloc empty (int8 dim)" << "local_track_shape_i" << "Shape_i" << 0 << 1;
        QTest::newRow("track: specify_shape") << "shape_i of specify_shape" << "local_track_shape_i" << "Shape_i" << 0 << 1;
        QTest::newRow("track: a None dim is the input's") << "shape_i of specify_shape None" << "local_track_shape_i" << "SpecifyShape" << 0 << 1;
        QTest::newRow("track: transpose maps the axis") << "shape_i of transpose" << "local_track_shape_i" << "DimShuffle" << 0 << 1;
        QTest::newRow("track: unbroadcast") << "shape_i of unbroadcast" << "local_track_shape_i" << "Unbroadcast" << 0 << 1;
        QTest::newRow("track: elemwise of one operand") << "shape_i of elemwise" << "local_track_shape_i" << "Elemwise" << 0 << 1;
        QTest::newRow("track: elemwise, the other operand statically 1") << "shape_i of elemwise with a broadcast operand"
                                                                         << "local_track_shape_i" << "Elemwise" << 0 << 1;
        QTest::newRow("track: not an elemwise dim two operands may fix") << "shape_i of elemwise of two unknown"
                                                                         << "local_track_shape_i" << "Elemwise" << 1 << 0;
        QTest::newRow("track: not an unknown input dim") << "shape_i unknown dim" << "local_track_shape_i" << "Shape_i" << 1 << 0;
    }

    void rewrites() {
        QFETCH(QString, graph);
        QFETCH(QString, rewrite);
        QFETCH(QString, kind);
        QFETCH(int, after);
        QFETCH(int, steps);
        auto g = graphs().at(graph)();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(rewriteNamed(rewrite)));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countOps(*out.after, *parseOpKind(kind.toStdString())), after);
        QCOMPARE(out.stepsOf(rewrite.toStdString()), steps);
    }

    // Shape_i{1}(Transpose(x)) reads Shape_i{0}(x) after tracking.
    void transposeTracksTheSourceAxis() {
        auto g = graphs().at("shape_i of transpose")();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localTrackShapeI()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        const Node* s = out.after->output(0)->owner();
        QVERIFY(s && s->op().kind() == OpKind::ShapeI);
        QCOMPARE(static_cast<const ShapeIOp&>(s->op()).axis(), 0);
        QCOMPARE(s->input(0), out.after->inputs()[0]);
    }

    // The constant is an int64 0-d tensor, Shape_i's own type.
    void groundConstantType() {
        auto g = graphs().at("shape_i static dim")();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(shapeIOfStaticDim()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QVERIFY(out.after->output(0)->isConstant());
        QCOMPARE(QString::fromStdString(out.after->output(0)->type().toString()), QString("Scalar(int64, shape=())"));
    }
};

TL_TEST_SUITE(TestShapeRewrites)
#include "tst_rw_shape.moc"
