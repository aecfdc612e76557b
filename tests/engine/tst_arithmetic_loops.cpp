// The float arithmetic loops compiled per instruction set (ops/ArithmeticLoops.h):
// every table this CPU runs gives, for add, sub, mul, true_div, maximum, minimum,
// neg, abs, sqr, the comparisons, every fused pair and the float sum folds,
// the values of the same operations written out per element (bit for bit, NaN
// payloads aside), at every length (whole vectors and tails, a full block) and on
// special values (zeros of both signs, infinities, NaN, subnormals, the largest
// finite values); the kernels the programs use are the widest table's.
#include "TestSuites.h"
#include "TestSupport.h"

#include "ops/ArithmeticLoops.h"
#include "ops/FusedArithmetic.h"
#include "ops/ReduceFold.h"
#include "ops/ScalarOps.h"
#include "ops/ScalarKernels.h"
#include "ops/VectorMath.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

using namespace tl;
using namespace tl::test;

namespace {

// The same bits, or both NaN: which operand's NaN an instruction passes on depends on
// the operand order the compiler picked for a commutative op, in the loops and in
// the written-out reference alike.
template <typename T> bool sameValue(T a, T b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0 || (std::isnan(a) && std::isnan(b));
}

// Ordinary values in [-4, 4) with a special value every 5th element.
template <typename T> std::vector<T> values(int64_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-4.0, 4.0);
    using L = std::numeric_limits<T>;
    const T specials[] = {T(0), -T(0), L::infinity(), -L::infinity(), L::quiet_NaN(), -L::quiet_NaN(), L::denorm_min(),
                          -L::denorm_min(), L::max(), L::lowest(), L::min(), T(1), T(-3)};
    constexpr size_t kSpecials = sizeof(specials) / sizeof(specials[0]);
    std::vector<T> v(static_cast<size_t>(n));
    for (size_t i = 0; i < v.size(); ++i) v[i] = i % 5 == 2 ? specials[(i / 5 + seed) % kSpecials] : static_cast<T>(u(rng));
    return v;
}

// The reference: scalar_fn's definitions, one element at a time.
template <typename T> T apply(arith::Binary op, T a, T b) {
    switch (op) {
    case arith::Binary::Add: return scalar_fn::add(a, b);
    case arith::Binary::Sub: return scalar_fn::sub(a, b);
    case arith::Binary::Mul: return scalar_fn::mul(a, b);
    case arith::Binary::TrueDiv: return scalar_fn::trueDiv(a, b);
    case arith::Binary::Maximum: return scalar_fn::maximum(a, b);
    case arith::Binary::Minimum: return scalar_fn::minimum(a, b);
    }
    return a;
}
template <typename T> T apply(arith::Unary op, T a) {
    switch (op) {
    case arith::Unary::Neg: return scalar_fn::neg(a);
    case arith::Unary::Abs: return scalar_fn::abs(a);
    case arith::Unary::Sqr: return scalar_fn::sqr(a);
    }
    return a;
}

template <typename T> bool compare(arith::Compare op, T a, T b) {
    switch (op) {
    case arith::Compare::Eq: return scalar_fn::eq(a, b);
    case arith::Compare::Neq: return scalar_fn::neq(a, b);
    case arith::Compare::Lt: return scalar_fn::lt(a, b);
    case arith::Compare::Le: return scalar_fn::le(a, b);
    case arith::Compare::Gt: return scalar_fn::gt(a, b);
    case arith::Compare::Ge: return scalar_fn::ge(a, b);
    }
    return false;
}

// Runs `fn` on n elements of a, b, c (slots 1, 2, 3) into slot 0, whose elements
// are R (Flag for a comparison).
template <typename T, typename R = T> std::vector<R> run(BlockFn fn, std::vector<T> a, std::vector<T> b, std::vector<T> c) {
    static_assert(!std::is_same_v<R, bool>, "bools travel as Flag");
    std::vector<R> out(a.size());
    void* memory[] = {out.data(), a.data(), b.data(), c.data()};
    BlockInstr in;
    in.fn = fn;
    in.dst = 0;
    in.src[0] = 1;
    in.src[1] = 2;
    in.src[2] = 3;
    fn(in, memory, static_cast<int64_t>(a.size()));
    return out;
}

const char* const kOpNames[] = {"add", "sub", "mul", "true_div", "maximum", "minimum"};
const char* const kUnaryNames[] = {"neg", "abs", "sqr"};
const char* const kCompareNames[] = {"eq", "neq", "lt", "le", "gt", "ge"};

// A bool the loops read and write (one byte), in a vector that has data().
struct Flag {
    bool value;
};
static_assert(sizeof(Flag) == sizeof(bool));

