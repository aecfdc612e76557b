// ARange, Eye, Tri, Bartlett, ExtractDiag, AllocDiag, FillDiagonal(Offset), Split and
// Repeat: kernels against NumPy's values (numpy 1.24 / PyTensor 2.34 in
// ../shared/pytensor, printed with tolist()), static types as PyTensor's make_node,
// views, and errors naming the op.
#include "TestSuites.h"
#include "ArrayOpsTestUtil.h"

#include "ops/ARange.h"
#include "ops/Bartlett.h"
#include "ops/Diagonal.h"
#include "ops/EyeTri.h"
#include "ops/FillDiagonal.h"
#include "ops/Repeat.h"
#include "ops/Split.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {
const Type* const* ptrs(const std::vector<Type>& ts, std::vector<const Type*>& keep) {
    keep.clear();
    for (const Type& t : ts) keep.push_back(&t);
    return keep.data();
}

std::vector<Type> inferWith(const Op& op, const std::vector<Type>& types, const std::vector<const NDArray*>& consts) {
    std::vector<const Type*> keep;
    ptrs(types, keep);
    return op.inferTypesWithConstants(keep, consts);
}

Type t0(DType d) { return Type::tensor(d, {}); }
} // namespace

class TestArrayCtorOps : public QObject {
    Q_OBJECT

private slots:
    void arangeKernel() {
        // np.arange(1.0, 4.0, 0.5, dtype=float32): the corpus's ARange{dtype='float32'}.
        auto r = perform(*makeARange(DType::Float32), {scalarOf(DType::Float32, 1), scalarOf(DType::Float32, 4), scalarOf(DType::Float32, 0.5)});
        TL_CHECK_VALUES(r[0], DType::Float32, {6}, {1.0, 1.5, 2.0, 2.5, 3.0, 3.5});
        r = perform(*makeARange(DType::Float64), {scalarOf(DType::Float64, 0.1), scalarOf(DType::Float64, 1), scalarOf(DType::Float64, 0.3)});
        TL_CHECK_VALUES(r[0], DType::Float64, {3}, {0.1, 0.4, 0.7000000000000001});
        r = perform(*makeARange(DType::Int64), {i64(5), i64(-3), i64(-2)});
        TL_CHECK_VALUES(r[0], DType::Int64, {4}, {5, 3, 1, -1});
        r = perform(*makeARange(DType::Int32), {scalarOf(DType::Float64, 0.5), scalarOf(DType::Float64, 3.7), scalarOf(DType::Float64, 1)});
        TL_CHECK_VALUES(r[0], DType::Int32, {4}, {0, 1, 2, 3});
        r = perform(*makeARange(DType::Float32), {i64(0), i64(1), scalarOf(DType::Float64, 0.1)});
        TL_CHECK_VALUES(r[0], DType::Float32, {10},
                        {0.0, 0.10000000149011612, 0.20000000298023224, 0.30000001192092896, 0.4000000059604645, 0.5,
                         0.6000000238418579, 0.699999988079071, 0.800000011920929, 0.9000000357627869});
        r = perform(*makeARange(DType::Int64), {i64(3), i64(1), i64(1)});
        TL_CHECK_VALUES(r[0], DType::Int64, {0}, {});
        QVERIFY(errorOf([&] { perform(*makeARange(DType::Int64), {i64(0), i64(3), i64(0)}); }).contains("ARange: step is zero"));
    }

