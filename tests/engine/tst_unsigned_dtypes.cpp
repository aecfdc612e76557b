// uint16, uint32 and uint64: NumPy's promotion with signed integers and floats,
// arithmetic that wraps in every width, integer division by zero, the casts
// PyTensor's compiled code makes (values measured with PyTensor 2.34 on x86-64),
// sums and products in uint64, and exact printing beyond int64's range.
#include "TestSuites.h"
#include "TestSupport.h"

#include "exec/ExecContext.h"
#include "ops/Elemwise.h"
#include "ops/Reduce.h"
#include "ops/ScalarOps.h"

#include <QtTest>

#include <cmath>
#include <cstdint>
#include <limits>

using namespace tl;
using C = ScalarOpCode;

namespace {

NDArray run1(const Op& op, std::vector<NDArray> ins) {
    ExecContext ctx;
    std::vector<NDArray> outs(1);
    op.perform(ins, outs);
    return outs[0];
}

template <typename T> NDArray arrayOf(std::initializer_list<T> values) {
    NDArray a = NDArray::empty(DTypeOf<T>::value, {static_cast<int64_t>(values.size())});
    T* p = a.data<T>();
    for (T v : values) *p++ = v;
    return a;
}

template <typename T> NDArray scalarOf(T v) {
    NDArray a = NDArray::empty(DTypeOf<T>::value, {});
    a.data<T>()[0] = v;
    return a;
}

template <typename T> std::vector<T> valuesOf(const NDArray& a) {
    if (a.dtype() != DTypeOf<T>::value)
        throw std::runtime_error("dtype " + std::string(dtypeName(a.dtype())) + ", expected " +
                                 std::string(dtypeName(DTypeOf<T>::value)));
    return std::vector<T>(a.data<T>(), a.data<T>() + a.size());
}

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
constexpr uint32_t kU32Max = std::numeric_limits<uint32_t>::max();

} // namespace

class TestUnsignedDTypes : public QObject {
    Q_OBJECT
private slots:
    void promotion_data() {
        QTest::addColumn<int>("a");
        QTest::addColumn<int>("b");
        QTest::addColumn<int>("expected");
        auto row = [](const char* name, DType a, DType b, DType r) {
            QTest::newRow(name) << static_cast<int>(a) << static_cast<int>(b) << static_cast<int>(r);
        };
        row("uint16 uint32", DType::UInt16, DType::UInt32, DType::UInt32);
        row("uint8 uint64", DType::UInt8, DType::UInt64, DType::UInt64);
        row("uint16 int8", DType::UInt16, DType::Int8, DType::Int32);
        row("uint16 int32", DType::UInt16, DType::Int32, DType::Int32);
        row("uint32 int32", DType::UInt32, DType::Int32, DType::Int64);
        row("uint32 int64", DType::UInt32, DType::Int64, DType::Int64);
        row("uint64 int8", DType::UInt64, DType::Int8, DType::Float64);
        row("uint64 int64", DType::UInt64, DType::Int64, DType::Float64);
        row("uint16 float32", DType::UInt16, DType::Float32, DType::Float32);
        row("uint32 float32", DType::UInt32, DType::Float32, DType::Float64);
        row("uint64 float32", DType::UInt64, DType::Float32, DType::Float64);
        row("bool uint32", DType::Bool, DType::UInt32, DType::UInt32);
        // The eight dtypes tensorlens had before keep their rules.
        row("uint8 int8", DType::UInt8, DType::Int8, DType::Int16);
        row("int16 float32", DType::Int16, DType::Float32, DType::Float32);
        row("int32 float32", DType::Int32, DType::Float32, DType::Float64);
        row("int8 int64", DType::Int8, DType::Int64, DType::Int64);
    }
    void promotion() {
        QFETCH(int, a);
        QFETCH(int, b);
        QFETCH(int, expected);
        const auto da = static_cast<DType>(a), db = static_cast<DType>(b), r = static_cast<DType>(expected);
        QCOMPARE(dtypeName(promote(da, db)), dtypeName(r));
        QCOMPARE(dtypeName(promote(db, da)), dtypeName(r));
        const DType ins[] = {da, db};
        QCOMPARE(dtypeName(scalarOutputDType(C::Add, ins)), dtypeName(r));
    }