template <typename T> void checkTable(const arith::Table& table, const std::string& isa, int64_t n) {
    const int d = std::is_same_v<T, double> ? 1 : 0;
    const std::vector<T> a = values<T>(n, 1), b = values<T>(n, 2), c = values<T>(n, 3);
    auto fail = [&](const QString& what, size_t i, T got, T want) {
        QFAIL(qPrintable(QString("%1 %2 %3 n=%4 at %5: %6, written out %7")
                             .arg(QString::fromStdString(isa), what, std::is_same_v<T, double> ? "float64" : "float32")
                             .arg(n)
                             .arg(i)
                             .arg(static_cast<double>(got), 0, 'g', 17)
                             .arg(static_cast<double>(want), 0, 'g', 17)));
    };
    for (int op = 0; op < arith::kNumUnary; ++op) {
        const std::vector<T> got = run<T>(table.unary[op][d], a, b, c);
        for (size_t i = 0; i < a.size(); ++i) {
            // Bit for bit here, NaN included: these ops pass their one operand's NaN on.
            const T want = apply(static_cast<arith::Unary>(op), a[i]);
            if (std::memcmp(&got[i], &want, sizeof(T)) != 0) return fail(kUnaryNames[op], i, got[i], want);
        }
    }
    for (int op = 0; op < arith::kNumCompare; ++op) {
        const std::vector<Flag> got = run<T, Flag>(table.compare[op][d], a, b, c);
        for (size_t i = 0; i < a.size(); ++i) {
            const bool want = compare(static_cast<arith::Compare>(op), a[i], b[i]);
            if (got[i].value != want) return fail(kCompareNames[op], i, T(got[i].value), T(want));
        }
    }
    for (int op = 0; op < arith::kNumBinary; ++op) {
        const std::vector<T> got = run<T>(table.binary[op][d], a, b, c);
        for (size_t i = 0; i < a.size(); ++i) {
            const T want = apply(static_cast<arith::Binary>(op), a[i], b[i]);
            if (!sameValue(got[i], want)) return fail(kOpNames[op], i, got[i], want);
        }
    }
    for (int inner = 0; inner < arith::kNumFusable; ++inner)
        for (int outer = 0; outer < arith::kNumFusable; ++outer)
            for (int innerFirst = 0; innerFirst < 2; ++innerFirst) {
                const std::vector<T> got = run<T>(table.fused[inner][outer][innerFirst][d], a, b, c);
                for (size_t i = 0; i < a.size(); ++i) {
                    const T t = apply(static_cast<arith::Binary>(inner), a[i], b[i]);
                    const T want = innerFirst ? apply(static_cast<arith::Binary>(outer), t, c[i])
                                              : apply(static_cast<arith::Binary>(outer), c[i], t);
                    if (!sameValue(got[i], want))
                        return fail(QString("%1 in %2 (inner first: %3)").arg(kOpNames[inner], kOpNames[outer]).arg(innerFirst), i,
                                    got[i], want);
                }
            }
}

// Values whose sum depends on the order it is added in: magnitudes 1e-8 to 1e8.
template <typename T> std::vector<T> spreadValues(int64_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::uniform_int_distribution<int> e(-8, 8);
    std::vector<T> v(static_cast<size_t>(n));
    for (T& x : v) x = static_cast<T>(u(rng) * std::pow(10.0, e(rng)));
    return v;
}

// The sum folds, written out: kSumLanes lanes from +0, into the accumulator in lane
// order, then the tail.
template <typename T> T referenceSum(T acc, const std::vector<T>& a, const std::vector<T>* b) {
    T lanes[arith::kSumLanes] = {};
    size_t i = 0;
    for (; i + arith::kSumLanes <= a.size(); i += arith::kSumLanes)
        for (int l = 0; l < arith::kSumLanes; ++l) lanes[l] = scalar_fn::add(lanes[l], b ? scalar_fn::mul(a[i + l], (*b)[i + l]) : a[i + l]);
    for (T l : lanes) acc = scalar_fn::add(acc, l);
    for (; i < a.size(); ++i) acc = scalar_fn::add(acc, b ? scalar_fn::mul(a[i], (*b)[i]) : a[i]);
    return acc;
}

template <typename T> void checkSums(const arith::Table& table, const std::string& isa, int64_t n, bool specials) {
    const int d = std::is_same_v<T, double> ? 1 : 0;
    const std::vector<T> a = specials ? values<T>(n, 11) : spreadValues<T>(n, 11);
    const std::vector<T> b = specials ? values<T>(n, 12) : spreadValues<T>(n, 12);
    const T start = T(0.375);
    T sum = start, products = start;
    table.sumAll[d](&sum, a.data(), n);
    table.sumAllProducts[d](&products, a.data(), b.data(), n);
    const QString where = QString("%1, %2, n = %3").arg(QString::fromStdString(isa), sizeof(T) == 8 ? "float64" : "float32").arg(n);
    QVERIFY2(sameValue(sum, referenceSum<T>(start, a, nullptr)), qPrintable("sum: " + where));
    QVERIFY2(sameValue(products, referenceSum<T>(start, a, &b)), qPrintable("sum of products: " + where));
}

} // namespace