    void arangeTypes() {
        OpPtr op = makeARange(DType::Int64);
        QCOMPARE(QString::fromStdString(op->name()), QString("ARange{dtype='int64'}"));
        // Static length with three constants, as PyTensor's make_node; unknown otherwise.
        NDArray a = i64(1), b = i64(10), c = i64(3);
        auto t = inferWith(*op, {t0(DType::Int64), t0(DType::Int64), t0(DType::Int64)}, {&a, &b, &c});
        QCOMPARE(QString::fromStdString(t[0].toString()), QString("Vector(int64, shape=(3,))"));
        t = inferWith(*op, {t0(DType::Int64), t0(DType::Int64), t0(DType::Int64)}, {&a, nullptr, &c});
        QCOMPARE(QString::fromStdString(t[0].toString()), QString("Vector(int64, shape=(?,))"));
        QVERIFY(errorOf([&] { inferWith(*op, {Type::tensor(DType::Int64, {2}), t0(DType::Int64), t0(DType::Int64)}, {}); })
                    .contains("ARange start must be a 0-d number"));
        checkJsonRoundTrip(op);
        QVERIFY(errorOf([&] { makeOp(OpKind::ARange, {{"dtype", "float16"}}, nullptr); }).contains("\"dtype\""));
    }

    void eyeAndTri() {
        auto r = perform(*makeEye(DType::Float64), {i64(4), i64(3), i64(1)});
        TL_CHECK_VALUES(r[0], DType::Float64, {4, 3}, {0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0});
        r = perform(*makeEye(DType::Int16), {i64(3), i64(5), i64(-2)});
        TL_CHECK_VALUES(r[0], DType::Int16, {3, 5}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0});
        r = perform(*makeTri(DType::Float64), {i64(4), i64(4), i64(-1)});
        TL_CHECK_VALUES(r[0], DType::Float64, {4, 4}, {0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0});
        r = perform(*makeTri(DType::Int8), {i64(3), i64(5), i64(1)});
        TL_CHECK_VALUES(r[0], DType::Int8, {3, 5}, {1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0});
        QVERIFY(errorOf([&] { perform(*makeEye(DType::Float64), {i64(-1), i64(3), i64(0)}); }).contains("negative dimensions"));