    void transcendentalAndReductionDTypes() {
        const DType u16[] = {DType::UInt16}, u32[] = {DType::UInt32}, u64[] = {DType::UInt64};
        QCOMPARE(dtypeName(scalarOutputDType(C::Exp, u16)), std::string_view("float32"));
        QCOMPARE(dtypeName(scalarOutputDType(C::Sqrt, u32)), std::string_view("float64"));
        QCOMPARE(dtypeName(scalarOutputDType(C::Log, u64)), std::string_view("float64"));
        QCOMPARE(dtypeName(reduceOutputDType(ReduceKind::Sum, DType::UInt16)), std::string_view("uint64"));
        QCOMPARE(dtypeName(reduceOutputDType(ReduceKind::Prod, DType::UInt32)), std::string_view("uint64"));
        QCOMPARE(dtypeName(reduceOutputDType(ReduceKind::Max, DType::UInt32)), std::string_view("uint32"));
        QVERIFY(isUnsigned(DType::UInt64) && !isUnsigned(DType::Int64) && !isSigned(DType::UInt16));
        QVERIFY(isInteger(DType::UInt32));
        QCOMPARE(dtypeSize(DType::UInt16), size_t{2});
        QCOMPARE(parseDType("uint32"), std::optional<DType>(DType::UInt32));
    }

    // Arithmetic wraps modulo 2^bits, as NumPy's and PyTensor's C code do.
    void arithmeticWraps() {
        const NDArray a16 = arrayOf<uint16_t>({65535, 300, 0});
        QCOMPARE(valuesOf<uint16_t>(run1(Elemwise(C::Mul), {a16, a16})), (std::vector<uint16_t>{1, 24464, 0}));
        QCOMPARE(valuesOf<uint16_t>(run1(Elemwise(C::Sub), {arrayOf<uint16_t>({0, 1, 5}), arrayOf<uint16_t>({1, 1, 7})})),
                 (std::vector<uint16_t>{65535, 0, 65534}));
        const NDArray a32 = arrayOf<uint32_t>({kU32Max, 2147483648u, 7});
        QCOMPARE(valuesOf<uint32_t>(run1(Elemwise(C::Add), {a32, arrayOf<uint32_t>({1, 2147483648u, 1})})),
                 (std::vector<uint32_t>{0, 0, 8}));
        QCOMPARE(valuesOf<uint32_t>(run1(Elemwise(C::Neg), {a32})), (std::vector<uint32_t>{1, 2147483648u, kU32Max - 6}));
        QCOMPARE(valuesOf<uint32_t>(run1(Elemwise(C::Abs), {a32})), valuesOf<uint32_t>(a32));
        QCOMPARE(valuesOf<uint32_t>(run1(Elemwise(C::Sign), {arrayOf<uint32_t>({0, 5, kU32Max})})),
                 (std::vector<uint32_t>{0, 1, 1}));
        const NDArray a64 = arrayOf<uint64_t>({kU64Max, 12345678901234567890ull, 3});
        QCOMPARE(valuesOf<uint64_t>(run1(Elemwise(C::Mul), {a64, arrayOf<uint64_t>({3, 1, 5})})),
                 (std::vector<uint64_t>{kU64Max - 2, 12345678901234567890ull, 15}));
        QCOMPARE(valuesOf<uint64_t>(run1(Elemwise(C::Pow), {arrayOf<uint64_t>({2, 3, 10}), arrayOf<uint64_t>({64, 2, 19})})),
                 (std::vector<uint64_t>{0, 9, 10000000000000000000ull}));
        QCOMPARE(valuesOf<uint64_t>(run1(Elemwise(C::Invert), {arrayOf<uint64_t>({0, kU64Max})})),
                 (std::vector<uint64_t>{kU64Max, 0}));
        // Comparisons see the full unsigned range, above int64's maximum too.
        QCOMPARE(valuesOf<bool>(run1(Elemwise(C::Gt), {a64, arrayOf<uint64_t>({9223372036854775807ull, 1, 3})})),
                 (std::vector<bool>{true, true, false}));
    }

    // NumPy's integer division: x // 0 and x % 0 are 0; unsigned needs no floor shift.
    void divisionAndRemainder() {
        const NDArray x = arrayOf<uint32_t>({kU32Max, 7, 9, 0});
        const NDArray y = arrayOf<uint32_t>({2, 0, 4, 3});
        QCOMPARE(valuesOf<uint32_t>(run1(Elemwise(C::IntDiv), {x, y})), (std::vector<uint32_t>{2147483647u, 0, 2, 0}));
        QCOMPARE(valuesOf<uint32_t>(run1(Elemwise(C::Mod), {x, y})), (std::vector<uint32_t>{1, 0, 1, 0}));
        const NDArray big = arrayOf<uint64_t>({kU64Max, 10000000000000000000ull});
        QCOMPARE(valuesOf<uint64_t>(run1(Elemwise(C::IntDiv), {big, arrayOf<uint64_t>({10, 3})})),
                 (std::vector<uint64_t>{1844674407370955161ull, 3333333333333333333ull}));
        QCOMPARE(valuesOf<double>(run1(Elemwise(C::TrueDiv), {arrayOf<uint32_t>({3, kU32Max}), arrayOf<uint32_t>({2, 1})})),
                 (std::vector<double>{1.5, 4294967295.0}));
    }

