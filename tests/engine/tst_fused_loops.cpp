// The block loops that do two things at once give the bits the separate loops
// give: paired arithmetic instructions of a ScalarProgram (ops/FusedArithmetic.h)
// against the same expression evaluated one op at a time, the product fold of a
// fused sum (FoldKernels::allProducts) against mapping into an array and summing
// it, and exp's and tanh's argument-only band test (ops/VectorMathLoops.h) at and
// beyond the ends of their intervals against the C library.
#include "TestSuites.h"
#include "TestSupport.h"

#include "builder/Math.h"
#include "exec/Executor.h"
#include "ops/Composite.h"
#include "ops/Elemwise.h"
#include "ops/Reduce.h"
#include "ops/ScalarProgram.h"
#include "ops/VectorMath.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

using namespace tl;
using namespace tl::test;

namespace {

using Build = std::function<Var(GraphBuilder&, Var, Var, Var)>;

// Ordinary values, and the ones whose arithmetic is special: ±0, ±inf, NaN, subnormals, huge.
template <typename T> NDArray operand(DType dtype, int salt) {
    const T specials[] = {T(0), -T(0), std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(),
                          std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::denorm_min(),
                          std::numeric_limits<T>::max(), -std::numeric_limits<T>::min(), T(1), T(-3)};
    constexpr int64_t n = 1000;  // several blocks and a ragged one
    NDArray a = NDArray::empty(dtype, {n});
    T* p = a.data<T>();
    uint64_t s = 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(salt);
    for (int64_t i = 0; i < n; ++i) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        p[i] = i % 7 == 0 ? specials[(i / 7 + salt) % 10] : T(-4.0 + 8.0 * (static_cast<double>(s >> 11) * 0x1.0p-53));
    }
    return a;
}

// The Composite of `build` over three scalar inputs of `dtype`.
std::shared_ptr<const Composite> compositeOf(DType dtype, const Build& build) {
    GraphBuilder b;
    Var a = b.placeholder(Type::scalar(dtype)), c = b.placeholder(Type::scalar(dtype)), d = b.placeholder(Type::scalar(dtype));
    return std::make_shared<const Composite>(*b.finish({build(b, a, c, d)}));
}

// The same expression as a graph of one Elemwise per op (each its own one-op program).
NDArray opByOp(DType dtype, const Build& build, const std::vector<NDArray>& ins) {
    GraphBuilder b;
    Var a = b.input("a", dtype, {ins[0].dim(0)}), c = b.input("b", dtype, {ins[0].dim(0)}), d = b.input("c", dtype, {ins[0].dim(0)});
    auto g = b.finish({build(b, a, c, d)});
    return runGraph(*g, ins).outputs.at(0);
}

// Equal bits, except that a NaN only has to be a NaN: which operand's payload an
// x86 add or mul passes on depends on the operand order the compiler picked for
// that loop (inf - inf makes the negative default NaN, the inputs hold positive ones).
bool sameBits(const NDArray& a, const NDArray& b) {
    if (a.dtype() != b.dtype() || a.size() != b.size()) return false;
    const size_t width = dtypeSize(a.dtype());
    const auto* pa = static_cast<const char*>(a.rawData());
    const auto* pb = static_cast<const char*>(b.rawData());
    for (int64_t i = 0; i < a.size(); ++i) {
        if (std::isnan(a.flatGet(i)) && std::isnan(b.flatGet(i))) continue;
        if (std::memcmp(pa + i * width, pb + i * width, width) != 0) return false;
    }
    return true;
}

} // namespace