class TestArithmeticLoops : public QObject {
    Q_OBJECT
private slots:
    void everyTableGivesTheElementwiseBits() {
        for (const std::string& isa : vectorIsas()) {
            const arith::Table* table = arith::tableFor(isa);
            QVERIFY2(table, isa.c_str());
            for (int64_t n : {int64_t{1}, int64_t{3}, int64_t{8}, int64_t{17}, int64_t{63}, kBlockSize - 1, kBlockSize}) {
                checkTable<double>(*table, isa, n);
                checkTable<float>(*table, isa, n);
            }
        }
        QVERIFY(!arith::tableFor("neon"));
    }

    // The float sum folds give the written-out lanes' bits at every width and length:
    // a reduction gives the same sum whichever instruction set ran it.
    void everyTableGivesTheSameSums() {
        for (const std::string& isa : vectorIsas()) {
            const arith::Table* table = arith::tableFor(isa);
            QVERIFY2(table, isa.c_str());
            for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{7}, int64_t{8}, int64_t{17}, int64_t{63}, kBlockSize - 1, kBlockSize})
                for (bool specials : {false, true}) {
                    checkSums<double>(*table, isa, n, specials);
                    checkSums<float>(*table, isa, n, specials);
                }
        }
        // Reductions fold float sums with the widest table's loops; other folds stay generic.
        const arith::Table& widest = arith::table();
        QVERIFY(reduceFoldKernels(ScalarOpCode::Add, DType::Float64).all == widest.sumAll[1]);
        QVERIFY(reduceFoldKernels(ScalarOpCode::Add, DType::Float32).allProducts == widest.sumAllProducts[0]);
        QVERIFY(reduceFoldKernels(ScalarOpCode::Add, DType::Int64).allProducts == nullptr);
        QVERIFY(reduceFoldKernels(ScalarOpCode::Mul, DType::Float64).all != widest.sumAll[1]);
    }

    // Programs get the widest table's loops, for plain ops and fused pairs alike.
    void programsUseTheWidestTable() {
        const std::vector<const char*> isas = vmath::availableIsas();  // the widest first
        QVERIFY(!isas.empty());
        const arith::Table* widest = arith::tableFor(isas.front());
        QCOMPARE(&arith::table(), widest);
        QVERIFY(scalarBlockKernel(ScalarOpCode::Mul, DType::Float64) == widest->binary[static_cast<int>(arith::Binary::Mul)][1]);
        QVERIFY(scalarBlockKernel(ScalarOpCode::TrueDiv, DType::Float32) ==
                widest->binary[static_cast<int>(arith::Binary::TrueDiv)][0]);
        QVERIFY(fusedArithmeticKernel(ScalarOpCode::Mul, ScalarOpCode::Sub, false, DType::Float64) ==
                widest->fused[static_cast<int>(arith::Binary::Mul)][static_cast<int>(arith::Binary::Sub)][0][1]);
        // Other dtypes and ops keep the generic loops.
        QVERIFY(!wideArithmeticKernel(ScalarOpCode::Add, DType::Int64));
        QVERIFY(scalarBlockKernel(ScalarOpCode::Maximum, DType::Float32) == widest->binary[static_cast<int>(arith::Binary::Maximum)][0]);
        QVERIFY(scalarBlockKernel(ScalarOpCode::Abs, DType::Float64) == widest->unary[static_cast<int>(arith::Unary::Abs)][1]);
        QVERIFY(!wideArithmeticKernel(ScalarOpCode::Abs, DType::Int32));
        QVERIFY(!wideArithmeticKernel(ScalarOpCode::Mod, DType::Float64));
        QVERIFY(scalarBlockKernel(ScalarOpCode::Ge, DType::Float64) == widest->compare[static_cast<int>(arith::Compare::Ge)][1]);
        QVERIFY(!wideArithmeticKernel(ScalarOpCode::Switch, DType::Float64));
        QVERIFY(scalarBlockKernel(ScalarOpCode::Add, DType::Int64) != nullptr);
        QVERIFY(!fusedArithmeticKernel(ScalarOpCode::TrueDiv, ScalarOpCode::Add, true, DType::Float64));
    }
};

TL_TEST_SUITE(TestArithmeticLoops)
#include "tst_arithmetic_loops.moc"
