// AdvancedIncSubtensor1 and AdvancedIncSubtensor: np.add.at for inc (repeated indices
// accumulate), the last write for set, x[idx] += y for ignore_duplicates, on every
// dtype (bool inc is or, integers wrap), y broadcast and cast, masks and slices, the
// inplace forms writing into x's storage (a view of x sees it), errors, names, params.
#include "TestSuites.h"
#include "ShapeOpsTestUtil.h"
#include "TestSupport.h"

#include "ir/SliceValue.h"
#include "ops/AdvancedIncSubtensor.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

constexpr DType kAllDTypes[] = {DType::Bool,  DType::Int8,    DType::Int16,  DType::Int32,
                                DType::Int64, DType::UInt8, DType::Float32, DType::Float64};

NDArray doubles(const Shape& shape, const std::vector<double>& v) { return NDArray::fromVector(DType::Float64, shape, v); }

QString joined(const NDArray& a) {
    QStringList s;
    for (double v : a.toDoubles()) s << QString::number(v);
    return s.join(',');
}

NDArray inc1(const NDArray& x, const NDArray& y, const NDArray& idx, bool set, bool inplace = false) {
    return perform(*makeAdvancedIncSubtensor1(inplace, set), {x, y, idx})[0];
}

NDArray incN(const NDArray& x, const NDArray& y, std::vector<NDArray> idx, bool set, bool nodup = false, bool inplace = false) {
    std::vector<NDArray> in{x, y};
    in.insert(in.end(), idx.begin(), idx.end());
    return perform(*makeAdvancedIncSubtensor(inplace, set, nodup), in)[0];
}

} // namespace

class TestAdvancedIncSubtensor : public QObject {
    Q_OBJECT
private slots:
    void repeatedIndices_data() {
        // x = 0..7, idx = [1, 3, 1, 0, 3, 2], y = 1..6.
        QTest::addColumn<int>("mode");
        QTest::addColumn<QString>("expected");
        QTest::newRow("inc accumulates as np.add.at") << 0 << "4,5,8,10,4,5,6,7";
        QTest::newRow("set: the last write wins") << 1 << "4,3,6,5,4,5,6,7";
        QTest::newRow("ignore_duplicates: x[idx] += y") << 2 << "4,4,8,8,4,5,6,7";
    }
    void repeatedIndices() {
        QFETCH(int, mode);
        QFETCH(QString, expected);
        const NDArray x = iota(DType::Float64, {8}), y = iota(DType::Float64, {6}, 1), idx = int64s({1, 3, 1, 0, 3, 2});
        const NDArray viaN = incN(x, y, {idx}, mode == 1, mode == 2);
        QCOMPARE(joined(viaN), expected);
        if (mode != 2) QCOMPARE(joined(inc1(x, y, idx, mode == 1)), expected);
        QCOMPARE(joined(x), QString("0,1,2,3,4,5,6,7"));  // not inplace: x unchanged
    }

    void everyDType() {
        for (DType d : kAllDTypes) {
            const NDArray x = iota(d, {4}), y = NDArray::fromVector(d, {3}, {1, 1, 1});
            const NDArray out = inc1(x, y, int64s({0, 2, 0}), false);
            QCOMPARE(out.dtype(), d);
            std::vector<double> want;
            if (d == DType::Bool) want = {1, 1, 1, 1};  // add on bool is or
            else want = {2, 1, 3, 3};
            QCOMPARE(out.toDoubles(), want);
            const NDArray s = inc1(x, NDArray::fromVector(d, {2}, {1, 0}), int64s({3, 1}), true);
            QCOMPARE(s.flatGet(3), 1.0);
            QCOMPARE(s.flatGet(1), 0.0);
        }
    }

    void integersWrap() {
        const NDArray x = NDArray::fromVector(DType::Int8, {2}, {127, -128});
        const NDArray out = inc1(x, NDArray::fromVector(DType::Int8, {2}, {1, -1}), int64s({0, 1}), false);
        QCOMPARE(out.toDoubles(), std::vector<double>({-128, 127}));
        const NDArray u = inc1(NDArray::fromVector(DType::UInt8, {1}, {250}), NDArray::fromVector(DType::UInt8, {2}, {5, 5}),
                               int64s({0, 0}), false);
        QCOMPARE(u.toDoubles(), std::vector<double>({4}));
    }

    void valueBroadcastAndCast() {
        // M (3, 4) with rows [2, 0, 2] += [1, 2, 3, 4] (a row broadcast) and += 1.5 cast to int.
        const NDArray M = NDArray::zeros(DType::Float64, {3, 4});
        const NDArray out = inc1(M, doubles({4}, {1, 2, 3, 4}), int64s({2, 0, 2}), false);
        QCOMPARE(joined(out), QString("1,2,3,4,0,0,0,0,2,4,6,8"));
        const NDArray i = inc1(NDArray::zeros(DType::Int64, {3}), doubles({}, {1.5}), int64s({1}), false);
        QCOMPARE(i.toDoubles(), std::vector<double>({0, 1, 0}));
        // A value with a leading length-1 dim still fits (NumPy drops it).
        const NDArray lead = incN(NDArray::zeros(DType::Float64, {4}), doubles({1, 2}, {5, 6}), {int64s({3, 0})}, true);
        QCOMPARE(joined(lead), QString("6,0,0,5"));
    }