class TestFusedLoops : public QObject {
    Q_OBJECT
private slots:
    void pairedArithmeticGivesTheSeparateLoopsBits_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<int>("instructions");  // in float64, after pairing
        QTest::newRow("(a*b)+c") << 0 << 1;
        QTest::newRow("c-(a*b)") << 1 << 1;
        QTest::newRow("(a+b)*c") << 2 << 1;
        QTest::newRow("c*(a-b)") << 3 << 1;
        QTest::newRow("a+b+c (variadic, folded left to right)") << 4 << 1;
        // exp and tanh: one paired call (tst_vector_math_pairs); the arithmetic in two loops.
        QTest::newRow("2*exp(a)+tanh(b)-a*b") << 5 << 3;
        // Negative: p = a*b is read twice, so it stays its own loop; p*c pairs with the add.
        QTest::newRow("p+p*c, shared product") << 6 << 2;
    }
    void pairedArithmeticGivesTheSeparateLoopsBits() {
        QFETCH(int, which);
        QFETCH(int, instructions);
        const Build builds[] = {
            [](GraphBuilder&, Var a, Var b, Var c) { return a * b + c; },
            [](GraphBuilder&, Var a, Var b, Var c) { return c - a * b; },
            [](GraphBuilder&, Var a, Var b, Var c) { return (a + b) * c; },
            [](GraphBuilder&, Var a, Var b, Var c) { return c * (a - b); },
            [](GraphBuilder&, Var a, Var b, Var c) { return add({a, b, c}); },
            [](GraphBuilder&, Var a, Var b, Var) { return 2.0 * exp(a) + tanh(b) - a * b; },
            [](GraphBuilder&, Var a, Var b, Var c) {
                Var p = a * b;
                return p + p * c;
            },
        };
        for (DType dtype : {DType::Float64, DType::Float32}) {
            const Build& build = builds[which];
            auto composite = compositeOf(dtype, build);
            // (float32 upcasts the literal 2.0, which adds conversions.)
            if (dtype == DType::Float64) QCOMPARE(composite->program().numInstructions(), static_cast<size_t>(instructions));
            std::vector<NDArray> ins = dtype == DType::Float64
                                           ? std::vector<NDArray>{operand<double>(dtype, 1), operand<double>(dtype, 2), operand<double>(dtype, 3)}
                                           : std::vector<NDArray>{operand<float>(dtype, 1), operand<float>(dtype, 2), operand<float>(dtype, 3)};
            const NDArray fused = composite->program().evaluate(ins).at(0);
            const NDArray separate = opByOp(dtype, build, ins);
            QVERIFY2(sameBits(fused, separate), std::string(dtypeName(dtype)).c_str());
        }
    }

    // sum(exp(x) * y) as one CAReduce of op(i0, e) folds the products as it adds;
    // summing the mapped array gives the same lanes in the same order.
    void productFoldGivesTheBitsOfMappingThenSumming_data() {
        QTest::addColumn<bool>("endsInProduct");
        QTest::newRow("exp(x) * y") << true;
        QTest::newRow("exp(x) + y (no product to fold)") << false;
    }
    void productFoldGivesTheBitsOfMappingThenSumming() {
        QFETCH(bool, endsInProduct);
        const Build mapBuild = endsInProduct ? Build([](GraphBuilder&, Var x, Var y, Var) { return exp(x) * y; })
                                             : Build([](GraphBuilder&, Var x, Var y, Var) { return exp(x) + y; });
        // The reduction's Composite: acc + map(x, y).
        GraphBuilder sb;
        Var acc = sb.placeholder(Type::scalar(DType::Float64)), x = sb.placeholder(Type::scalar(DType::Float64)),
            y = sb.placeholder(Type::scalar(DType::Float64));
        auto foldComposite = std::make_shared<const Composite>(*sb.finish({acc + mapBuild(sb, x, y, y)}));
        auto mapComposite = compositeOf(DType::Float64, mapBuild);
        QCOMPARE(mapComposite->program().endsInProduct(), endsInProduct);
        // Long enough for the fixed chunks of a long row, with a ragged end.
        const int64_t n = 200'003;
        NDArray xs = NDArray::empty(DType::Float64, {n}), ys = NDArray::empty(DType::Float64, {n});
        for (int64_t i = 0; i < n; ++i) {
            xs.data<double>()[i] = i % 1000 == 0 ? 0.0 : std::sin(0.37 * static_cast<double>(i));
            ys.data<double>()[i] = std::cos(0.11 * static_cast<double>(i));
        }
        const OpPtr fusedSum = makeCAReduce(foldComposite, std::vector<int>{0});
        const NDArray both[] = {xs, ys};
        std::vector<NDArray> fusedOut(1);
        fusedSum->perform(both, fusedOut);
        // The map alone (three inputs: y twice), then a plain sum of its array.
        const NDArray mapIns[] = {xs, ys, ys};
        std::vector<NDArray> mapped(1);
        makeCompositeElemwise(mapComposite)->perform(mapIns, mapped);
        std::vector<NDArray> plainOut(1);
        const NDArray one[] = {mapped[0]};
        makeReduce(ReduceKind::Sum, std::vector<int>{0})->perform(one, plainOut);
        QVERIFY2(sameBits(fusedOut[0], plainOut[0]), (std::to_string(fusedOut[0].item()) + " vs " +
                                                      std::to_string(plainOut[0].item())).c_str());
    }

    // Inside its interval a lane keeps SLEEF's value; at and past the ends, where
    // the argument alone no longer proves the result in band, the C library's.
    void argumentBandEndsGiveTheCLibrarysValue() {
        const double expArgs[] = {-686.0000001, -700.0, -745.2, 688.0000001, 709.7827128933840, 710.0, 0.0, -0.0,
                                  std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::min(),
                                  std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
        const double tanhArgs[] = {0x1p-991, -0x1p-1000, 0x1p-1022, std::numeric_limits<double>::denorm_min(), -0.0, 0.0,
                                   std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::max()};
        auto check = [](vmath::Fn f, const double* args, size_t count, double (*reference)(double)) {
            // Each special value among ordinary ones, in a whole vector and in a tail.
            for (size_t k = 0; k < count; ++k)
                for (int64_t at : {1, 6}) {
                    double a[7] = {0.5, 0.25, -0.75, 1.5, -1.25, 0.125, 2.0};
                    a[at] = args[k];
                    double out[7];
                    vmath::apply(f, a, out, 7);
                    const double want = reference(args[k]);
                    QVERIFY2(std::memcmp(&out[at], &want, sizeof(double)) == 0 || (std::isnan(want) && std::isnan(out[at])),
                             (std::string(vmath::fnName(f)) + "(" + std::to_string(args[k]) + ")").c_str());
                }
        };
        check(vmath::Fn::Exp, expArgs, std::size(expArgs), [](double v) { return std::exp(v); });
        check(vmath::Fn::Tanh, tanhArgs, std::size(tanhArgs), [](double v) { return std::tanh(v); });
    }
};

TL_TEST_SUITE(TestFusedLoops)
#include "tst_fused_loops.moc"
