// SortOp, ArgSortOp, SearchsortedOp, Nonzero, Unique, Choose, PermuteRowElements,
// Convolve1d and Pad: kernels against NumPy's values (numpy 1.24 / PyTensor 2.34 in
// ../shared/pytensor, printed with tolist()), static types and errors.
#include "TestSuites.h"
#include "ArrayOpsTestUtil.h"

#include "ops/Choose.h"
#include "ops/Convolve1d.h"
#include "ops/Nonzero.h"
#include "ops/Pad.h"
#include "ops/PermuteRowElements.h"
#include "ops/Searchsorted.h"
#include "ops/Sort.h"
#include "ops/Unique.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {
std::vector<Type> infer(const Op& op, const std::vector<Type>& types) {
    std::vector<const Type*> p;
    for (const Type& t : types) p.push_back(&t);
    return op.inferTypes(p);
}
QString typeName(const Type& t) { return QString::fromStdString(t.toString()); }
} // namespace

class TestSelectionOps : public QObject {
    Q_OBJECT

private slots:
    void sortAndArgsort() {
        NDArray xs = arr(DType::Float64, {8}, {3.0, kNaN, -1.0, 2.0, -1.0, 0.5, kInf, -kInf});
        TL_CHECK_VALUES(perform(*makeSort(), {xs, i64(-1)})[0], DType::Float64, {8}, {-kInf, -1, -1, 0.5, 2, 3, kInf, kNaN});
        TL_CHECK_VALUES(perform(*makeArgSort("stable"), {xs, i64(0)})[0], DType::Int64, {8}, {7, 2, 4, 5, 3, 0, 6, 1});
        NDArray m = arr(DType::Int32, {2, 3}, {3, 1, 2, 9, -4, 0});
        TL_CHECK_VALUES(perform(*makeSort("mergesort"), {m, i64(0)})[0], DType::Int32, {2, 3}, {3, -4, 0, 9, 1, 2});
        TL_CHECK_VALUES(perform(*makeArgSort(), {m, i64(0)})[0], DType::Int64, {2, 3}, {0, 1, 1, 1, 0, 0});
        TL_CHECK_VALUES(perform(*makeArgSort(), {m, i64(1)})[0], DType::Int64, {2, 3}, {1, 2, 0, 1, 2, 0});
        // A strided (transposed) input sorts as its values.
        NDArray t = m.view({3, 2}, {1, 3}, 0);
        TL_CHECK_VALUES(perform(*makeSort(), {t, i64(-1)})[0], DType::Int32, {3, 2}, {3, 9, -4, 1, 0, 2});
        QVERIFY(errorOf([&] { perform(*makeSort(), {m, i64(2)}); }).contains("axis 2 is out of bounds"));
        QCOMPARE(QString::fromStdString(makeSort()->name()), QString("SortOp{kind='quicksort'}"));
        QCOMPARE(QString::fromStdString(makeArgSort("heapsort")->name()), QString("ArgSortOp{kind='heapsort'}"));
        QVERIFY(errorOf([&] { makeSort("bogo"); }).contains("kind must be one of"));
        QCOMPARE(typeName(infer(*makeArgSort(), {Type::tensor(DType::Float32, {3, 5}), Type::tensor(DType::Int64, {})})[0]),
                 QString("Matrix(int64, shape=(3, 5))"));
        checkJsonRoundTrip(makeSort("stable"));
        checkJsonRoundTrip(makeArgSort());
    }

