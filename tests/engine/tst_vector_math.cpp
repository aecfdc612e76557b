// The vectorised transcendental functions (ops/VectorMath.h, SLEEF) against the C
// library, for float64 and float32, on every instruction set this machine runs:
//  - at ±0, ±inf, NaN, subnormals and each function's overflow / underflow and
//    domain edges, scattered among ordinary values of one block, the results are
//    bit-identical to std::'s;
//  - over a million deterministic pseudo-random arguments per range (several
//    ranges per function) the largest difference, in ULP, is at most the bound
//    docs/performance.md#vectorised-math-and-threads states (both SLEEF's 1-ULP
//    functions and glibc's are within about 1 ULP of the exact value);
//  - the Elemwise kernels use these functions, and switching them off gives the
//    C library's results exactly.
#include "TestSuites.h"
#include "TestSupport.h"

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

namespace {

using vmath::Fn;

// Largest difference allowed against glibc, in ULP of the result's type
// (docs/performance.md#vectorised-math-and-threads): 2 for SLEEF's 1-ULP functions;
// 3 for erfc, whose best SLEEF variant is 1.5 ULP; 4 for the compositions
// (sigmoid, softplus, log1mexp), where the pieces' errors pass through one more
// rounding and a result in a lower binade than its piece counts ULP twice as finely.
double ulpBound(Fn f) {
    if (f == Fn::Erfc) return 3.0;
    if (f == Fn::Sigmoid || f == Fn::Softplus || f == Fn::Log1mexp) return 4.0;
    return 2.0;
}

template <typename T> struct Ordered;
template <> struct Ordered<double> {
    static int64_t of(double x) {
        int64_t i;
        std::memcpy(&i, &x, sizeof i);
        return i < 0 ? std::numeric_limits<int64_t>::min() - i : i;
    }
};
template <> struct Ordered<float> {
    static int64_t of(float x) {
        int32_t i;
        std::memcpy(&i, &x, sizeof i);
        return i < 0 ? int64_t{std::numeric_limits<int32_t>::min()} - i : i;
    }
};

/// ULP distance; 0 when both are NaN, infinite when only one is.
template <typename T> double ulpDiff(T a, T b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0.0 : INFINITY;
    if (std::isinf(a) || std::isinf(b)) return a == b ? 0.0 : INFINITY;
    return std::fabs(static_cast<double>(Ordered<T>::of(a) - Ordered<T>::of(b)));
}

template <typename T> bool sameBits(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

struct Range {
    double lo, hi;
    bool logScale = false;  // log-uniform magnitudes in [lo, hi] (lo > 0), random sign when `signed_`
    bool signed_ = false;
};

// Several ranges per function: the core of its domain, wide arguments, and the
// neighbourhood of zero where relative accuracy is hardest.
std::vector<Range> rangesOf(Fn f, bool single) {
    const double big = single ? 1e38 : 1e300, tiny = single ? 1e-37 : 1e-300;
    const double expMax = single ? 88.0 : 709.0, expMin = single ? -103.0 : -744.0;
    switch (f) {
    case Fn::Exp: return {{-1, 1}, {expMin, expMax}, {-20, 20}};
    case Fn::Expm1: return {{-1, 1}, {-40, expMax}, {1e-12, 1e-3, true, true}};
    case Fn::Exp2: return {{-1, 1}, {expMin * 1.44, expMax * 1.44}};
    case Fn::Log:
    case Fn::Log2:
    case Fn::Log10: return {{0.5, 2}, {tiny, big, true}, {1e-5, 1e5}};
    case Fn::Log1p: return {{-0.999, 1}, {1e-12, 1e-3, true, true}, {1, big, true}};
    case Fn::Sqrt: return {{0, 4}, {tiny, big, true}};
    case Fn::Sin:
    case Fn::Cos:
    case Fn::Tan: return {{-3.2, 3.2}, {-1e5, 1e5}, {1e-3, single ? 1e30 : 1e22, true, true}};
    case Fn::Sinh:
    case Fn::Cosh: return {{-1, 1}, {-(expMax + 0.5), expMax + 0.5}, {1e-10, 1e-2, true, true}};
    case Fn::Tanh: return {{-1, 1}, {-20, 20}, {1e-10, 1e-2, true, true}};
    case Fn::ArcSin:
    case Fn::ArcCos: return {{-1, 1}, {1e-10, 1e-2, true, true}};
    case Fn::ArcTan: return {{-1, 1}, {1e-10, 1e10, true, true}};
    case Fn::ArcSinh: return {{-1, 1}, {1e-10, big, true, true}};
    case Fn::ArcCosh: return {{1, 2}, {1, big, true}};
    case Fn::ArcTanh: return {{-1, 1}, {1e-10, 1e-2, true, true}};
    case Fn::Erf: return {{-6, 6}, {1e-10, 1e-2, true, true}};
    case Fn::Erfc: return {{-6, 6}, {0, single ? 10.0 : 27.0}};
    case Fn::Sigmoid: return {{-50, 50}, {-(expMax + 30), expMax + 30}};
    case Fn::Softplus: return {{-50, 50}, {-100, 100}, {-1, 1}};
    case Fn::Log1mexp: return {{-1, -1e-10}, {-50, -0.5}, {1e-10, 1e-2, true}};
    case Fn::Pow:
    case Fn::ArcTan2: break;
    }
    return {};
}

template <typename T> T sample(std::mt19937_64& rng, const Range& r) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    double x;
    if (r.logScale) {
        x = std::exp(std::log(r.lo) + u(rng) * (std::log(r.hi) - std::log(r.lo)));
        if (r.signed_ && (rng() & 1u)) x = -x;
        if (!r.signed_ && r.lo < 0) x = -x;
    } else {
        x = r.lo + u(rng) * (r.hi - r.lo);
    }
    // Log1mexp's tiny range is negative.
    return static_cast<T>(x);
}

constexpr Fn kUnary[] = {Fn::Exp,    Fn::Expm1,  Fn::Exp2,    Fn::Log,     Fn::Log1p,   Fn::Log2,    Fn::Log10,
                         Fn::Sqrt,   Fn::Sin,    Fn::Cos,     Fn::Tan,     Fn::Sinh,    Fn::Cosh,    Fn::Tanh,
                         Fn::ArcSin, Fn::ArcCos, Fn::ArcTan,  Fn::ArcSinh, Fn::ArcCosh, Fn::ArcTanh, Fn::Erf,
                         Fn::Erfc,   Fn::Sigmoid, Fn::Softplus, Fn::Log1mexp};

// Arguments where the C library's answer is special or at the edge of the
// representable: the vectorised result must be the same bits.
template <typename T> std::vector<T> edgeArguments(Fn f) {
    using L = std::numeric_limits<T>;
    std::vector<T> v = {T(0),        -T(0),         L::infinity(),       -L::infinity(),  L::quiet_NaN(),
                        -L::quiet_NaN(), L::denorm_min(), -L::denorm_min(), L::min() / T(3), -L::min() / T(3),
                        L::max(),    -L::max(),     L::lowest()};
    const bool single = std::is_same_v<T, float>;
    std::vector<double> edges;
    switch (f) {
    case Fn::Exp:
    case Fn::Expm1:
    case Fn::Sigmoid:
    case Fn::Softplus:
        edges = single ? std::vector<double>{88.72, 88.7228, 88.73, 89, -87.3, -87.34, -103.9, -103.98, -104, -150}
                       : std::vector<double>{709.7, 709.78, 709.782712893384, 709.7827128933840, 709.79, 710,
                                             -708.3, -708.39641853226408, -708.4, -745.1, -745.13321910194110, -745.2, -746};
        break;
    case Fn::Exp2:
        edges = single ? std::vector<double>{127.99, 128, -126, -126.5, -149, -149.5, -150}
                       : std::vector<double>{1023.99, 1024, -1022, -1022.5, -1074, -1074.5, -1075};
        break;
    case Fn::Sinh:
    case Fn::Cosh:
        edges = single ? std::vector<double>{89.41, 89.4159, 89.42, -89.41, -89.42, 90}
                       : std::vector<double>{710.47, 710.4758600739439, 710.48, -710.47, -710.48, 711};
        break;
    case Fn::Erfc: edges = single ? std::vector<double>{10.05, 10.0545, 10.06, 10.1} : std::vector<double>{26.5, 26.55, 27.2, 27.23, 27.3, 28}; break;
    case Fn::Log:
    case Fn::Log2:
    case Fn::Log10:
    case Fn::Sqrt: edges = {-1, -0.5, 1}; break;
    case Fn::Log1p: edges = {-1, -1.5, -2}; break;
    case Fn::ArcSin:
    case Fn::ArcCos: edges = {1.0000001, -1.0000001, 2, -2, 1}; break;
    case Fn::ArcCosh: edges = {0.99, 0.5, -1, 1}; break;
    case Fn::ArcTanh: edges = {1, -1, 1.0000001, -2}; break;
    case Fn::Log1mexp: edges = {0, 0.5, 1, -1e-320}; break;
    default: break;
    }
    for (double e : edges) v.push_back(static_cast<T>(e));
    return v;
}

template <typename T> void checkSpecials(Fn f) {
    const std::vector<T> edges = edgeArguments<T>(f);
    // Each edge at a few positions of a block of ordinary values (a full vector, a tail lane).
    for (int64_t n : {int64_t{256}, int64_t{7}, int64_t{1}}) {
        for (size_t e = 0; e < edges.size(); ++e) {
            std::vector<T> a(static_cast<size_t>(n), T(0.375)), got(a.size()), want(a.size());
            const size_t at = (e * 37) % a.size();
            a[at] = edges[e];
            vmath::apply(f, a.data(), got.data(), n);
            vmath::applyScalar(f, a.data(), want.data(), n);
            if (!sameBits(got[at], want[at]))
                QFAIL(qPrintable(QString("%1(%2) [%3, %4]: vectorised %5, C library %6")
                                     .arg(vmath::fnName(f))
                                     .arg(static_cast<double>(edges[e]), 0, 'g', 17)
                                     .arg(std::is_same_v<T, float> ? "float32" : "float64")
                                     .arg(vmath::isaName())
                                     .arg(static_cast<double>(got[at]), 0, 'g', 17)
                                     .arg(static_cast<double>(want[at]), 0, 'g', 17)));
        }
    }
}

template <typename T> void checkBinarySpecials(Fn f) {
    using L = std::numeric_limits<T>;
    const std::vector<T> vals = {T(0), -T(0), L::infinity(), -L::infinity(), L::quiet_NaN(), L::denorm_min(),
                                 -L::denorm_min(), T(1), T(-1), T(2), T(-2), T(0.5), T(-0.5), T(3), T(-3), L::max()};
    std::vector<T> a, b;
    for (T x : vals)
        for (T y : vals) {
            a.push_back(x);
            b.push_back(y);
        }
    if (f == Fn::Pow) {  // overflow and underflow edges of x^y
        const bool single = std::is_same_v<T, float>;
        for (double y : single ? std::vector<double>{127.99, 128, -126, -149, -150} : std::vector<double>{1023.99, 1024, -1022, -1074, -1075}) {
            a.push_back(T(2));
            b.push_back(static_cast<T>(y));
            a.push_back(T(-2));
            b.push_back(static_cast<T>(std::round(y)));
        }
    }
    std::vector<T> got(a.size()), want(a.size());
    vmath::apply2(f, a.data(), b.data(), got.data(), static_cast<int64_t>(a.size()));
    vmath::apply2Scalar(f, a.data(), b.data(), want.data(), static_cast<int64_t>(a.size()));
    for (size_t i = 0; i < a.size(); ++i) {
        // The lanes ops/VectorMath.h hands to the C library: special arguments, pow's
        // negative bases and base 1, results outside [2^-991, 2^992) (float: [2^-119, 2^120)).
        const bool single = std::is_same_v<T, float>;
        const T small = std::ldexp(T(1), single ? -119 : -991), big = std::ldexp(T(1), single ? 120 : 992);
        const bool special = !std::isnormal(a[i]) || !std::isnormal(b[i]) || !std::isnormal(want[i]) ||
                             (f == Fn::Pow && (a[i] < 0 || a[i] == T(1))) || std::fabs(want[i]) >= big ||
                             std::fabs(want[i]) < small;
        if (special && !sameBits(got[i], want[i]))
            QFAIL(qPrintable(QString("%1(%2, %3) [%4]: vectorised %5, C library %6")
                                 .arg(vmath::fnName(f))
                                 .arg(static_cast<double>(a[i]), 0, 'g', 17)
                                 .arg(static_cast<double>(b[i]), 0, 'g', 17)
                                 .arg(vmath::isaName())
                                 .arg(static_cast<double>(got[i]), 0, 'g', 17)
                                 .arg(static_cast<double>(want[i]), 0, 'g', 17)));
        QVERIFY(ulpDiff(got[i], want[i]) <= ulpBound(f));
    }
}

// The largest ULP difference over `count` arguments per range; fails above the bound.
template <typename T> void checkUlp(Fn f, int64_t count) {
    const bool single = std::is_same_v<T, float>;
    std::mt19937_64 rng(0x5eed + static_cast<uint64_t>(f));
    std::vector<T> a(static_cast<size_t>(count)), got(a.size()), want(a.size());
    for (const Range& r : rangesOf(f, single)) {
        for (T& x : a) x = sample<T>(rng, r);
        vmath::apply(f, a.data(), got.data(), count);
        vmath::applyScalar(f, a.data(), want.data(), count);
        double worst = 0;
        size_t at = 0;
        for (size_t i = 0; i < a.size(); ++i) {
            const double d = ulpDiff(got[i], want[i]);
            if (d > worst) {
                worst = d;
                at = i;
            }
        }
        qInfo("%-9s %s %-5s [%-9g, %-9g]%s: max %.0f ULP vs C library%s", vmath::fnName(f), single ? "float32" : "float64",
              vmath::isaName(), r.lo, r.hi, r.logScale ? " log" : "    ", worst,
              worst > 0 ? qPrintable(QString(" (at %1)").arg(static_cast<double>(a[at]), 0, 'g', 17)) : "");
        if (worst > ulpBound(f))
            QFAIL(qPrintable(QString("%1 %2: %3 ULP at %4 (vectorised %5, C library %6), bound %7")
                                 .arg(vmath::fnName(f))
                                 .arg(single ? "float32" : "float64")
                                 .arg(worst)
                                 .arg(static_cast<double>(a[at]), 0, 'g', 17)
                                 .arg(static_cast<double>(got[at]), 0, 'g', 17)
                                 .arg(static_cast<double>(want[at]), 0, 'g', 17)
                                 .arg(ulpBound(f))));
    }
}

template <typename T> void checkBinaryUlp(Fn f, int64_t count) {
    const bool single = std::is_same_v<T, float>;
    std::mt19937_64 rng(0xb1a5 + static_cast<uint64_t>(f));
    struct Ranges {
        Range x, y;
        bool integerY;
    };
    const std::vector<Ranges> ranges =
        f == Fn::Pow ? std::vector<Ranges>{{{0, 10}, {-10, 10}, false},
                                           {{1e-5, 1e5, true}, {single ? -8.0 : -50.0, single ? 8.0 : 50.0}, false},
                                           {{-10, 0}, {-20, 20}, true}}
                     : std::vector<Ranges>{{{-10, 10}, {-10, 10}, false}, {{1e-10, 1e10, true, true}, {1e-10, 1e10, true, true}, false}};
    std::vector<T> a(static_cast<size_t>(count)), b(a.size()), got(a.size()), want(a.size());
    for (const Ranges& r : ranges) {
        for (size_t i = 0; i < a.size(); ++i) {
            a[i] = sample<T>(rng, r.x);
            b[i] = r.integerY ? std::round(sample<T>(rng, r.y)) : sample<T>(rng, r.y);
        }
        vmath::apply2(f, a.data(), b.data(), got.data(), count);
        vmath::apply2Scalar(f, a.data(), b.data(), want.data(), count);
        double worst = 0;
        for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, ulpDiff(got[i], want[i]));
        qInfo("%-9s %s %-5s x [%g, %g] y [%g, %g]: max %.0f ULP vs C library", vmath::fnName(f),
              single ? "float32" : "float64", vmath::isaName(), r.x.lo, r.x.hi, r.y.lo, r.y.hi, worst);
        QVERIFY2(worst <= ulpBound(f), qPrintable(QString("%1: %2 ULP").arg(vmath::fnName(f)).arg(worst)));
    }
}

