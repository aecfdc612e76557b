// DimShuffle, Unbroadcast, SpecifyShape, Shape, Shape_i, Reshape, Join, MakeVector,
// the scalar/tensor conversions, Assert, DeepCopyOp and Opaque: printed names as
// PyTensor, static types, kernels, views, errors, JSON params and forward derivatives.
#include "TestSuites.h"
#include "ops/OpFactory.h"
#include "ShapeOpsTestUtil.h"
#include "TestSupport.h"

#include "builder/Indexing.h"
#include "ops/Assert.h"
#include "ops/DeepCopy.h"
#include "ops/DimShuffle.h"
#include "ops/Join.h"
#include "ops/MakeVector.h"
#include "ops/Opaque.h"
#include "ops/Reshape.h"
#include "ops/Shape.h"
#include "ir/SliceValue.h"
#include "ops/SpecifyShape.h"
#include "ops/TensorScalar.h"
#include "ops/Unbroadcast.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {
QString str(const std::string& s) { return QString::fromStdString(s); }
} // namespace

class TestShapeOps : public QObject {
    Q_OBJECT

private slots:
    void dimShuffleNames_data() {
        QTest::addColumn<int>("ndim");
        QTest::addColumn<QList<int>>("order");
        QTest::addColumn<QString>("name");
        QTest::newRow("row") << 1 << QList<int>{-1, 0} << "ExpandDims{axis=0}";
        QTest::newRow("column") << 1 << QList<int>{0, -1} << "ExpandDims{axis=1}";
        QTest::newRow("two new") << 2 << QList<int>{-1, 0, -1, 1} << "ExpandDims{axes=[0, 2]}";
        QTest::newRow("scalar to matrix") << 0 << QList<int>{-1, -1} << "ExpandDims{axes=[0, 1]}";
        QTest::newRow("drop one") << 2 << QList<int>{1} << "Squeeze{axis=0}";
        QTest::newRow("drop two") << 3 << QList<int>{1} << "Squeeze{axes=[0, 2]}";
        QTest::newRow("transpose") << 2 << QList<int>{1, 0} << "Transpose{axes=[1, 0]}";
        QTest::newRow("rotate") << 3 << QList<int>{2, 0, 1} << "Transpose{axes=[2, 0, 1]}";
        QTest::newRow("general") << 2 << QList<int>{1, -1, 0} << "DimShuffle{order=[1,x,0]}";
        QTest::newRow("drop and swap") << 3 << QList<int>{2, 0} << "DimShuffle{order=[2,0]}";
        QTest::newRow("identity") << 2 << QList<int>{0, 1} << "DimShuffle{order=[0,1]}";
    }
    void dimShuffleNames() {
        QFETCH(int, ndim);
        QFETCH(QList<int>, order);
        QFETCH(QString, name);
        OpPtr op = makeDimShuffle(ndim, std::vector<int>(order.begin(), order.end()));
        QCOMPARE(str(op->name()), name);
        QVERIFY(op->viewMap() == (AliasMap{{0, {0}}}));
        checkJsonRoundTrip(op);
    }