    void searchsorted() {
        NDArray edges = arr(DType::Float64, {5}, {-1.5, -0.5, 0.0, 0.5, 1.5});
        NDArray vals = arr(DType::Float64, {2, 3}, {-2.0, -0.5, 0.0, 0.7, 1.5, 9.0});
        TL_CHECK_VALUES(perform(*makeSearchsorted("left"), {edges, vals})[0], DType::Int64, {2, 3}, {0, 1, 2, 4, 4, 5});
        TL_CHECK_VALUES(perform(*makeSearchsorted("right"), {edges, vals})[0], DType::Int64, {2, 3}, {0, 2, 3, 4, 5, 5});
        NDArray unsorted = arr(DType::Float64, {5}, {0.5, -1.5, 1.5, 0.0, -0.5});
        TL_CHECK_VALUES(perform(*makeSearchsorted(), {unsorted, vals, int64s({1, 4, 3, 0, 2})})[0], DType::Int64, {2, 3},
                        {0, 1, 2, 4, 4, 5});
        // int8 x against float64 values: compared as NumPy's common type.
        TL_CHECK_VALUES(perform(*makeSearchsorted(), {arr(DType::Int8, {3}, {1, 3, 5}), arr(DType::Float64, {3}, {2.5, 3.0, 6.0})})[0],
                        DType::Int64, {3}, {1, 1, 3});
        QVERIFY(errorOf([&] { perform(*makeSearchsorted(), {unsorted, vals, int64s({1, 4, 9, 0, 2})}); }).contains("out of bounds"));
        QCOMPARE(typeName(infer(*makeSearchsorted(), {Type::tensor(DType::Float64, {5}), Type::tensor(DType::Float32, {2, kUnknownDim})})[0]),
                 QString("Matrix(int64, shape=(2, ?))"));
        QVERIFY(errorOf([&] { infer(*makeSearchsorted(), {Type::tensor(DType::Float64, {2, 2}), Type::tensor(DType::Float64, {})}); })
                    .contains("x must be a vector"));
        QVERIFY(errorOf([&] { makeSearchsorted("middle"); }).contains("invalid value for keyword 'side'"));
        QCOMPARE(QString::fromStdString(makeSearchsorted("right")->name()), QString("SearchsortedOp{side='right'}"));
        checkJsonRoundTrip(makeSearchsorted("right"));
    }

    void nonzero() {
        NDArray z = arr(DType::Float64, {2, 3}, {0.0, 1.5, 0.0, kNaN, 0.0, -2.0});
        auto r = perform(*makeNonzero(), {z}, 2);
        TL_CHECK_VALUES(r[0], DType::Int64, {3}, {0, 1, 1});
        TL_CHECK_VALUES(r[1], DType::Int64, {3}, {1, 0, 2});
        r = perform(*makeNonzero(), {arr(DType::Bool, {4}, {0, 0, 0, 0})}, 1);
        TL_CHECK_VALUES(r[0], DType::Int64, {0}, {});
        auto t = infer(*makeNonzero(), {Type::tensor(DType::Int8, {2, 3, 4})});
        QCOMPARE(static_cast<int>(t.size()), 3);
        QCOMPARE(typeName(t[2]), QString("Vector(int64, shape=(?,))"));
        QVERIFY(errorOf([&] { infer(*makeNonzero(), {Type::tensor(DType::Int8, {})}); }).contains("non-scalar arrays"));
    }

    void unique() {
        NDArray lab = arr(DType::Int64, {7}, {3, 1, 3, 0, 1, 1, 4});
        OpPtr all = makeUnique({true, true, true, std::nullopt});
        auto r = perform(*all, {lab}, 4);
        TL_CHECK_VALUES(r[0], DType::Int64, {4}, {0, 1, 3, 4});
        TL_CHECK_VALUES(r[1], DType::Int64, {4}, {3, 1, 0, 6});
        TL_CHECK_VALUES(r[2], DType::Int64, {7}, {2, 1, 2, 0, 1, 1, 3});
        TL_CHECK_VALUES(r[3], DType::Int64, {4}, {1, 3, 2, 1});
        // NaNs collapse into one (NumPy's equal_nan=True).
        r = perform(*makeUnique({false, false, true, std::nullopt}), {arr(DType::Float64, {5}, {2.0, kNaN, 1.0, kNaN, 2.0})}, 2);
        TL_CHECK_VALUES(r[0], DType::Float64, {3}, {1.0, 2.0, kNaN});
        TL_CHECK_VALUES(r[1], DType::Int64, {3}, {1, 2, 2});
        // Unique rows and columns of an int8 matrix.
        NDArray rows = arr(DType::Int8, {4, 3}, {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0});
        r = perform(*makeUnique({true, true, true, 0}), {rows}, 4);
        TL_CHECK_VALUES(r[0], DType::Int8, {3, 3}, {0, 0, 0, 0, 1, 0, 1, 0, 1});
        TL_CHECK_VALUES(r[1], DType::Int64, {3}, {3, 1, 0});
        TL_CHECK_VALUES(r[2], DType::Int64, {4}, {2, 1, 2, 0});
        TL_CHECK_VALUES(r[3], DType::Int64, {3}, {1, 1, 2});
        r = perform(*makeUnique({true, true, true, 1}), {rows}, 4);
        TL_CHECK_VALUES(r[0], DType::Int8, {4, 2}, {0, 1, 1, 0, 0, 1, 0, 0});
        TL_CHECK_VALUES(r[1], DType::Int64, {2}, {1, 0});
        TL_CHECK_VALUES(r[2], DType::Int64, {3}, {1, 0, 1});
        TL_CHECK_VALUES(r[3], DType::Int64, {2}, {1, 2});
        QCOMPARE(QString::fromStdString(makeUnique({false, true, false, std::nullopt})->name()),
                 QString("Unique{return_index=False, return_inverse=True, return_counts=False, axis=None}"));
        auto t = infer(*makeUnique({false, false, true, 1}), {Type::tensor(DType::Float64, {3, 4})});
        QCOMPARE(static_cast<int>(t.size()), 2);
        QCOMPARE(typeName(t[0]), QString("Matrix(float64, shape=(3, ?))"));
        QVERIFY(errorOf([&] { infer(*makeUnique({false, false, false, 2}), {Type::tensor(DType::Float64, {3, 4})}); }).contains("out of range"));
        checkJsonRoundTrip(all);
        checkJsonRoundTrip(makeUnique({false, true, false, 1}));
    }