    // float64 -> unsigned as PyTensor's compiled Cast gives it on x86-64 (AVX-512): 8- and
    // 16-bit through int32; 32- and 64-bit the truncation when it fits, else all ones.
    void castsFromFloats() {
        const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
        const NDArray v = arrayOf<double>({-1.0, -1.5, 3e9, 5e9, 7e4, 1e19, 2e19, -1e19, nan, inf, -inf,
                                           9223372036854775808.0, 18446744073709549568.0, -0.5, 2.9});
        QCOMPARE(valuesOf<uint16_t>(run1(Elemwise(C::Cast, DType::UInt16), {v})),
                 (std::vector<uint16_t>{65535, 65535, 0, 0, 4464, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2}));
        QCOMPARE(valuesOf<uint32_t>(run1(Elemwise(C::Cast, DType::UInt32), {v})),
                 (std::vector<uint32_t>{kU32Max, kU32Max, 3000000000u, kU32Max, 70000, kU32Max, kU32Max, kU32Max, kU32Max,
                                        kU32Max, kU32Max, kU32Max, kU32Max, 0, 2}));
        QCOMPARE(valuesOf<uint64_t>(run1(Elemwise(C::Cast, DType::UInt64), {v})),
                 (std::vector<uint64_t>{kU64Max, kU64Max, 3000000000u, 5000000000u, 70000, 10000000000000000000ull, kU64Max,
                                        kU64Max, kU64Max, kU64Max, kU64Max, 9223372036854775808ull, 18446744073709549568ull,
                                        0, 2}));
        // float32 inputs take the same path.
        QCOMPARE(valuesOf<uint32_t>(run1(Elemwise(C::Cast, DType::UInt32), {arrayOf<float>({3e9f, -2.0f, 65535.9f})})),
                 (std::vector<uint32_t>{3000000000u, kU32Max, 65535}));
    }

    // Between integers a cast keeps the low bits (two's complement), as in C.
    void castsBetweenIntegers() {
        QCOMPARE(valuesOf<uint32_t>(run1(Elemwise(C::Cast, DType::UInt32), {arrayOf<int32_t>({-1, -2147483647 - 1, 5})})),
                 (std::vector<uint32_t>{kU32Max, 2147483648u, 5}));
        QCOMPARE(valuesOf<int64_t>(run1(Elemwise(C::Cast, DType::Int64), {arrayOf<uint64_t>({kU64Max, 9223372036854775808ull})})),
                 (std::vector<int64_t>{-1, std::numeric_limits<int64_t>::min()}));
        QCOMPARE(valuesOf<uint16_t>(run1(Elemwise(C::Cast, DType::UInt16), {arrayOf<uint32_t>({70000, kU32Max})})),
                 (std::vector<uint16_t>{4464, 65535}));
        QCOMPARE(valuesOf<double>(run1(Elemwise(C::Cast, DType::Float64), {arrayOf<uint64_t>({kU64Max})})),
                 (std::vector<double>{18446744073709551616.0}));
    }

    // Sums and products of unsigned ints answer in uint64, exactly, wrapping past 2^64.
    void sumsAndProductsInUint64() {
        const NDArray a = arrayOf<uint16_t>({65535, 65535, 65535, 2});
        const NDArray sum = run1(*makeReduce(ReduceKind::Sum, std::nullopt), {a});
        QCOMPARE(valuesOf<uint64_t>(sum), (std::vector<uint64_t>{196607}));
        const NDArray prod = run1(*makeReduce(ReduceKind::Prod, std::nullopt), {a});
        QCOMPARE(valuesOf<uint64_t>(prod), (std::vector<uint64_t>{562924184010750ull}));  // 65535^3 * 2
        const NDArray wide = arrayOf<uint64_t>({kU64Max, 2, 10000000000000000000ull});
        QCOMPARE(valuesOf<uint64_t>(run1(*makeReduce(ReduceKind::Sum, std::nullopt), {wide})),
                 (std::vector<uint64_t>{10000000000000000000ull + 1}));
        QCOMPARE(valuesOf<uint64_t>(run1(*makeReduce(ReduceKind::Max, std::nullopt), {wide})), (std::vector<uint64_t>{kU64Max}));
        QCOMPARE(valuesOf<uint64_t>(run1(*makeReduce(ReduceKind::Min, std::nullopt), {wide})), (std::vector<uint64_t>{2}));
    }

    void printedExactly() {
        QCOMPARE(formatScalarLiteral(scalarOf<uint64_t>(kU64Max)), std::string("18446744073709551615"));
        QCOMPARE(formatScalarLiteral(scalarOf<uint16_t>(65535)), std::string("65535"));
        QCOMPARE(formatScalarLiteral(scalarOf<uint8_t>(200)), std::string("200"));
    }
};

TL_TEST_SUITE(TestUnsignedDTypes)
#include "tst_unsigned_dtypes.moc"