    void dimShuffleKernelAndTypes() {
        GraphBuilder b;
        Var m = b.input("m", DType::Int16, {1, 3});
        QCOMPARE(str(dimshuffle(m, {1, -1}).type().toString()), "Matrix(int16, shape=(3, 1))");
        QCOMPARE(str(dropDims(m, 0).type().toString()), "Vector(int16, shape=(3,))");
        QCOMPARE(str(expandDims(m, -1).type().toString()), "Tensor3(int16, shape=(1, 3, 1))");
        QCOMPARE(str(transpose(m).type().toString()), "Matrix(int16, shape=(3, 1))");
        QVERIFY(transpose(b.input("v", DType::Int16, {3})).get()->owner() == nullptr);  // identity: x itself
        QVERIFY(errorOf([&] { dimshuffle(m, {0}); }).contains("must have length 1"));
        QVERIFY(errorOf([&] { dimshuffle(m, {0}); }).contains("Squeeze{axis=1}#"));
        QVERIFY(errorOf([&] { makeDimShuffle(2, {0, 0}); }).contains("appears twice"));
        QVERIFY(errorOf([&] { makeDimShuffle(2, {2}); }).contains("only has 2 axes"));

        const NDArray x = iota(DType::Float32, {2, 3});
        const NDArray t = perform(*makeDimShuffle(2, {1, -1, 0}), {x})[0];
        QCOMPARE(t.shape(), (Shape{3, 1, 2}));
        QVERIFY(t.sharesStorageWith(x));
        for (int64_t i = 0; i < 2; ++i)
            for (int64_t j = 0; j < 3; ++j) {
                const int64_t a[] = {i, j}, c[] = {j, 0, i};
                QCOMPARE(t.get(c), x.get(a));
            }
        // A dropped axis must be 1 at run time.
        QVERIFY(errorOf([&] { perform(*makeDimShuffle(2, {1}), {x}); }).contains("dropped axis 0 has length 2"));
        const NDArray row = iota(DType::Bool, {1, 4});
        QCOMPARE(perform(*makeDimShuffle(2, {1}), {row})[0].shape(), (Shape{4}));
    }

    void ropDimShuffle() {
        checkRopByFiniteDifferences({{2, 3}}, [](GraphBuilder&, const std::vector<Var>& x) {
            return dimshuffle(x[0], {1, -1, 0});
        });
    }

