// ArgSortOp's order among equal keys against NumPy 1.24's own (tests/data/
// argsort_reference.json, made by tests/data/make_argsort_reference.py): the unstable
// kinds 'quicksort' and 'heapsort' list ties as NumPy's introsort and heapsort leave
// them, for integers, floats with NaN and -0.0, sorted and reversed runs, from 17 to
// 2,000 elements; the stable kinds keep ties in place.
#include "TestSuites.h"
#include "LinalgTestUtil.h"
#include "TestSupport.h"

#include "ops/Sort.h"

#include <QtTest>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

using namespace tl;
using namespace tl::test;

namespace {

const nlohmann::json& reference() {
    static const nlohmann::json doc = [] {
        std::ifstream in(sourcePath("tests/data/argsort_reference.json"));
        if (!in) throw std::runtime_error("tests/data/argsort_reference.json is missing");
        return nlohmann::json::parse(in);
    }();
    return doc;
}

NDArray keysOf(const nlohmann::json& c) {
    std::vector<double> v;
    for (const auto& x : c["data"]) v.push_back(x.is_null() ? NAN : x.get<double>());
    return NDArray::fromVector(*parseDType(c["dtype"].get<std::string>()), {static_cast<int64_t>(v.size())}, v);
}

std::vector<int64_t> argsort(const NDArray& x, const std::string& kind) {
    const NDArray o = runNode(makeArgSort(kind), {x, NDArray::scalar(DType::Int64, 0)})[0];
    std::vector<int64_t> r;
    for (int64_t i = 0; i < o.size(); ++i) r.push_back(o.data<int64_t>()[i]);
    return r;
}

} // namespace

class TestArgsortTies : public QObject {
    Q_OBJECT
private slots:
    void numpyOrder_data() {
        QTest::addColumn<int>("index");
        const auto& cases = reference()["cases"];
        for (size_t i = 0; i < cases.size(); ++i) QTest::newRow(cases[i]["name"].get<std::string>().c_str()) << static_cast<int>(i);
    }
    void numpyOrder() {
        QFETCH(int, index);
        const auto& c = reference()["cases"][static_cast<size_t>(index)];
        const std::vector<int64_t> want = c["order"].get<std::vector<int64_t>>();
        const std::vector<int64_t> got = argsort(keysOf(c), c["kind"].get<std::string>());
        QCOMPARE(got.size(), want.size());
        for (size_t i = 0; i < want.size(); ++i)
            if (got[i] != want[i]) QFAIL(qPrintable(QString("position %1: %2, NumPy %3").arg(i).arg(got[i]).arg(want[i])));
    }

    // 'stable' and 'mergesort' keep equal keys in their original order.
    void stableKinds() {
        for (const char* kind : {"stable", "mergesort"}) {
            const auto& c = reference()["cases"][0];
            const NDArray x = keysOf(c);
            const std::vector<int64_t> got = argsort(x, kind);
            for (size_t i = 1; i < got.size(); ++i) {
                const double a = x.flatGet(got[i - 1]), b = x.flatGet(got[i]);
                QVERIFY(a < b || (a == b && got[i - 1] < got[i]));
            }
        }
    }
};

TL_TEST_SUITE(TestArgsortTies)
#include "tst_argsort_ties.moc"
