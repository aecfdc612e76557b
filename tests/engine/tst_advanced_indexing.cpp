// AdvancedSubtensor1, AdvancedSubtensor and MakeSlice: the kernels on every dtype
// against values worked out by hand (x = iota, so x[r, c] = 5r + c and
// T[a, b, c] = 15a + 5b + c), NumPy's placement of the advanced dims, masks,
// np.newaxis, negative indices, broadcast index arrays, the errors NumPy raises,
// static types as PyTensor's make_node gives them, printed names and JSON params.
#include "TestSuites.h"
#include "ShapeOpsTestUtil.h"
#include "TestSupport.h"

#include "ir/SliceValue.h"
#include "ops/AdvancedIndexing.h"
#include "ops/AdvancedSubtensor.h"
#include "ops/MakeSlice.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

constexpr DType kAllDTypes[] = {DType::Bool,  DType::Int8,    DType::Int16,  DType::Int32,
                                DType::Int64, DType::UInt8, DType::Float32, DType::Float64};

NDArray slice(std::optional<int64_t> a, std::optional<int64_t> b, std::optional<int64_t> c = std::nullopt) {
    return sliceValue({a, b, c});
}

NDArray bools(const Shape& shape, const std::vector<int>& v) {
    std::vector<double> d(v.begin(), v.end());
    return NDArray::fromVector(DType::Bool, shape, d);
}

NDArray ints(const Shape& shape, const std::vector<int64_t>& v) {
    NDArray a = NDArray::empty(DType::Int64, shape);
    for (size_t i = 0; i < v.size(); ++i) a.data<int64_t>()[i] = v[i];
    return a;
}

NDArray take(const NDArray& x, std::vector<NDArray> idx) {
    std::vector<NDArray> in{x};
    in.insert(in.end(), idx.begin(), idx.end());
    return perform(*makeAdvancedSubtensor(), in)[0];
}

std::string takeError(const NDArray& x, std::vector<NDArray> idx) {
    try {
        take(x, std::move(idx));
    } catch (const ExecError& e) {
        return e.what();
    }
    return "no error";
}

Type typeOf(const Type& x, const std::vector<Type>& idx, const std::vector<const NDArray*>& constants = {}) {
    std::vector<const Type*> in{&x};
    for (const Type& t : idx) in.push_back(&t);
    std::vector<const NDArray*> c{nullptr};
    c.insert(c.end(), constants.begin(), constants.end());
    while (c.size() < in.size()) c.push_back(nullptr);
    return makeAdvancedSubtensor()->inferTypesWithConstants(in, c).at(0);
}

Type vecT(int64_t n, DType d = DType::Int64) { return Type::tensor(d, {n}); }

} // namespace

class TestAdvancedIndexing : public QObject {
    Q_OBJECT
private slots:
    void rowsOfEveryDType() {
        // AdvancedSubtensor1: x.take(ilist, axis=0), negative and repeated rows included.
        for (DType d : kAllDTypes) {
            const NDArray x = iota(d, {6, 5});
            const NDArray out = perform(*makeAdvancedSubtensor1(), {x, int64s({0, 2, 2, -1})})[0];
            QCOMPARE(out.dtype(), d);
            QCOMPARE(out.shape(), Shape({4, 5}));
            const int rows[] = {0, 2, 2, 5};
            for (int r = 0; r < 4; ++r)
                for (int c = 0; c < 5; ++c) {
                    const int64_t at[] = {r, c}, src[] = {rows[r], c};
                    QCOMPARE(out.get(at), x.get(src));
                }
            QVERIFY(!out.sharesStorageWith(x));
        }
    }

    void rowsOfAnIntegerDTypeIndex() {
        for (DType d : {DType::Int8, DType::Int16, DType::Int32, DType::UInt8}) {
            const NDArray idx = NDArray::fromVector(d, {3}, {3, 0, 1});
            const NDArray out = perform(*makeAdvancedSubtensor1(), {iota(DType::Float64, {4}), idx})[0];
            QCOMPARE(out.toDoubles(), std::vector<double>({3, 0, 1}));
        }
    }