    void masksAndSlices() {
        // set_subtensor(x[x < 0], 0.0)
        const NDArray x = doubles({5}, {-1, 2, -3, 4, 0});
        const NDArray mask = NDArray::fromVector(DType::Bool, {5}, {1, 0, 1, 0, 0});
        QCOMPARE(joined(incN(x, doubles({}, {0}), {mask}, true)), QString("0,2,0,4,0"));
        // inc_subtensor(M[[1, 1, 2], 1:], 1.0): rows accumulate over the slice's columns.
        const NDArray M = NDArray::zeros(DType::Float64, {3, 3});
        QCOMPARE(joined(incN(M, doubles({}, {1}), {int64s({1, 1, 2}), sliceValue({1, std::nullopt, std::nullopt})}, false)),
                 QString("0,0,0,0,2,2,0,1,1"));
        // Element pairs with a repeat: M[[0, 0, 2], [1, 1, 0]] += [1, 2, 3].
        QCOMPARE(joined(incN(M, doubles({3}, {1, 2, 3}), {int64s({0, 0, 2}), int64s({1, 1, 0})}, false)),
                 QString("0,3,0,0,0,0,3,0,0"));
    }

    void inplaceWritesIntoX() {
        const NDArray x = iota(DType::Float64, {6});
        const NDArray view = x.view({3}, {2}, 0);  // x[::2]
        const NDArray out = inc1(x, doubles({}, {10}), int64s({0, 4}), false, true);
        QVERIFY(out.sharesStorageWith(x));
        QCOMPARE(joined(view), QString("10,2,14"));
        const NDArray y = iota(DType::Float64, {3});
        const NDArray out2 = incN(y, doubles({}, {-1}), {int64s({2})}, true, false, true);
        QVERIFY(out2.sharesStorageWith(y));
        QCOMPARE(joined(y), QString("0,1,-1"));
        QCOMPARE(makeAdvancedIncSubtensor1(true, false)->destroyMap(), (AliasMap{{0, {0}}}));
        QCOMPARE(makeAdvancedIncSubtensor(true, true)->destroyMap(), (AliasMap{{0, {0}}}));
        QVERIFY(makeAdvancedIncSubtensor(false, true)->destroyMap().empty());
    }

    void valueAliasingX() {
        // x[[1, 2]] = x[[0, 1]] written into x itself: the value is read before any write.
        const NDArray x = iota(DType::Float64, {3});
        const NDArray y = x.view({2}, {1}, 0);
        inc1(x, y, int64s({1, 2}), true, true);
        QCOMPARE(joined(x), QString("0,0,1"));
    }

    void errors_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("message");
        QTest::newRow("index past the end") << 0 << "index 5 is out of bounds for axis 0 with size 4";
        QTest::newRow("value does not broadcast") << 1 << "value of shape (3,) into region";
        QTest::newRow("value of more dims") << 2 << "does not fit the indexed region";
    }
    void errors() {
        QFETCH(int, which);
        QFETCH(QString, message);
        std::string e = "no error";
        try {
            const NDArray x = NDArray::zeros(DType::Float64, {4});
            if (which == 0) inc1(x, doubles({}, {1}), int64s({5}), false);
            if (which == 1) inc1(x, doubles({3}, {1, 2, 3}), int64s({0, 1}), false);
            if (which == 2) incN(x, doubles({2, 2}, {1, 2, 3, 4}), {int64s({0, 1})}, true);
        } catch (const ExecError& ex) {
            e = ex.what();
        }
        QVERIFY2(QString::fromStdString(e).contains(message), e.c_str());
    }

    void typesNamesParams() {
        QCOMPARE(QString::fromStdString(makeAdvancedIncSubtensor1(false, false)->name()), QString("AdvancedIncSubtensor1{no_inplace,inc}"));
        QCOMPARE(QString::fromStdString(makeAdvancedIncSubtensor1(true, true)->name()), QString("AdvancedIncSubtensor1{inplace,set}"));
        QCOMPARE(QString::fromStdString(makeAdvancedIncSubtensor(false, false)->name()), QString("AdvancedIncSubtensor"));
        QCOMPARE(QString::fromStdString(makeAdvancedIncSubtensor(true, true)->name()), QString("AdvancedSetSubtensor"));
        for (bool a : {false, true})
            for (bool b : {false, true}) {
                checkJsonRoundTrip(makeAdvancedIncSubtensor1(a, b));
                checkJsonRoundTrip(makeAdvancedIncSubtensor(a, b, !a));
            }
        // The exporter writes the destroy_map beside the flags; it must agree.
        QVERIFY(makeOp(OpKind::AdvancedIncSubtensor1,
                       nlohmann::json::parse(R"({"inplace": true, "set_instead_of_inc": false, "destroy_map": {"0": [0]}})"), nullptr));
        try {
            makeOp(OpKind::AdvancedIncSubtensor1,
                   nlohmann::json::parse(R"({"inplace": false, "set_instead_of_inc": false, "destroy_map": {"0": [0]}})"), nullptr);
            QFAIL("a destroy_map that contradicts inplace must be refused");
        } catch (const std::invalid_argument& e) {
            QVERIFY(QString(e.what()).contains("does not match"));
        }
        const Type x = Type::tensor(DType::Float64, {5, 4}), y = Type::tensor(DType::Float64, {2, 2, 2}),
                   i = Type::tensor(DType::Int64, {3});
        const Type* in[] = {&x, &y, &i};
        try {
            makeAdvancedIncSubtensor1(false, false)->inferTypes(in);
            QFAIL("a value of more dims than x must be refused");
        } catch (const OpTypeError& e) {
            QVERIFY(QString(e.what()).contains("cannot increment x subtensor with ndim=2 by y with ndim=3"));
        }
        const Type y2 = Type::tensor(DType::Float64, {4});
        const Type* ok[] = {&x, &y2, &i};
        QCOMPARE(makeAdvancedIncSubtensor1(false, false)->inferTypes(ok).at(0), x);
    }
};

TL_TEST_SUITE(TestAdvancedIncSubtensor)
#include "tst_advanced_inc_subtensor.moc"
