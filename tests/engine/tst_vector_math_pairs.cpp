// Two vectorised calls in one loop (vmath::applyPair, ops/VectorKernels.h) and the
// programs that use it: the pair gives each element the bits the two separate calls
// give, on every instruction set this machine runs, for every array length (full
// vectors, overlapping and padded tails) and with special values among ordinary
// ones; a compiled program pairs independent calls and computes what it computed
// unpaired.
#include "TestSuites.h"
#include "TestSupport.h"

#include "builder/GraphBuilder.h"
#include "builder/Math.h"
#include "ops/ScalarProgram.h"
#include "ops/VectorMath.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace tl;
using namespace tl::test;
using vmath::Fn;

namespace {

template <typename T> bool sameBits(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

// Arguments in [-3, 3) with a special value every 13th element: zeros, infinities,
// NaN, a subnormal, and finite values outside every function's argument band (whose
// results overflow, underflow or leave the domain).
bool isSpecialPosition(size_t i) { return i % 13 == 5; }
template <typename T> std::vector<T> arguments(int64_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-3.0, 3.0);
    using L = std::numeric_limits<T>;
    const T specials[] = {T(0),    -T(0), L::infinity(), -L::infinity(), L::quiet_NaN(), L::denorm_min(),
                          T(1),    T(-1), T(750),        T(-800),        L::max(),       -L::max()};
    constexpr size_t kSpecials = sizeof(specials) / sizeof(specials[0]);
    std::vector<T> v(static_cast<size_t>(n));
    for (size_t i = 0; i < v.size(); ++i) v[i] = isSpecialPosition(i) ? specials[(i / 13) % kSpecials] : static_cast<T>(u(rng));
    return v;
}

template <typename T> void checkPair(Fn fa, Fn fb, int64_t n) {
    const std::vector<T> a = arguments<T>(n, 1 + static_cast<uint64_t>(n)), b = arguments<T>(n, 99 + static_cast<uint64_t>(n));
    std::vector<T> pa(a.size()), pb(a.size()), sa(a.size()), sb(a.size());
    vmath::applyPair(fa, a.data(), pa.data(), fb, b.data(), pb.data(), n);
    vmath::apply(fa, a.data(), sa.data(), n);
    vmath::apply(fb, b.data(), sb.data(), n);
    // Where the argument or the C library's result is not a normal number (zeros,
    // subnormals, infinities, NaN: lanes the vector loops hand to the C library), the
    // result is the C library's, wherever in a vector the lane falls.
    auto cLibrarys = [](T arg, T got, T want) {
        if (std::isnormal(arg) && std::isnormal(want)) return true;
        return sameBits(got, want) || (std::isnan(want) && std::isnan(got));
    };
    for (size_t i = 0; i < a.size(); ++i) {
        if (!isSpecialPosition(i)) continue;
        T ra, rb;
        vmath::applyScalar(fa, &a[i], &ra, 1);
        vmath::applyScalar(fb, &b[i], &rb, 1);
        if (!cLibrarys(a[i], pa[i], ra) || !cLibrarys(b[i], pb[i], rb))
            QFAIL(qPrintable(QString("%1/%2 n=%3 [%4] at %5: arguments (%6, %7) gave (%8, %9), the C library (%10, %11)")
                                 .arg(vmath::fnName(fa))
                                 .arg(vmath::fnName(fb))
                                 .arg(n)
                                 .arg(vmath::isaName())
                                 .arg(i)
                                 .arg(static_cast<double>(a[i]), 0, 'g', 17)
                                 .arg(static_cast<double>(b[i]), 0, 'g', 17)
                                 .arg(static_cast<double>(pa[i]), 0, 'g', 17)
                                 .arg(static_cast<double>(pb[i]), 0, 'g', 17)
                                 .arg(static_cast<double>(ra), 0, 'g', 17)
                                 .arg(static_cast<double>(rb), 0, 'g', 17)));
    }
    for (size_t i = 0; i < a.size(); ++i)
        if (!sameBits(pa[i], sa[i]) || !sameBits(pb[i], sb[i]))
            QFAIL(qPrintable(QString("%1/%2 %3 n=%4 [%5] at %6: pair (%7, %8), separate (%9, %10)")
                                 .arg(vmath::fnName(fa))
                                 .arg(vmath::fnName(fb))
                                 .arg(std::is_same_v<T, float> ? "float32" : "float64")
                                 .arg(n)
                                 .arg(vmath::isaName())
                                 .arg(i)
                                 .arg(static_cast<double>(pa[i]), 0, 'g', 17)
                                 .arg(static_cast<double>(pb[i]), 0, 'g', 17)
                                 .arg(static_cast<double>(sa[i]), 0, 'g', 17)
                                 .arg(static_cast<double>(sb[i]), 0, 'g', 17)));
}

// A program's outputs against the same arithmetic on separately computed functions.
std::vector<NDArray> run(const Graph& g, const std::vector<NDArray>& ins, size_t* instructions = nullptr) {
    auto program = ScalarProgram::compile(g);
    if (instructions) *instructions = program->numInstructions();
    return program->evaluate(ins);
}

} // namespace