    void choose() {
        NDArray c = iota(DType::Float64, {3, 4});
        TL_CHECK_VALUES(perform(*makeChoose("raise"), {int64s({2, 0, 1, 2}), c})[0], DType::Float64, {4}, {8, 1, 6, 11});
        TL_CHECK_VALUES(perform(*makeChoose("wrap"), {arr(DType::Int64, {2, 1}, {4, -1}), c})[0], DType::Float64, {2, 4},
                        {4, 5, 6, 7, 8, 9, 10, 11});
        TL_CHECK_VALUES(perform(*makeChoose("clip"), {int64s({5, -3, 1, 0}), c})[0], DType::Float64, {4}, {8, 1, 6, 3});
        QVERIFY(errorOf([&] { perform(*makeChoose("raise"), {int64s({3, 0, 0, 0}), c}); }).contains("invalid entry 3"));
        QVERIFY(errorOf([&] { perform(*makeChoose("raise"), {int64s({0, 1, 0}), c}); }).contains("cannot be broadcast"));
        QCOMPARE(typeName(infer(*makeChoose(), {Type::tensor(DType::Int8, {1, 4}), Type::tensor(DType::Float32, {3, 1, 4})})[0]),
                 QString("Matrix(float32, shape=(1, ?))"));
        QVERIFY(errorOf([&] { infer(*makeChoose(), {Type::tensor(DType::Float64, {4}), Type::tensor(DType::Float64, {3, 4})}); })
                    .contains("[u]int* dtype"));
        checkJsonRoundTrip(makeChoose("clip"));
    }

    void permuteRowElements() {
        NDArray c = iota(DType::Float64, {3, 4});
        TL_CHECK_VALUES(perform(*makePermuteRowElements(false), {c, arr(DType::Int64, {1, 4}, {3, 1, 0, 2})})[0], DType::Float64,
                        {3, 4}, {3, 1, 0, 2, 7, 5, 4, 6, 11, 9, 8, 10});
        TL_CHECK_VALUES(perform(*makePermuteRowElements(true), {c, arr(DType::Int64, {1, 4}, {3, 1, 0, 2})})[0], DType::Float64,
                        {3, 4}, {2, 1, 3, 0, 6, 5, 7, 4, 10, 9, 11, 8});
        TL_CHECK_VALUES(perform(*makePermuteRowElements(false), {c, arr(DType::Int64, {3, 4}, {1, 0, 3, 2, 0, 1, 2, 3, 3, 2, 1, 0})})[0],
                        DType::Float64, {3, 4}, {1, 0, 3, 2, 4, 5, 6, 7, 11, 10, 9, 8});
        // One vector permuted by every row of y (x padded to (1, 3) by pt.permute_row_elements).
        TL_CHECK_VALUES(perform(*makePermuteRowElements(false), {arr(DType::Float64, {1, 3}, {10, 20, 30}),
                                                                 arr(DType::Int64, {2, 3}, {2, 0, 1, 1, 2, 0})})[0],
                        DType::Float64, {2, 3}, {30, 10, 20, 20, 30, 10});
        QVERIFY(errorOf([&] { perform(*makePermuteRowElements(false), {c, arr(DType::Int64, {1, 4}, {4, 1, 0, 2})}); })
                    .contains("out of bounds"));
        QCOMPARE(typeName(infer(*makePermuteRowElements(false), {Type::tensor(DType::Float64, {1, 4}), Type::tensor(DType::Int64, {1, 4})})[0]),
                 QString("Matrix(float64, shape=(1, ?))"));
        QVERIFY(errorOf([&] { infer(*makePermuteRowElements(false), {Type::tensor(DType::Float64, {3, 4}), Type::tensor(DType::Int64, {4})}); })
                    .contains("same number of dimensions"));
        QCOMPARE(QString::fromStdString(makePermuteRowElements(false)->name()), QString("PermuteRowElements{inverse=False}"));
        checkJsonRoundTrip(makePermuteRowElements(true));
    }