    void numpyResults_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("shape");
        QTest::addColumn<QString>("values");
        QTest::newRow("element pairs") << 0 << "(3,)" << "4,10,26";
        QTest::newRow("columns by array") << 1 << "(6, 2)" << "4,0,9,5,14,10,19,15,24,20,29,25";
        QTest::newRow("boolean rows") << 2 << "(4, 2)" << "0,1,10,11,15,16,25,26";
        QTest::newRow("boolean elements") << 3 << "(4,)" << "26,27,28,29";
        QTest::newRow("separated by a slice: advanced dims first") << 4 << "(2, 3)" << "4,9,14,46,51,56";
        QTest::newRow("consecutive after a slice: in place") << 5 << "(4, 2)" << "4,11,19,26,34,41,49,56";
        QTest::newRow("newaxis before") << 6 << "(1, 2, 2)" << "0,1,10,11";
        QTest::newRow("slice then array") << 7 << "(2, 2)" << "9,5,14,10";
        QTest::newRow("broadcast index arrays") << 8 << "(2, 3)" << "4,0,1,14,10,11";
        QTest::newRow("0-d integer with an array") << 9 << "(3,)" << "3,8,13";
        QTest::newRow("negative indices") << 10 << "(2,)" << "29,0";
        QTest::newRow("2-d mask of a 3-d tensor") << 11 << "(2, 5)" << "0,1,2,3,4,40,41,42,43,44";
        QTest::newRow("mask with a slice after") << 12 << "(2, 2)" << "1,2,41,42";
        QTest::newRow("reversed slice and newaxis between arrays") << 13 << "(2, 1, 3)" << "14,9,4,58,53,48";
        QTest::newRow("only 0-d integers: a copy, no advanced dims") << 14 << "()" << "17";
        QTest::newRow("empty index array") << 15 << "(0, 5)" << "";
    }
    void numpyResults() {
        QFETCH(int, which);
        QFETCH(QString, shape);
        QFETCH(QString, values);
        const NDArray M = iota(DType::Float64, {6, 5}), T = iota(DType::Float64, {4, 3, 5});
        NDArray out;
        switch (which) {
        case 0: out = take(M, {int64s({0, 2, -1}), int64s({4, 0, 1})}); break;
        case 1: out = take(M, {slice({}, {}), int64s({4, 0})}); break;
        case 2: out = take(M, {bools({6}, {1, 0, 1, 1, 0, 1}), slice({}, 2)}); break;
        case 3: {
            NDArray mask = NDArray::zeros(DType::Bool, {6, 5});
            for (int64_t i = 26; i < 30; ++i) mask.data<bool>()[i] = true;
            out = take(M, {mask});
            break;
        }
        case 4: out = take(T, {int64s({0, 3}), slice({}, {}), int64s({4, 1})}); break;
        case 5: out = take(T, {slice({}, {}), int64s({0, 2}), int64s({4, 1})}); break;
        case 6: out = take(M, {noneValue(), int64s({0, 2}), slice({}, 2)}); break;
        case 7: out = take(M, {slice(1, 3), int64s({4, 0})}); break;
        case 8: out = take(M, {ints({2, 1}, {0, 2}), ints({1, 3}, {4, 0, 1})}); break;
        case 9: out = take(M, {int64s({0, 1, 2}), i64(-2)}); break;
        case 10: out = take(M, {int64s({-1, 0}), int64s({-1, -5})}); break;
        case 11: out = take(T, {bools({4, 3}, {1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0})}); break;
        case 12: out = take(T, {bools({4, 3}, {1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0}), slice(1, 3)}); break;
        case 13: out = take(T, {int64s({0, 3}), noneValue(), slice({}, {}, -1), int64s({4, 3})}); break;
        case 14: out = take(M, {i64(3), i64(2)}); break;
        case 15: out = take(M, {NDArray::empty(DType::Int64, {0})}); break;
        }
        QCOMPARE(QString::fromStdString(shapeToString(out.shape())), shape);
        QStringList got;
        for (double v : out.toDoubles()) got << QString::number(v);
        QCOMPARE(got.join(','), values);
    }

    void stridedInput() {
        // A transposed view is read through its strides.
        const NDArray M = iota(DType::Float64, {5, 6});
        const NDArray t = M.view({6, 5}, {1, 6}, 0);
        const NDArray out = perform(*makeAdvancedSubtensor1(), {t, int64s({1, 0})})[0];
        QCOMPARE(out.toDoubles(), std::vector<double>({1, 7, 13, 19, 25, 0, 6, 12, 18, 24}));
    }

    void errorsAsNumPy_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("message");
        QTest::newRow("past the end") << 0 << "index 6 is out of bounds for axis 0 with size 6";
        QTest::newRow("before the start") << 1 << "index -6 is out of bounds for axis 1 with size 5";
        QTest::newRow("mask length") << 2 << "boolean index did not match indexed array along dimension 0; dimension is 6 but corresponding boolean dimension is 5";
        QTest::newRow("too many") << 3 << "too many indices for array: array is 2-dimensional, but 3 were indexed";
        QTest::newRow("no broadcast") << 4 << "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,)";
        QTest::newRow("zero step") << 5 << "slice step cannot be zero";
    }
    void errorsAsNumPy() {
        QFETCH(int, which);
        QFETCH(QString, message);
        const NDArray M = iota(DType::Float64, {6, 5});
        std::string e;
        switch (which) {
        case 0: e = takeError(M, {int64s({0, 6})}); break;
        case 1: e = takeError(M, {int64s({0}), int64s({-6})}); break;
        case 2: e = takeError(M, {bools({5}, {1, 0, 1, 0, 1})}); break;
        case 3: e = takeError(M, {int64s({0}), int64s({0}), int64s({0})}); break;
        case 4: e = takeError(M, {int64s({0, 1}), int64s({0, 1, 2})}); break;
        case 5: e = takeError(M, {slice({}, {}, 0), int64s({1})}); break;
        }
        QVERIFY2(QString::fromStdString(e).contains(message), e.c_str());
    }

    void outOfRangeNamesTheNode() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {4});
        Var i = b.input("i", DType::Int64, {2});
        auto g = b.finish({b.apply1(makeAdvancedSubtensor1(), {x, i})});
        try {
            run(*g, {iota(DType::Float64, {4}), int64s({1, 9})});
            QFAIL("an index past the end must be an error");
        } catch (const ExecError& e) {
            QVERIFY2(QString(e.what()).startsWith("AdvancedSubtensor1#"), e.what());
            QVERIFY2(QString(e.what()).contains("index 9 is out of bounds for axis 0 with size 4"), e.what());
        }
    }

    void staticTypes_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("type");
        QTest::newRow("rows") << 0 << "Matrix(float64, shape=(4, 5))";
        QTest::newRow("mask") << 1 << "Matrix(float64, shape=(?, 5))";
        QTest::newRow("constant full slice") << 2 << "Matrix(float64, shape=(6, 4))";
        QTest::newRow("symbolic slice") << 3 << "Matrix(float64, shape=(?, 4))";
        QTest::newRow("separated: advanced first") << 4 << "Matrix(float64, shape=(2, 3))";
        QTest::newRow("newaxis") << 5 << "Tensor3(float64, shape=(1, 4, 5))";
        QTest::newRow("broadcast with a length-1 dim") << 6 << "Matrix(float64, shape=(4, 3))";
        QTest::newRow("constant mask") << 7 << "Matrix(float64, shape=(3, 5))";
        QTest::newRow("constant slice bounds") << 8 << "Matrix(float64, shape=(2, 4))";
        QTest::newRow("unknown index length") << 9 << "Matrix(float64, shape=(?, 5))";
    }
    void staticTypes() {
        QFETCH(int, which);
        QFETCH(QString, type);
        const Type M = Type::tensor(DType::Float64, {6, 5}), T = Type::tensor(DType::Float64, {4, 3, 5});
        const NDArray full = slice({}, {}), oneThree = slice(1, 3);
        const NDArray mask = bools({6}, {1, 1, 0, 0, 1, 0});
        Type t;
        switch (which) {
        case 0: t = typeOf(M, {vecT(4)}); break;
        case 1: t = typeOf(M, {vecT(6, DType::Bool)}); break;
        case 2: t = typeOf(M, {Type::slice(), vecT(4)}, {&full}); break;
        case 3: t = typeOf(M, {Type::slice(), vecT(4)}); break;
        case 4: t = typeOf(T, {vecT(2), Type::slice(), vecT(2)}, {nullptr, &full}); break;
        case 5: t = typeOf(M, {Type::none(), vecT(4)}); break;
        case 6: t = typeOf(M, {Type::tensor(DType::Int64, {4, 1}), Type::tensor(DType::Int64, {1, 3})}); break;
        case 7: t = typeOf(M, {vecT(6, DType::Bool)}, {&mask}); break;
        case 8: t = typeOf(M, {Type::slice(), vecT(4)}, {&oneThree}); break;
        case 9: t = typeOf(M, {vecT(kUnknownDim)}); break;
        }
        QCOMPARE(QString::fromStdString(t.toString()), type);
    }

    void typeErrors_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("message");
        QTest::newRow("float index") << 0 << "must be an integer array, a boolean mask, a slice or None";
        QTest::newRow("0-d boolean") << 1 << "0-d boolean";
        QTest::newRow("too many") << 2 << "too many indices for array: tensor is 2-dimensional, but 3 were indexed";
        QTest::newRow("static mask length") << 3 << "boolean index did not match indexed tensor along axis 0";
        QTest::newRow("static broadcast") << 4 << "shape mismatch: indexing tensors could not be broadcast together with shapes [(2,), (3,)]";
        QTest::newRow("AdvancedSubtensor1 of a matrix index") << 5 << "index must be a vector";
        QTest::newRow("MakeSlice of a float") << 6 << "MakeSlice start must be an integer scalar or None";
    }
    void typeErrors() {
        QFETCH(int, which);
        QFETCH(QString, message);
        const Type M = Type::tensor(DType::Float64, {6, 5});
        std::string e;
        try {
            switch (which) {
            case 0: typeOf(M, {vecT(3, DType::Float64)}); break;
            case 1: typeOf(M, {Type::tensor(DType::Bool, {})}); break;
            case 2: typeOf(M, {vecT(2), vecT(2), vecT(2)}); break;
            case 3: typeOf(M, {vecT(5, DType::Bool)}); break;
            case 4: typeOf(M, {vecT(2), vecT(3)}); break;
            case 5: {
                const Type idx = Type::tensor(DType::Int64, {2, 2});
                const Type* in[] = {&M, &idx};
                makeAdvancedSubtensor1()->inferTypes(in);
                break;
            }
            case 6: {
                const Type f = Type::scalar(DType::Float64), n = Type::none();
                const Type* in[] = {&f, &n, &n};
                makeMakeSlice()->inferTypes(in);
                break;
            }
            }
        } catch (const OpTypeError& ex) {
            e = ex.what();
        }
        QVERIFY2(QString::fromStdString(e).contains(message), e.c_str());
    }

    void makeSliceValues() {
        // MakeSlice(1, None, -2): the bounds given, None where absent.
        NDArray none = noneValue();
        const NDArray out = perform(*makeMakeSlice(), {i64(1), none, i64(-2)})[0];
        auto b = readSliceValue(out);
        QVERIFY(b.has_value());
        QCOMPARE(*b, (SliceBounds{1, std::nullopt, -2}));
        QCOMPARE(QString::fromStdString(sliceBoundsText(*b)), QString("1, None, -2"));
        // An int64 (2, 3) array that looks like a slice is still an integer index.
        const NDArray lookalike = ints({2, 3}, {0, 1, 2, 1, 1, 1});
        QVERIFY(!readSliceValue(lookalike).has_value());
        QCOMPARE(take(iota(DType::Float64, {3}), {lookalike}).shape(), Shape({2, 3}));
        try {
            perform(*makeMakeSlice(), {none, none, i64(0)});
            QFAIL("a zero step must be refused");
        } catch (const ExecError& e) {
            QVERIFY(QString(e.what()).contains("step cannot be zero"));
        }
    }

    void namesAndParams() {
        QCOMPARE(QString::fromStdString(makeAdvancedSubtensor1()->name()), QString("AdvancedSubtensor1"));
        QCOMPARE(QString::fromStdString(makeAdvancedSubtensor()->name()), QString("AdvancedSubtensor"));
        QCOMPARE(QString::fromStdString(makeMakeSlice()->name()), QString("MakeSlice"));
        checkJsonRoundTrip(makeAdvancedSubtensor1());
        checkJsonRoundTrip(makeAdvancedSubtensor());
        checkJsonRoundTrip(makeMakeSlice());
        QVERIFY(makeAdvancedSubtensor()->viewMap().empty());  // advanced indexing copies
    }
};

TL_TEST_SUITE(TestAdvancedIndexing)
#include "tst_advanced_indexing.moc"