class TestVectorMathPairs : public QObject {
    Q_OBJECT
private slots:
    void pairGivesTheSeparateCallsBits() {
        const std::pair<Fn, Fn> pairs[] = {{Fn::Exp, Fn::Tanh},  {Fn::Log, Fn::Sin},     {Fn::Erf, Fn::Erfc},
                                           {Fn::Tanh, Fn::Tanh}, {Fn::ArcSinh, Fn::Cosh}, {Fn::Expm1, Fn::Log1p},
                                           {Fn::ArcTan, Fn::Tan}, {Fn::Sin, Fn::Exp},      {Fn::Tanh, Fn::Log}};
        for (const std::string& isa : vectorIsas()) {
            IsaScope scope(isa);
            for (auto [fa, fb] : pairs)
                for (int64_t n : {1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 256, 1001}) {
                    checkPair<double>(fa, fb, n);
                    checkPair<float>(fa, fb, n);
                }
        }
        // Switched off, the pair is the C library's, as apply() is.
        const bool previous = vmath::setVectorised(false);
        checkPair<double>(Fn::Exp, Fn::Tanh, 100);
        vmath::setVectorised(previous);
    }

    // The map loops' software prefetch (vmath::prefetchesMapInputs, on by default only
    // on Intel CPUs) requests lines and reads nothing: every map gives the same bits
    // with it and without it, on every instruction set, up to the arrays' ends.
    void prefetchingChangesNoBits() {
        const int64_t n = 5003;  // several blocks of requests ahead, and a tail
        const std::vector<double> a = arguments<double>(n, 7), b = arguments<double>(n, 8);
        auto maps = [&] {
            std::vector<std::vector<double>> outs(4, std::vector<double>(a.size()));
            vmath::apply(Fn::Exp, a.data(), outs[0].data(), n);
            vmath::applyPair(Fn::Exp, a.data(), outs[1].data(), Fn::Tanh, b.data(), outs[2].data(), n);
            vmath::apply2(Fn::Pow, a.data(), b.data(), outs[3].data(), n);
            return outs;
        };
        const bool previous = vmath::prefetchesMapInputs();
        for (const std::string& isa : vectorIsas()) {
            IsaScope scope(isa);
            vmath::setPrefetchesMapInputs(true);
            const auto with = maps();
            vmath::setPrefetchesMapInputs(false);
            const auto without = maps();
            for (size_t k = 0; k < with.size(); ++k)
                QVERIFY2(std::memcmp(with[k].data(), without[k].data(), a.size() * sizeof(double)) == 0,
                         qPrintable(QString("map %1 [%2]").arg(k).arg(QString::fromStdString(isa))));
        }
        vmath::setPrefetchesMapInputs(previous);
    }

    // 2*exp(x) + tanh(y) - x*y: exp and tanh become one instruction (with the two
    // paired arithmetic loops, three in all), and the values are those of the
    // separate calls. Lengths cover whole blocks and a tail.
    void programsPairIndependentCalls() {
        GraphBuilder b;
        Var x = b.placeholder(Type::scalar(DType::Float64)), y = b.placeholder(Type::scalar(DType::Float64));
        auto g = b.finish({2 * exp(x) + tanh(y) - x * y});
        for (int64_t n : {int64_t{5}, int64_t{256}, int64_t{1000}}) {
            const std::vector<double> xs = arguments<double>(n, 3), ys = arguments<double>(n, 4);
            size_t instructions = 0;
            const auto out = run(*g, {NDArray::fromVector(DType::Float64, {n}, xs), NDArray::fromVector(DType::Float64, {n}, ys)},
                                 &instructions);
            QCOMPARE(instructions, size_t(3));
            std::vector<double> e(xs.size()), t(xs.size());
            vmath::apply(Fn::Exp, xs.data(), e.data(), n);
            vmath::apply(Fn::Tanh, ys.data(), t.data(), n);
            for (size_t i = 0; i < xs.size(); ++i) {
                const double want = (2.0 * e[i] + t[i]) - xs[i] * ys[i];
                QVERIFY2(sameBits(out[0].data<double>()[i], want) || (std::isnan(want) && std::isnan(out[0].data<double>()[i])),
                         qPrintable(QString("n=%1 at %2").arg(n).arg(i)));
            }
        }
    }

    // Four calls written straight to four outputs (two pairs), and calls whose
    // argument is computed between them or by the other call (not paired).
    void pairsWriteOutputsAndKeepDependencies() {
        GraphBuilder b;
        Var x = b.placeholder(Type::scalar(DType::Float32)), y = b.placeholder(Type::scalar(DType::Float32));
        auto g = b.finish({exp(x), tanh(y), sin(x), cos(y), exp(tanh(x)), log1p(abs(x * y))});
        const int64_t n = 300;
        const std::vector<float> xs = arguments<float>(n, 5), ys = arguments<float>(n, 6);
        const auto out = run(*g, {NDArray::fromVector(DType::Float32, {n}, std::vector<double>(xs.begin(), xs.end())),
                                  NDArray::fromVector(DType::Float32, {n}, std::vector<double>(ys.begin(), ys.end()))});
        std::vector<float> want(xs.size()), inner(xs.size()), prod(xs.size());
        auto expect = [&](size_t o, Fn f, const std::vector<float>& arg) {
            vmath::apply(f, arg.data(), want.data(), n);
            for (size_t i = 0; i < xs.size(); ++i)
                QVERIFY2(sameBits(out[o].data<float>()[i], want[i]) || (std::isnan(want[i]) && std::isnan(out[o].data<float>()[i])),
                         qPrintable(QString("output %1 at %2").arg(o).arg(i)));
        };
        expect(0, Fn::Exp, xs);
        expect(1, Fn::Tanh, ys);
        expect(2, Fn::Sin, xs);
        expect(3, Fn::Cos, ys);
        vmath::apply(Fn::Tanh, xs.data(), inner.data(), n);
        expect(4, Fn::Exp, inner);
        for (size_t i = 0; i < xs.size(); ++i) prod[i] = std::fabs(xs[i] * ys[i]);
        expect(5, Fn::Log1p, prod);
    }
};

TL_TEST_SUITE(TestVectorMathPairs)
#include "tst_vector_math_pairs.moc"
