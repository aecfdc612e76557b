// A vectorised call's products summed in one loop (vmath::foldProductOfCall): for
// every primitive function, instruction set, dtype and length (whole lane groups
// and a tail), the bits of calling into an array and then folding the products
// with the float sum fold; a lane SLEEF is not trusted with (an argument past exp's
// band, a NaN, a zero result) declines the block and leaves the accumulator as it
// was, wherever it sits. Programs offer the call only when it is a call of its own
// just before the product, and a reduction over blocks that decline gives the bits
// of mapping and then summing.
#include "TestSuites.h"
#include "TestSupport.h"

#include "builder/Math.h"
#include "ops/ArithmeticLoops.h"
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
#include <string>
#include <vector>

using namespace tl;
using namespace tl::test;
using vmath::Fn;

namespace {

// Arguments inside every function's domain, with results SLEEF is trusted with.
template <typename T> std::vector<T> arguments(Fn f, int64_t n) {
    std::vector<T> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        const double u = 0.1 + 0.8 * static_cast<double>((i * 37) % 101) / 101.0;
        v[static_cast<size_t>(i)] = static_cast<T>(f == Fn::ArcCosh ? 1.5 + u : u);
    }
    return v;
}

template <typename T> std::vector<T> factors(int64_t n) {
    std::vector<T> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<T>(std::cos(0.7 * static_cast<double>(i)) * 1e3);
    return v;
}

// apply() into an array, then the float sum fold of the products.
template <typename T> T twoPass(Fn f, const std::vector<T>& a, const std::vector<T>& b, T start) {
    std::vector<T> e(a.size());
    vmath::apply(f, a.data(), e.data(), static_cast<int64_t>(a.size()));
    T acc = start;
    arith::table().sumAllProducts[sizeof(T) == 8 ? 1 : 0](&acc, e.data(), b.data(), static_cast<int64_t>(a.size()));
    return acc;
}

template <typename T> bool sameBits(T x, T y) { return std::memcmp(&x, &y, sizeof(T)) == 0; }

constexpr Fn kPrimitives[] = {Fn::Exp,    Fn::Expm1,  Fn::Exp2,   Fn::Log,     Fn::Log1p,   Fn::Log2,    Fn::Log10,
                              Fn::Sqrt,   Fn::Sin,    Fn::Cos,    Fn::Tan,     Fn::Sinh,    Fn::Cosh,    Fn::Tanh,
                              Fn::ArcSin, Fn::ArcCos, Fn::ArcTan, Fn::ArcSinh, Fn::ArcCosh, Fn::ArcTanh, Fn::Erf,
                              Fn::Erfc};

// Whether this instruction set folds T's products in one loop: every width divides
// the 8 lanes but AVX-512's 16 floats.
template <typename T> bool folds(const std::string& isa) { return sizeof(T) == 8 || isa != "avx512"; }

template <typename T> void checkEveryFunction(const std::string& isa) {
    for (Fn f : kPrimitives)
        for (int64_t n : {0, 1, 5, 8, 13, 16, 255, 256}) {
            const std::vector<T> a = arguments<T>(f, n), b = factors<T>(n);
            T acc = T(0.375);
            const bool folded = vmath::foldProductOfCall(f, a.data(), b.data(), &acc, n);
            const QString where = QString("%1, %2, %3, n = %4")
                                      .arg(vmath::fnName(f), QString::fromStdString(isa), sizeof(T) == 8 ? "float64" : "float32")
                                      .arg(n);
            QVERIFY2(folded == folds<T>(isa), qPrintable("folded: " + where));
            if (folded) QVERIFY2(sameBits(acc, twoPass(f, a, b, T(0.375))), qPrintable(where));
        }
}

// One untrusted argument at `at` makes the whole call decline.
template <typename T> void checkDeclines(Fn f, T bad, int64_t n, int64_t at) {
    std::vector<T> a = arguments<T>(f, n), b = factors<T>(n);
    a[static_cast<size_t>(at)] = bad;
    T acc = T(0.375);
    QVERIFY2(!vmath::foldProductOfCall(f, a.data(), b.data(), &acc, n),
             qPrintable(QString("%1 of %2 at %3 of %4").arg(vmath::fnName(f)).arg(double(bad)).arg(at).arg(n)));
    QCOMPARE(acc, T(0.375));
}

using Build = std::function<Var(Var, Var)>;