    void convolve1d() {
        NDArray a = arr(DType::Float64, {5}, {1.0, 2.0, -1.0, 0.5, 3.0}), k = arr(DType::Float64, {3}, {0.5, -1.0, 2.0});
        NDArray full = NDArray::scalar(DType::Bool, 1), valid = NDArray::scalar(DType::Bool, 0);
        TL_CHECK_VALUES(perform(*makeConvolve1d(), {a, k, full})[0], DType::Float64, {7}, {0.5, 0.0, -0.5, 5.25, -1.0, -2.0, 6.0});
        TL_CHECK_VALUES(perform(*makeConvolve1d(), {a, k, valid})[0], DType::Float64, {3}, {-0.5, 5.25, -1.0});
        TL_CHECK_VALUES(perform(*makeConvolve1d(), {k, a, valid})[0], DType::Float64, {3}, {-0.5, 5.25, -1.0});
        TL_CHECK_VALUES(perform(*makeConvolve1d(), {arr(DType::Int16, {3}, {1, 2, 3}), arr(DType::Int16, {2}, {4, 5}), full})[0],
                        DType::Int16, {4}, {4, 13, 22, 15});
        QVERIFY(errorOf([&] { perform(*makeConvolve1d(), {a, NDArray::empty(DType::Float64, {0}), full}); }).contains("cannot be empty"));
        const Type modeT = Type::scalar(DType::Bool);
        QCOMPARE(typeName(infer(*makeConvolve1d(), {Type::tensor(DType::Float32, {20}), Type::tensor(DType::Float64, {5}), modeT})[0]),
                 QString("Vector(float64, shape=(?,))"));
        QVERIFY(errorOf([&] { infer(*makeConvolve1d(), {Type::tensor(DType::Float64, {2, 2}), Type::tensor(DType::Float64, {5}), modeT}); })
                    .contains("must be vector"));
    }

    void padModes_data() {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QList<double>>("widths");   // (ndim, 2)
        QTest::addColumn<QList<double>>("values");   // (ndim, 2), or empty
        QTest::addColumn<QList<double>>("shape");
        QTest::addColumn<QList<double>>("expected");
        // np.pad of P = [[1, 2, 3], [4, 5, 6]].
        QTest::newRow("constant, per side") << "constant" << QList<double>{1, 0, 2, 1} << QList<double>{-1, -2, -3, -4}
            << QList<double>{3, 6} << QList<double>{-3, -3, -1, -1, -1, -4, -3, -3, 1, 2, 3, -4, -3, -3, 4, 5, 6, -4};
        QTest::newRow("edge") << "edge" << QList<double>{0, 1, 2, 1} << QList<double>{} << QList<double>{3, 6}
            << QList<double>{1, 1, 1, 2, 3, 3, 4, 4, 4, 5, 6, 6, 4, 4, 4, 5, 6, 6};
        // Wider than the data: PyTensor's pt.pad tiles periodically (NumPy 2's np.pad does too;
        // NumPy 1's differs), numbers from PyTensor 2.34.
        QTest::newRow("wrap, wider than the data") << "wrap" << QList<double>{1, 2, 4, 1} << QList<double>{} << QList<double>{5, 8}
            << QList<double>{6, 4, 5, 6, 4, 5, 6, 4, 3, 1, 2, 3, 1, 2, 3, 1, 6, 4, 5, 6, 4, 5, 6, 4, 3, 1, 2, 3, 1, 2, 3, 1,
                             6, 4, 5, 6, 4, 5, 6, 4};
        QTest::newRow("reflect") << "reflect" << QList<double>{1, 1, 2, 2} << QList<double>{} << QList<double>{4, 7}
            << QList<double>{6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1, 6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1};
        QTest::newRow("linear_ramp") << "linear_ramp" << QList<double>{1, 1, 2, 3} << QList<double>{0, 10, -5, 5}
            << QList<double>{4, 8}
            << QList<double>{-5, -2.5, 0, 0, 0, 1.6666666666666665, 3.333333333333333, 5, -5, -2, 1, 2, 3, 3.666666666666667,
                             4.333333333333333, 5, -5, -0.5, 4, 5, 6, 5.666666666666667, 5.333333333333333, 5, -5, 2.5, 10, 10,
                             10, 8.333333333333334, 6.666666666666667, 5};
        QTest::newRow("maximum, corners from the last axis") << "maximum" << QList<double>{1, 1, 1, 2} << QList<double>{}
            << QList<double>{4, 6} << QList<double>{6, 4, 5, 6, 6, 6, 3, 1, 2, 3, 3, 3, 6, 4, 5, 6, 6, 6, 6, 4, 5, 6, 6, 6};
    }
    void padModes() {
        QFETCH(QString, mode);
        QFETCH(QList<double>, widths);
        QFETCH(QList<double>, values);
        QFETCH(QList<double>, shape);
        QFETCH(QList<double>, expected);
        NDArray p = arr(DType::Float64, {2, 3}, {1, 2, 3, 4, 5, 6});
        OpPtr op = makePad(mode.toStdString(), "", false);
        std::vector<NDArray> ins{p, arr(DType::Int64, {2, 2}, std::vector<double>(widths.begin(), widths.end()))};
        if (!values.isEmpty()) ins.push_back(arr(DType::Float64, {2, 2}, std::vector<double>(values.begin(), values.end())));
        Shape s(shape.begin(), shape.end());
        TL_CHECK_VALUES(perform(*op, ins)[0], DType::Float64, s, std::vector<double>(expected.begin(), expected.end()), 1e-15);
    }