        // Eye(3, 3): static (3, 3) (PyTensor's infer_static_shape); Tri stays (?, ?) as PyTensor's.
        NDArray three = i64(3), zero = i64(0);
        auto t = inferWith(*makeEye(DType::Float64), {t0(DType::Int8), t0(DType::Int8), t0(DType::Int8)}, {&three, &three, &zero});
        QCOMPARE(QString::fromStdString(t[0].toString()), QString("Matrix(float64, shape=(3, 3))"));
        t = inferWith(*makeTri(DType::Float64), {t0(DType::Int8), t0(DType::Int8), t0(DType::Int8)}, {&three, &three, &zero});
        QCOMPARE(QString::fromStdString(t[0].toString()), QString("Matrix(float64, shape=(?, ?))"));
        QCOMPARE(QString::fromStdString(makeEye(DType::Float64)->name()), QString("Eye{dtype='float64'}"));
        QCOMPARE(QString::fromStdString(makeTri(DType::Float32)->name()), QString("Tri{dtype='float32'}"));
        QVERIFY(errorOf([&] { inferWith(*makeTri(DType::Float64), {t0(DType::Float64), t0(DType::Int8), t0(DType::Int8)}, {}); })
                    .contains("Tri rows must be a 0-d integer"));
        checkJsonRoundTrip(makeEye(DType::Int32));
        checkJsonRoundTrip(makeTri(DType::Float64));
    }

    void bartlett() {
        auto r = perform(*makeBartlett(), {i64(7)});
        TL_CHECK_VALUES(r[0], DType::Float64, {7},
                        {0.0, 0.33333333333333337, 0.6666666666666667, 1.0, 0.6666666666666667, 0.33333333333333337, 0.0});
        r = perform(*makeBartlett(), {i64(4)});
        TL_CHECK_VALUES(r[0], DType::Float64, {4}, {0.0, 0.6666666666666667, 0.6666666666666667, 0.0});
        TL_CHECK_VALUES(perform(*makeBartlett(), {i64(1)})[0], DType::Float64, {1}, {1.0});
        TL_CHECK_VALUES(perform(*makeBartlett(), {i64(-2)})[0], DType::Float64, {0}, {});
        QVERIFY(errorOf([&] { inferWith(*makeBartlett(), {t0(DType::Float64)}, {}); }).contains("must be a 0-d integer"));
    }

    void extractDiag() {
        NDArray x = iota(DType::Float64, {2, 3, 4});
        auto r = perform(*makeExtractDiag(1, 0, 2), {x});
        TL_CHECK_VALUES(r[0], DType::Float64, {3, 2}, {1.0, 14.0, 5.0, 18.0, 9.0, 22.0});
        QVERIFY(r[0].sharesStorageWith(x));  // view=True: a view, as PyArray_Diagonal
        r = perform(*makeExtractDiag(-1, 1, 2), {x});
        TL_CHECK_VALUES(r[0], DType::Float64, {2, 2}, {4.0, 9.0, 16.0, 21.0});
        // Axes given as (2, 0) are stored sorted with the offset negated, as PyTensor.
        OpPtr swapped = makeExtractDiag(0, 2, 0);
        QCOMPARE(QString::fromStdString(swapped->name()), QString("ExtractDiag{offset=0, axis1=0, axis2=2, view=True}"));
        TL_CHECK_VALUES(perform(*swapped, {x})[0], DType::Float64, {3, 2}, {0.0, 13.0, 4.0, 17.0, 8.0, 21.0});
        OpPtr copy = makeExtractDiag(0, 0, 1, false);
        QVERIFY(!perform(*copy, {iota(DType::Int8, {3, 3})})[0].sharesStorageWith(x));
        QVERIFY(copy->viewMap().empty());
        QVERIFY((makeExtractDiag()->viewMap() == AliasMap{{0, {0}}}));
        auto t = inferWith(*makeExtractDiag(1), {Type::tensor(DType::Float64, {3, 3})}, {});
        QCOMPARE(QString::fromStdString(t[0].toString()), QString("Vector(float64, shape=(2,))"));
        QVERIFY(errorOf([&] { inferWith(*makeExtractDiag(), {Type::tensor(DType::Float64, {3})}, {}); }).contains("2 or more dimensions"));
        QVERIFY(errorOf([&] { makeExtractDiag(0, 1, 1); }).contains("cannot be the same"));
        checkJsonRoundTrip(makeExtractDiag(-2, 1, 3, false));
        // The exporter keeps PyTensor's view_map beside the props; it must agree.
        QVERIFY(makeOp(OpKind::ExtractDiag, {{"offset", 0}, {"axis1", 0}, {"axis2", 1}, {"view", true}, {"view_map", {{"0", {0}}}}}, nullptr));
        QVERIFY(errorOf([&] { makeOp(OpKind::ExtractDiag, {{"view", false}, {"view_map", {{"0", {0}}}}}, nullptr); })
                    .contains("is not the op's own"));
    }

    void allocDiag() {
        NDArray d = arr(DType::Float64, {3}, {1, 2, 3});
        TL_CHECK_VALUES(perform(*makeAllocDiag(0, 1, 0), {d})[0], DType::Float64, {3, 3}, {1, 0, 0, 0, 2, 0, 0, 0, 3});
        TL_CHECK_VALUES(perform(*makeAllocDiag(0, 1, 1), {d})[0], DType::Float64, {4, 4},
                        {0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0});
        TL_CHECK_VALUES(perform(*makeAllocDiag(1, 0, -1), {d})[0], DType::Float64, {4, 4},
                        {0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0});
        // Batched: alloc_diag(D, offset=1, axis1=0, axis2=2) of a (2, 2) D.
        TL_CHECK_VALUES(perform(*makeAllocDiag(0, 2, 1), {arr(DType::Float64, {2, 2}, {1, 2, 3, 4})})[0], DType::Float64,
                        {3, 2, 3}, {0, 1, 0, 0, 3, 0, 0, 0, 2, 0, 0, 4, 0, 0, 0, 0, 0, 0});
        QCOMPARE(QString::fromStdString(makeAllocDiag(0, 1, 0)->name()), QString("AllocDiag{self.axis1=0, self.axis2=1, self.offset=0}"));
        auto t = inferWith(*makeAllocDiag(0, 2, -1), {Type::tensor(DType::Int32, {5, 3})}, {});
        QCOMPARE(QString::fromStdString(t[0].toString()), QString("Tensor3(int32, shape=(4, 5, 4))"));
        checkJsonRoundTrip(makeAllocDiag(1, 2, 3));
    }

    void fillDiagonal() {
        NDArray m = iota(DType::Float64, {3, 4});
        auto r = perform(*makeFillDiagonal(), {m, scalarOf(DType::Float64, -2)});
        TL_CHECK_VALUES(r[0], DType::Float64, {3, 4}, {-2, 1, 2, 3, 4, -2, 6, 7, 8, 9, -2, 11});
        QCOMPARE(m.flatGet(0), 0.0);  // a copy: the input is untouched
        TL_CHECK_VALUES(perform(*makeFillDiagonal(), {iota(DType::Float64, {4, 3}), scalarOf(DType::Float64, 7)})[0],
                        DType::Float64, {4, 3}, {7, 1, 2, 3, 7, 5, 6, 7, 7, 9, 10, 11});
        NDArray cube = NDArray::zeros(DType::Int8, {2, 2, 2});
        TL_CHECK_VALUES(perform(*makeFillDiagonal(), {cube, scalarOf(DType::Int8, 5)})[0], DType::Int8, {2, 2, 2}, {5, 0, 0, 0, 0, 0, 0, 5});
        QVERIFY(errorOf([&] { perform(*makeFillDiagonal(), {NDArray::zeros(DType::Int8, {2, 3, 2}), scalarOf(DType::Int8, 1)}); })
                    .contains("must be equal"));
        // FillDiagonalOffset, values from PyTensor 2.34's own kernel.
        auto fdo = [&](NDArray a, int64_t off) { return perform(*makeFillDiagonalOffset(), {a, scalarOf(DType::Float64, 9), i64(off)})[0]; };
        TL_CHECK_VALUES(fdo(m, 1), DType::Float64, {3, 4}, {0, 9, 2, 3, 4, 5, 9, 7, 8, 9, 10, 9});
        TL_CHECK_VALUES(fdo(m, -2), DType::Float64, {3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 9, 9, 10, 11});
        TL_CHECK_VALUES(fdo(iota(DType::Float64, {4, 3}), -1), DType::Float64, {4, 3}, {0, 1, 2, 9, 4, 5, 6, 9, 8, 9, 10, 9});
        QVERIFY(errorOf([&] { inferWith(*makeFillDiagonal(), {Type::tensor(DType::Int32, {3, 3}), t0(DType::Float64)}, {}); })
                    .contains("must be the same as the first's"));
        QVERIFY(errorOf([&] { inferWith(*makeFillDiagonalOffset(), {Type::tensor(DType::Float64, {3, 3, 3}), t0(DType::Float64), t0(DType::Int8)}, {}); })
                    .contains("exactly two dimensions"));
    }

    void split() {
        NDArray x = iota(DType::Float64, {6});
        OpPtr op = makeSplit(3);
        auto r = perform(*op, {x, i64(0), int64s({1, 2, 3})}, 3);
        TL_CHECK_VALUES(r[0], DType::Float64, {1}, {0});
        TL_CHECK_VALUES(r[1], DType::Float64, {2}, {1, 2});
        TL_CHECK_VALUES(r[2], DType::Float64, {3}, {3, 4, 5});
        for (const NDArray& part : r) QVERIFY(part.sharesStorageWith(x));
        r = perform(*makeSplit(2), {iota(DType::Int32, {2, 3}), i64(-1), int64s({2, 1})}, 2);
        TL_CHECK_VALUES(r[0], DType::Int32, {2, 2}, {0, 1, 3, 4});
        TL_CHECK_VALUES(r[1], DType::Int32, {2, 1}, {2, 5});
        QVERIFY(errorOf([&] { perform(*op, {x, i64(0), int64s({1, 2, 2})}, 3); }).contains("split sizes sum to 5; expected 6"));
        QVERIFY(errorOf([&] { perform(*op, {x, i64(0), int64s({1, 5})}, 3); }).contains("not equal to n_splits"));
        QVERIFY(errorOf([&] { perform(*op, {x, i64(0), int64s({7, -1, 0})}, 3); }).contains("cannot be negative"));
        QVERIFY((op->viewMap() == AliasMap{{0, {0}}, {1, {0}}, {2, {0}}}));
        QCOMPARE(QString::fromStdString(op->name()), QString("Split{3}"));
        // Static lengths from a constant axis and constant sizes, as PyTensor's make_node.
        NDArray axis = i64(0), sizes = int64s({1, 2, 3});
        auto t = inferWith(*op, {Type::tensor(DType::Float64, {6, 2}), t0(DType::Int8), Type::tensor(DType::Int64, {3})}, {nullptr, &axis, &sizes});
        QCOMPARE(QString::fromStdString(t[2].toString()), QString("Matrix(float64, shape=(3, 2))"));
        t = inferWith(*op, {Type::tensor(DType::Float64, {6, 2}), t0(DType::Int8), Type::tensor(DType::Int64, {3})}, {});
        QCOMPARE(QString::fromStdString(t[0].toString()), QString("Matrix(float64, shape=(?, ?))"));
        checkJsonRoundTrip(op);
    }

    void repeat() {
        NDArray m = iota(DType::Float64, {3, 4});
        TL_CHECK_VALUES(perform(*makeRepeat(1), {m, int64s({2, 0, 1, 1})})[0], DType::Float64, {3, 4},
                        {0, 0, 2, 3, 4, 4, 6, 7, 8, 8, 10, 11});
        TL_CHECK_VALUES(perform(*makeRepeat(std::nullopt), {arr(DType::Int16, {2, 2}, {1, 2, 3, 4}), int64s({1, 2, 0, 3})})[0],
                        DType::Int16, {6}, {1, 2, 2, 4, 4, 4});
        TL_CHECK_VALUES(perform(*makeRepeat(0), {arr(DType::Bool, {2}, {1, 0}), i64(2)})[0], DType::Bool, {4}, {1, 1, 0, 0});
        QVERIFY(errorOf([&] { perform(*makeRepeat(0), {m, int64s({1, 2})}); }).contains("could not be broadcast"));
        QVERIFY(errorOf([&] { perform(*makeRepeat(0), {m, int64s({1, -1, 0})}); }).contains("negative"));
        QCOMPARE(QString::fromStdString(makeRepeat(std::nullopt)->name()), QString("Repeat{axis=None}"));
        NDArray one = i64(1);
        auto t = inferWith(*makeRepeat(0), {Type::tensor(DType::Float64, {3, 4}), t0(DType::Int64)}, {nullptr, &one});
        QCOMPARE(QString::fromStdString(t[0].toString()), QString("Matrix(float64, shape=(3, 4))"));
        t = inferWith(*makeRepeat(0), {Type::tensor(DType::Float64, {3, 4}), Type::tensor(DType::Int64, {3})}, {});
        QCOMPARE(QString::fromStdString(t[0].toString()), QString("Matrix(float64, shape=(?, 4))"));
        QVERIFY(errorOf([&] { makeRepeat(-1); }).contains("positive integer axis"));
        checkJsonRoundTrip(makeRepeat(2));
        checkJsonRoundTrip(makeRepeat(std::nullopt));
    }
};

TL_TEST_SUITE(TestArrayCtorOps)
#include "tst_array_ctor_ops.moc"