std::vector<std::string> isas() { return vectorIsas(); }

} // namespace

class TestVectorMath : public QObject {
    Q_OBJECT
private slots:
    void specialValuesAreTheCLibrarys() {
        for (const std::string& isa : isas()) {
            IsaScope scope(isa);
            for (Fn f : kUnary) {
                checkSpecials<double>(f);
                checkSpecials<float>(f);
            }
            for (Fn f : {Fn::Pow, Fn::ArcTan2}) {
                checkBinarySpecials<double>(f);
                checkBinarySpecials<float>(f);
            }
        }
    }

    void withinTheUlpBoundOfTheCLibrary() {
        for (const std::string& isa : isas()) {
            IsaScope scope(isa);
            // A million arguments per range on the CPU's own choice; the others get a tenth.
            const int64_t count = isa == isas()[0] ? 1'000'000 : 100'000;
            for (Fn f : kUnary) {
                checkUlp<double>(f, count);
                checkUlp<float>(f, count);
            }
            for (Fn f : {Fn::Pow, Fn::ArcTan2}) {
                checkBinaryUlp<double>(f, count);
                checkBinaryUlp<float>(f, count);
            }
        }
    }

    void elemwiseKernelsUseTheVectorisedFunctions() {
        std::vector<double> x(1000);
        for (size_t i = 0; i < x.size(); ++i) x[i] = -20.0 + 0.04 * static_cast<double>(i);
        const DType f64[] = {DType::Float64};
        auto program = ScalarProgram::compileOp(ScalarOpCode::Tanh, DType::Float64, f64);
        const NDArray in = NDArray::fromVector(DType::Float64, {static_cast<int64_t>(x.size())}, x);
        const NDArray viaKernel = program->evaluate(std::span<const NDArray>(&in, 1)).at(0);
        std::vector<double> vec(x.size()), libm(x.size());
        vmath::apply(Fn::Tanh, x.data(), vec.data(), static_cast<int64_t>(x.size()));
        for (size_t i = 0; i < x.size(); ++i) libm[i] = std::tanh(x[i]);
        for (size_t i = 0; i < x.size(); ++i) QVERIFY(sameBits(viaKernel.data<double>()[i], vec[i]));

        const bool previous = vmath::setVectorised(false);
        const NDArray scalarKernel = program->evaluate(std::span<const NDArray>(&in, 1)).at(0);
        vmath::setVectorised(previous);
        for (size_t i = 0; i < x.size(); ++i) QVERIFY(sameBits(scalarKernel.data<double>()[i], libm[i]));
    }

    void isaNameIsKnown() {
        const std::string isa = vmath::isaName();
        QVERIFY(isa == "avx512" || isa == "avx" || isa == "sse2");
        QCOMPARE(std::string(vmath::availableIsas().back()), std::string("sse2"));
        QVERIFY(!vmath::selectIsa("neon"));
        QCOMPARE(std::string(vmath::isaName()), isa);
    }
};

TL_TEST_SUITE(TestVectorMath)
#include "tst_vector_math.moc"
