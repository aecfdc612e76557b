// Values as `tensorlens run --inputs` reads them and `--json` writes them
// (io/JsonValues.h): every dtype's elements exactly, int64 beyond 2^53 included,
// and a value its input's dtype cannot hold refused, naming its place.
#include "TestSuites.h"
#include "TestSupport.h"
#include "io/JsonValues.h"

#include <QtTest>

#include <cmath>
#include <cstdint>
#include <limits>

using namespace tl;
using nlohmann::json;

class TestJsonValues : public QObject {
    Q_OBJECT
private slots:
    // 2^63 - 1 and -(2^63 - 1) are not doubles: read through one they became -2^63.
    void int64BeyondDoublesIsExactBothWays() {
        constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
        const json in = json::parse(R"({"dtype": "int64", "shape": [3], "data": [9223372036854775807, -9223372036854775807, 9007199254740993]})");
        const NDArray a = arrayFromJson(in, Type::tensor(DType::Int64, {3}), "/k");
        QCOMPARE(a.data<int64_t>()[0], kMax);
        QCOMPARE(a.data<int64_t>()[1], -kMax);
        QCOMPARE(a.data<int64_t>()[2], int64_t{9007199254740993});  // 2^53 + 1
        const json out = arrayToJson(a);
        QCOMPARE(out["data"][0].get<int64_t>(), kMax);
        QCOMPARE(out["data"][1].get<int64_t>(), -kMax);
        QCOMPARE(out["data"][2].get<int64_t>(), int64_t{9007199254740993});
        QCOMPARE(out["dtype"].get<std::string>(), std::string("int64"));
    }

    // uint64 beyond int64's range reads and writes exactly; the largest uint32 too.
    void uint64BeyondInt64IsExactBothWays() {
        constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
        const json in = json::parse(R"({"dtype": "uint64", "shape": [3], "data": [18446744073709551615, 9223372036854775809, 0]})");
        const NDArray a = arrayFromJson(in, Type::tensor(DType::UInt64, {3}), "/u");
        QCOMPARE(a.data<uint64_t>()[0], kMax);
        QCOMPARE(a.data<uint64_t>()[1], uint64_t{9223372036854775809ull});
        const json out = arrayToJson(a);
        QCOMPARE(out["data"][0].get<uint64_t>(), kMax);
        QCOMPARE(out["data"][1].get<uint64_t>(), uint64_t{9223372036854775809ull});
        QCOMPARE(out["dtype"].get<std::string>(), std::string("uint64"));
        const NDArray b = arrayFromJson(json::parse("[4294967295, 0]"), Type::tensor(DType::UInt32, {2}), "/v");
        QCOMPARE(b.data<uint32_t>()[0], uint32_t{4294967295u});
    }

    // Nested lists keep their shape; floats keep NaN, infinities and signed zeros;
    // a float32 is written as the shortest decimal that reads back as itself.
    void nestedFloatsAndSpecialValues() {
        const json in = json::parse(R"([[0.1, "nan"], ["-inf", -0.0]])");
        const NDArray a = arrayFromJson(in, Type::tensor(DType::Float32, {2, 2}), "/x");
        QCOMPARE(a.shape(), (Shape{2, 2}));
        QVERIFY(std::isnan(a.data<float>()[1]));
        QCOMPARE(a.data<float>()[2], -std::numeric_limits<float>::infinity());
        QVERIFY(std::signbit(a.data<float>()[3]));
        const json out = arrayToJson(a);
        QCOMPARE(out["data"][0][0].get<double>(), 0.1);
        QCOMPARE(out["data"][0][1].get<std::string>(), std::string("nan"));
        QCOMPARE(out["data"][1][0].get<std::string>(), std::string("-inf"));
        QVERIFY(std::signbit(out["data"][1][1].get<double>()));
        QCOMPARE(out["shape"], json::parse("[2, 2]"));
    }

    // What the dtype cannot hold is an error naming the element, not a value rounded
    // or wrapped into range.
    void valuesTheDTypeCannotHoldAreRefused_data() {
        QTest::addColumn<QString>("value");
        QTest::addColumn<int>("dtype");
        QTest::addColumn<QString>("place");
        QTest::newRow("a fraction for int64") << R"([1, 2.5])" << static_cast<int>(DType::Int64) << "/k/1";
        QTest::newRow("300 for uint8") << R"({"dtype": "uint8", "shape": [2], "data": [7, 300]})" << static_cast<int>(DType::UInt8)
                                       << "/k/data/1";
        QTest::newRow("-1 for uint64") << R"([5, -1])" << static_cast<int>(DType::UInt64) << "/k/1";
        QTest::newRow("2^32 for uint32") << R"([4294967296])" << static_cast<int>(DType::UInt32) << "/k/0";
        QTest::newRow("2^64 for uint64") << R"([18446744073709551616])" << static_cast<int>(DType::UInt64) << "/k/0";
        QTest::newRow("2^63 for int64") << R"([9223372036854775808])" << static_cast<int>(DType::Int64) << "/k/0";
        QTest::newRow("a word for float64") << R"([1.0, "many"])" << static_cast<int>(DType::Float64) << "/k/1";
    }
    void valuesTheDTypeCannotHoldAreRefused() {
        QFETCH(QString, value);
        QFETCH(int, dtype);
        QFETCH(QString, place);
        const json in = json::parse(value.toStdString());
        const auto d = static_cast<DType>(dtype);
        try {
            arrayFromJson(in, Type::tensor(d, {kUnknownDim}), "/k");
            QFAIL("accepted");
        } catch (const ValueError& e) {
            QVERIFY2(QString(e.what()).contains(place), e.what());
        }
    }
};

TL_TEST_SUITE(TestJsonValues)
#include "tst_json_values.moc"