    void unbroadcast() {
        QCOMPARE(str(makeUnbroadcast({2, 0})->name()), "Unbroadcast{0,2}");
        checkJsonRoundTrip(makeUnbroadcast({0}));
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {1, 7, 1});
        Var u = tl::unbroadcast(x, {0});
        QCOMPARE(str(u->owner()->op().name()), "Unbroadcast{0}");
        QCOMPARE(str(u.type().toString()), "Tensor3(float64, shape=(?, 7, 1))");
        // Axes that are not broadcastable are ignored, as PyTensor's unbroadcast.
        QCOMPARE(tl::unbroadcast(x, {1}).get(), x.get());
        QCOMPARE(str(tl::unbroadcast(x, {1, 2})->owner()->op().name()), "Unbroadcast{2}");
        const NDArray v = iota(DType::Int8, {1, 7, 1});
        const NDArray out = perform(*makeUnbroadcast({0}), {v})[0];
        QVERIFY(out.sharesStorageWith(v));
        TL_COMPARE_ARRAYS(out, v, 0, 0);
    }

    void seedInitialState() {
        // SpecifyShape(Unbroadcast{0}(ExpandDims{axis=0}(x_init)), 1, 7) as the seed prints it.
        GraphBuilder b;
        Var x = b.input("x_init", DType::Float64, {7});
        Var e = expandDims(x, 0);
        Var u = tl::unbroadcast(e, {0});
        Var s = specifyShape(u, {1, 7});
        QCOMPARE(str(e->owner()->op().name()), "ExpandDims{axis=0}");
        QCOMPARE(str(e.type().toString()), "Matrix(float64, shape=(1, 7))");
        QCOMPARE(str(u.type().toString()), "Matrix(float64, shape=(?, 7))");
        QCOMPARE(str(s->owner()->op().name()), "SpecifyShape");
        QCOMPARE(str(s.type().toString()), "Matrix(float64, shape=(1, 7))");
        QCOMPARE(str(s->owner()->input(1)->type().toString()), "Scalar(int8, shape=())");
        QCOMPARE(s->owner()->input(2)->constantValue().itemInt(), int64_t(7));
        // Nothing to specify: x itself, as PyTensor.
        QCOMPARE(specifyShape(e, {1, 7}).get(), e.get());
        auto g = b.finish({s});
        const NDArray xv = iota(DType::Float64, {7});
        TL_COMPARE_ARRAYS(run(*g, {xv})[0], perform(*makeDimShuffle(1, {-1, 0}), {xv})[0], 0, 0);
    }

    void specifyShapeChecks() {
        const NDArray x = iota(DType::Float64, {2, 7});
        const NDArray ok = perform(*makeSpecifyShape(), {x, i64(2), NDArray::scalar(DType::Int8, 7)})[0];
        QVERIFY(ok.sharesStorageWith(x));
        const QString err = errorOf([&] { perform(*makeSpecifyShape(), {x, i64(1), i64(7)}); });
        QVERIFY2(err.contains("got shape (2, 7), expected (1, 7): dim 0 is 2 (expected 1)"), qPrintable(err));
        GraphBuilder b;
        Var v = b.input("v", DType::Float64, {3, kUnknownDim});
        QVERIFY(errorOf([&] { specifyShape(v, {4, 2}); }).contains("SpecifyShape#"));
        QVERIFY(errorOf([&] { specifyShape(v, {3}); }).contains("will never match a shape of length 1"));
        Var n = b.input("n", DType::Int64, {});
        QCOMPARE(str(specifyShape(v, {3, n}).type().toString()), "Matrix(float64, shape=(3, ?))");
        checkJsonRoundTrip(makeSpecifyShape());
        // None dims (NoneConst inputs): neither checked nor made static.
        Var w = b.input("w", DType::Float64, {kUnknownDim, kUnknownDim});
        Var partly = specifyShape(w, {std::nullopt, 7});
        QCOMPARE(str(partly.type().toString()), "Matrix(float64, shape=(?, 7))");
        QVERIFY(partly->owner()->input(1)->type().isNoneType());
        QCOMPARE(specifyShape(v, {3, std::nullopt}).get(), v.get());  // nothing left to say
        const NDArray free = perform(*makeSpecifyShape(), {x, noneValue(), i64(7)})[0];
        QVERIFY(free.sharesStorageWith(x));
        const QString errNone = errorOf([&] { perform(*makeSpecifyShape(), {x, noneValue(), i64(5)}); });
        QVERIFY2(errNone.contains("got shape (2, 7), expected (None, 5): dim 1 is 7 (expected 5)"), qPrintable(errNone));
        checkRopByFiniteDifferences({{2, 3}}, [](GraphBuilder&, const std::vector<Var>& x) {
            return specifyShape(tl::unbroadcast(x[0], {0}), {2, 3});
        });
    }

    void shapeOps() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float32, {kUnknownDim, 5, 2});
        Var s = shape(x);
        Var s1 = shapeI(x, -2);
        QCOMPARE(str(s->owner()->op().name()), "Shape");
        QCOMPARE(str(s.type().toString()), "Vector(int64, shape=(3,))");
        QCOMPARE(str(s1->owner()->op().name()), "Shape_i{1}");
        QCOMPARE(str(s1.type().toString()), "Scalar(int64, shape=())");
        QVERIFY(errorOf([&] { b.apply1(makeShapeI(3), {x}); }).contains("too few dimensions"));
        checkJsonRoundTrip(makeShape());
        checkJsonRoundTrip(makeShapeI(2));
        auto g = b.finish({s, s1});
        auto out = run(*g, {iota(DType::Float32, {4, 5, 2})});
        TL_COMPARE_ARRAYS(out[0], int64s({4, 5, 2}), 0, 0);
        QCOMPARE(out[1].itemInt(), int64_t(5));
        QCOMPARE(out[1].dtype(), DType::Int64);
    }

    void reshape() {
        GraphBuilder b;
        Var x = b.input("x", DType::Int32, {2, 6});
        Var r = tl::reshape(x, {3, -1});
        QCOMPARE(str(r->owner()->op().name()), "Reshape{2}");
        QCOMPARE(str(r.type().toString()), "Matrix(int32, shape=(3, 4))");
        QCOMPARE(str(r->owner()->input(1)->type().toString()), "Vector(int64, shape=(2,))");
        Var n = b.input("n", DType::Int64, {});
        Var r2 = tl::reshape(x, {n, 2, 3});
        // The static dims come from the ints; the fully known input fixes the last one.
        QCOMPARE(str(r2.type().toString()), "Tensor3(int32, shape=(2, 2, 3))");
        Var rows = b.input("rows", DType::Int32, {kUnknownDim, 6});
        QCOMPARE(str(tl::reshape(rows, {n, 2, 3}).type().toString()), "Tensor3(int32, shape=(?, 2, 3))");
        QCOMPARE(str(tl::reshape(rows, {-1}).type().toString()), "Vector(int32, shape=(?,))");
        QCOMPARE(str(r2->owner()->input(1)->owner()->op().name()), "MakeVector{dtype='int64'}");
        QVERIFY(errorOf([&] { tl::reshape(x, {5, 2}); }).contains("Reshape{2}#"));
        QVERIFY(errorOf([&] { tl::reshape(x, {-1, -1}); }).contains("one unknown dimension"));
        checkJsonRoundTrip(makeReshape(3));

        // Kernel: a view of contiguous input, a copy of a transposed one; values in C order.
        const NDArray v = iota(DType::Int32, {2, 6});
        const NDArray out = perform(*makeReshape(2), {v, int64s({3, -1})})[0];
        QVERIFY(out.sharesStorageWith(v));
        TL_COMPARE_ARRAYS(out, iota(DType::Int32, {3, 4}), 0, 0);
        const NDArray t = perform(*makeDimShuffle(2, {1, 0}), {v})[0];
        const NDArray flat = perform(*makeReshape(1), {t, int64s({-1})})[0];
        QVERIFY(!flat.sharesStorageWith(v));
        for (int64_t i = 0; i < 12; ++i) QCOMPARE(flat.flatGet(i), double((i % 2) * 6 + i / 2));
        QVERIFY(errorOf([&] { perform(*makeReshape(2), {v, int64s({5, -1})}); }).contains("cannot reshape array of shape (2, 6)"));
        QVERIFY(errorOf([&] { perform(*makeReshape(2), {v, int64s({5, 3})}); }).contains("into shape (5, 3)"));
        checkRopByFiniteDifferences({{2, 6}}, [](GraphBuilder&, const std::vector<Var>& in) {
            return tl::reshape(transpose(in[0]), {4, 3});
        });
    }

    void reshapeToScalarThroughEmptyShapeOfAnyDType() {
        // numpy builds `np.array([])` as float64 (tensordot over every axis
        // reshapes to () that way); an empty shape has no entry whose dtype matters.
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {1, 1});
        Var emptyFloat = b.constant(NDArray::fromVector(DType::Float64, {0}, {}));
        Var r = b.apply1(makeReshape(0), {x, emptyFloat});
        QCOMPARE(str(r.type().toString()), "Scalar(float64, shape=())");
        const NDArray out = perform(*makeReshape(0), {NDArray::fromVector(DType::Float64, {1, 1}, {2.5}),
                                                      NDArray::fromVector(DType::Float64, {0}, {})})[0];
        QCOMPARE(out.ndim(), 0);
        QCOMPARE(out.flatGet(0), 2.5);
        // A float shape with entries is still an error.
        Var floatShape = b.constant(NDArray::fromVector(DType::Float64, {2}, {1, 1}));
        QVERIFY(errorOf([&] { b.apply1(makeReshape(2), {x, floatShape}); }).contains("1-d integer tensor"));
    }

    void join() {
        GraphBuilder b;
        Var a = b.input("a", DType::Int32, {2, 3});
        Var c = b.input("c", DType::Float32, {kUnknownDim, 3});
        Var j0 = tl::join(0, {a, c});
        QCOMPARE(str(j0->owner()->op().name()), "Join");
        QCOMPARE(str(j0.type().toString()), "Matrix(float64, shape=(?, 3))");
        QCOMPARE(str(j0->owner()->input(0)->type().toString()), "Scalar(int8, shape=())");
        QCOMPARE(str(tl::join(-1, {a, a}).type().toString()), "Matrix(int32, shape=(2, 6))");
        QCOMPARE(tl::join(0, {a}).get(), a.get());
        QVERIFY(errorOf([&] { tl::join(1, {a, b.input("d", DType::Int32, {4, 1})}); }).contains("Join#"));
        QVERIFY(errorOf([&] { tl::join(0, {a, b.input("e", DType::Int32, {3})}); }).contains("same number of dimensions"));
        checkJsonRoundTrip(makeJoin());

        const NDArray av = iota(DType::Int32, {2, 3}), cv = iota(DType::Float32, {1, 3}, 100);
        const NDArray rows = perform(*makeJoin(), {i64(0), av, cv})[0];
        QCOMPARE(rows.dtype(), DType::Float64);
        QCOMPARE(rows.shape(), (Shape{3, 3}));
        for (int64_t i = 0; i < 9; ++i) QCOMPARE(rows.flatGet(i), i < 6 ? double(i) : 100.0 + double(i - 6));
        const NDArray cols = perform(*makeJoin(), {i64(-1), av, av})[0];
        QCOMPARE(cols.shape(), (Shape{2, 6}));
        for (int64_t r = 0; r < 2; ++r)
            for (int64_t k = 0; k < 6; ++k) {
                const int64_t at[] = {r, k};
                QCOMPARE(cols.get(at), double(r * 3 + k % 3));
            }
        QVERIFY(errorOf([&] { perform(*makeJoin(), {i64(1), av, cv}); }).contains("along dimension 0"));
        QVERIFY(errorOf([&] { perform(*makeJoin(), {i64(2), av, av}); }).contains("axis 2 is out of bounds"));
        // Forward derivative, with a constant part (zero tangent).
        checkRopByFiniteDifferences({{2, 3}, {1, 3}}, [](GraphBuilder& g, const std::vector<Var>& x) {
            return tl::join(0, {x[0], g.constant(iota(DType::Float64, {2, 3})), x[1]});
        });
    }

    void makeVectorAndConversions() {
        GraphBuilder b;
        Var s = b.input("s", DType::Int64, {});
        Var sc = scalarFromTensor(s);
        QCOMPARE(str(sc->owner()->op().name()), "ScalarFromTensor");
        QCOMPARE(str(sc.type().toString()), "int64");
        Var back = tensorFromScalar(sc);
        QCOMPARE(str(back->owner()->op().name()), "TensorFromScalar");
        QCOMPARE(str(back.type().toString()), "Scalar(int64, shape=())");
        Var mv = makeVector(b, {s, intConstant(b, 3), sc});
        QCOMPARE(str(mv->owner()->op().name()), "MakeVector{dtype='int64'}");
        QCOMPARE(str(mv.type().toString()), "Vector(int64, shape=(3,))");
        GraphBuilder other;  // the error cases add inputs and constants of their own
        QVERIFY(errorOf([&] { makeVector(other, {other.constant(1.5)}); }).contains("does not upcast to int64"));
        QVERIFY(errorOf([&] { scalarFromTensor(other.input("v", DType::Int64, {2})); }).contains("0-d tensor"));
        QVERIFY(errorOf([&] { tensorFromScalar(other.input("w", DType::Int64, {})); }).contains("ScalarType"));
        checkJsonRoundTrip(makeMakeVector(DType::Float32));
        checkJsonRoundTrip(makeScalarFromTensor());
        checkJsonRoundTrip(makeTensorFromScalar());
        auto g = b.finish({mv, back});
        auto out = run(*g, {i64(-4)});
        TL_COMPARE_ARRAYS(out[0], int64s({-4, 3, -4}), 0, 0);
        QCOMPARE(out[1].itemInt(), int64_t(-4));
        checkRopByFiniteDifferences({{}, {}}, [](GraphBuilder& g2, const std::vector<Var>& x) {
            return makeVector(g2, {x[0], g2.constant(2.0), tensorFromScalar(scalarFromTensor(x[1]))}, DType::Float64);
        });
    }

    void assertAndDeepCopy() {
        const std::string longMsg = "the buffer must hold at least two rows of state";
        QCOMPARE(str(makeAssert(longMsg)->name()), "Assert{msg='the buffer must hold at lea...'}");
        QCOMPARE(str(makeAssert("x > 0")->name()), "Assert{msg='x > 0'}");
        QCOMPARE(str(makeAssert()->name()), "Assert{msg='PyTensor Assert failed!'}");
        checkJsonRoundTrip(makeAssert(longMsg));
        const NDArray x = iota(DType::Float64, {3});
        const NDArray ok = perform(*makeAssert("x > 0"), {x, NDArray::scalar(DType::Bool, 1), i64(5)})[0];
        QVERIFY(ok.sharesStorageWith(x));
        const QString err = errorOf([&] { perform(*makeAssert(longMsg), {x, NDArray::scalar(DType::Bool, 1), i64(0)}); });
        QVERIFY2(err.contains(QString::fromStdString(longMsg)), qPrintable(err));
        GraphBuilder b;
        Var v = b.input("v", DType::Float64, {3});
        QVERIFY(errorOf([&] { assertOp(v, {v}); }).contains("must be 0-d"));

        QCOMPARE(str(makeDeepCopy()->name()), "DeepCopyOp");
        checkJsonRoundTrip(makeDeepCopy());
        const NDArray t = perform(*makeDimShuffle(2, {1, 0}), {iota(DType::UInt8, {2, 3})})[0];
        const NDArray c = perform(*makeDeepCopy(), {t})[0];
        QVERIFY(!c.sharesStorageWith(t));
        QVERIFY(c.isContiguous());
        TL_COMPARE_ARRAYS(c, t, 0, 0);
        checkRopByFiniteDifferences({{3}}, [](GraphBuilder& g, const std::vector<Var>& in) {
            return deepCopy(assertOp(in[0], {g.constant(1, DType::Bool)}, "ok"));
        });
    }

    void opaque() {
        std::vector<Type> types{Type::tensor(DType::Float64, {kUnknownDim, 7}), Type::scalar(DType::Int64)};
        OpPtr op = makeOpaque("Gemv{inplace}", types, {{0, {0}}});
        QCOMPARE(str(op->name()), "Gemv{inplace}");
        QVERIFY(op->destroyMap() == (AliasMap{{0, {0}}}));
        checkJsonRoundTrip(op);
        GraphBuilder b;
        auto outs = b.apply(op, {b.input("y", DType::Float64, {3, 7})});
        QCOMPARE(outs.size(), size_t(2));
        QVERIFY(outs[0].type() == types[0]);
        QVERIFY(outs[1].type() == types[1]);
        const QString err = errorOf([&] { perform(*op, {iota(DType::Float64, {3, 7})}, 2); });
        QCOMPARE(err, QString("cannot execute opaque op Gemv{inplace}"));
        QVERIFY(errorOf([&] {
                    makeOp(OpKind::Opaque, nlohmann::json::parse(R"({"name": "X", "output_types": [{"dtype": "float128"}]})"),
                           nullptr);
                }).contains("output_types/0/dtype"));
    }

    void badParamsNameTheParam() {
        QVERIFY(errorOf([] { makeOp(OpKind::DimShuffle, {{"input_ndim", 1}}, nullptr); }).contains("missing \"new_order\""));
        QVERIFY(errorOf([] { makeOp(OpKind::DimShuffle, {{"input_ndim", 1}, {"new_order", {"y"}}}, nullptr); })
                    .contains("\"new_order\"/0"));
        QVERIFY(errorOf([] { makeOp(OpKind::Unbroadcast, {{"axes", {0, "a"}}}, nullptr); }).contains("\"axes\"/1"));
        QVERIFY(errorOf([] { makeOp(OpKind::ShapeI, {{"i", "0"}}, nullptr); }).contains("\"i\" must be an integer"));
        QVERIFY(errorOf([] { makeOp(OpKind::Reshape, nlohmann::json::array(), nullptr); }).contains("JSON object"));
        QVERIFY(errorOf([] { makeOp(OpKind::MakeVector, {{"dtype", "int128"}}, nullptr); }).contains("\"dtype\""));
        QVERIFY(errorOf([] { makeOp(OpKind::Assert, {{"msg", 3}}, nullptr); }).contains("\"msg\""));
    }
};

TL_TEST_SUITE(TestShapeOps)
#include "tst_shape_ops.moc"