    void padVectorsAndIntegers() {
        NDArray v = arr(DType::Float64, {3}, {1, 2, 3});
        TL_CHECK_VALUES(perform(*makePad("reflect", "even"), {v, i64(5)})[0], DType::Float64, {13}, {2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2});
        TL_CHECK_VALUES(perform(*makePad("symmetric"), {v, int64s({4, 2})})[0], DType::Float64, {9}, {3, 3, 2, 1, 1, 2, 3, 3, 2});
        TL_CHECK_VALUES(perform(*makePad("constant"), {v, i64(1), scalarOf(DType::Float32, 0.5)})[0], DType::Float64, {5}, {0.5, 1, 2, 3, 0.5});
        // Integers: linear_ramp truncates (NumPy's linspace with an int dtype), mean rounds.
        TL_CHECK_VALUES(perform(*makePad("linear_ramp"), {arr(DType::Int32, {2}, {2, 7}), int64s({3, 2}), int64s({0, 1})})[0],
                        DType::Int32, {7}, {0, 0, 1, 2, 7, 4, 1});
        TL_CHECK_VALUES(perform(*makePad("mean"), {arr(DType::Int64, {2}, {1, 2}), i64(1)})[0], DType::Int64, {4}, {2, 1, 2, 2});
        TL_CHECK_VALUES(perform(*makePad("mean", "", true), {arr(DType::Float64, {4}, {1, 2, 6, 10}), int64s({2, 1}), int64s({2, 3})})[0],
                        DType::Float64, {7}, {1.5, 1.5, 1, 2, 6, 10, 6});
        TL_CHECK_VALUES(perform(*makePad("minimum"), {arr(DType::Int64, {2, 2}, {4, 1, 2, 8}), i64(1)})[0], DType::Int64, {4, 4},
                        {1, 2, 1, 1, 1, 4, 1, 1, 2, 2, 8, 2, 1, 2, 1, 1});
        QVERIFY(errorOf([&] { perform(*makePad("edge"), {NDArray::empty(DType::Float64, {0}), i64(1)}); }).contains("empty axis"));
        QVERIFY(errorOf([&] { perform(*makePad("edge"), {v, i64(-1)}); }).contains("negative"));
        QVERIFY(errorOf([&] { makePad("median"); }).contains("median"));
        QVERIFY(errorOf([&] { makePad("reflect", "odd"); }).contains("even reflection"));
        QCOMPARE(QString::fromStdString(makePad("wrap")->name()), QString("Pad{inline=False}"));
        checkJsonRoundTrip(makePad("reflect", "even"));
        checkJsonRoundTrip(makePad("maximum", "", true));
    }
};

TL_TEST_SUITE(TestSelectionOps)
#include "tst_selection_ops.moc"