std::shared_ptr<const Composite> compositeOf(const Build& build) {
    GraphBuilder b;
    Var x = b.placeholder(Type::scalar(DType::Float64)), y = b.placeholder(Type::scalar(DType::Float64));
    return std::make_shared<const Composite>(*b.finish({build(x, y)}));
}

} // namespace

class TestProductFold : public QObject {
    Q_OBJECT
private slots:
    void foldGivesTheTwoPassBits() {
        for (const std::string& isa : vectorIsas()) {
            IsaScope scope(isa);
            checkEveryFunction<double>(isa);
            checkEveryFunction<float>(isa);
        }
        // Switched to the C library, nothing is folded in one loop.
        const bool previous = vmath::setVectorised(false);
        const std::vector<double> a = arguments<double>(Fn::Exp, 16), b = factors<double>(16);
        double acc = 0;
        QVERIFY(!vmath::foldProductOfCall(Fn::Exp, a.data(), b.data(), &acc, 16));
        vmath::setVectorised(previous);
    }

    void anUntrustedLaneDeclines() {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        for (const std::string& isa : vectorIsas()) {
            IsaScope scope(isa);
            for (int64_t at : {0, 7, 8, 12}) {  // in a lane group and in the tail of 13
                checkDeclines<double>(Fn::Exp, -800.0, 13, at);  // past exp's band: its result is 0
                checkDeclines<double>(Fn::Exp, nan, 13, at);
                checkDeclines<double>(Fn::Tanh, 1e-300, 13, at);  // tanh(x) = x, below the band
                checkDeclines<double>(Fn::Log, 1.0, 13, at);      // a zero result
                checkDeclines<double>(Fn::Log, -0.5, 13, at);     // NaN
                checkDeclines<double>(Fn::Sin, std::numeric_limits<double>::denorm_min(), 13, at);
                if (folds<float>(isa)) checkDeclines<float>(Fn::Exp, 100.0f, 13, at);
            }
        }
    }

    // Offered only for a call of its own right before the product.
    void programsOfferTheCallBeforeTheProduct() {
        QVERIFY(compositeOf([](Var x, Var y) { return exp(x) * y; })->program().productCall() == Fn::Exp);
        QVERIFY(compositeOf([](Var x, Var y) { return y * log(x); })->program().productCall() == Fn::Log);
        QVERIFY(!compositeOf([](Var x, Var) { return exp(x) * exp(x); })->program().productCall());
        QVERIFY(!compositeOf([](Var x, Var y) { return exp(x) * tanh(y); })->program().productCall());  // paired
        QVERIFY(!compositeOf([](Var x, Var y) { return (exp(x) + 1.0) * y; })->program().productCall());
        QVERIFY(!compositeOf([](Var x, Var y) { return exp(x) + y; })->program().productCall());
    }

    // sum(exp(x) * y) with some blocks holding arguments past exp's band: those blocks
    // take the two-pass way, and the sum has the bits of mapping and then summing.
    void reductionFallsBackPerBlock() {
        GraphBuilder sb;
        Var acc = sb.placeholder(Type::scalar(DType::Float64)), x = sb.placeholder(Type::scalar(DType::Float64)),
            y = sb.placeholder(Type::scalar(DType::Float64));
        auto fold = std::make_shared<const Composite>(*sb.finish({acc + exp(x) * y}));
        auto map = compositeOf([](Var a, Var b) { return exp(a) * b; });
        QVERIFY(map->program().productCall());
        const int64_t n = 100'003;
        NDArray xs = NDArray::empty(DType::Float64, {n}), ys = NDArray::empty(DType::Float64, {n});
        for (int64_t i = 0; i < n; ++i) {
            xs.data<double>()[i] = i % 1777 == 5 ? -800.0 : std::sin(0.37 * static_cast<double>(i));
            ys.data<double>()[i] = std::cos(0.11 * static_cast<double>(i));
        }
        for (int threads : {1, 2}) {
            ThreadCount scope(threads);
            std::vector<NDArray> fused(1);
            const NDArray both[] = {xs, ys};
            makeCAReduce(fold, std::vector<int>{0})->perform(both, fused);
            std::vector<NDArray> mapped(1), plain(1);
            makeCompositeElemwise(map)->perform(both, mapped);
            const NDArray one[] = {mapped[0]};
            makeReduce(ReduceKind::Sum, std::vector<int>{0})->perform(one, plain);
            QVERIFY2(sameBits(fused[0].item(), plain[0].item()),
                     (std::to_string(fused[0].item()) + " vs " + std::to_string(plain[0].item())).c_str());
        }
    }
};

TL_TEST_SUITE(TestProductFold)
#include "tst_product_fold.moc"
