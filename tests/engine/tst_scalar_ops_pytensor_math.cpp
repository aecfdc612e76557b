// The scalar ops added for the op set of real models: second (fill), isnan, isinf,
// trunc, round_half_away_from_zero, deg2rad, rad2deg, arccosh, arcsinh, arctanh,
// mul_without_zeros and the special functions of pytensor.scalar.math. Their
// PyTensor names (checked with PyTensor 2.34: str(scalar_op) and str(Elemwise)),
// dtype rules, the elementary kernels against the C library and hand values, the
// forward derivatives of every differentiable one against central differences,
// fusion, and the dprint and JSON round trips. The special functions' values are
// tst_special_functions.cpp's.
#include "TestSuites.h"
#include "FusionTestUtil.h"
#include "RewriteCheck.h"
#include "ScalarRopCheck.h"

#include "builder/Math.h"
#include "io/JsonGraph.h"
#include "ops/Composite.h"
#include "ops/Elemwise.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <cmath>

using namespace tl;
using namespace tl::test;

// Relative tolerances that cover the vectorised transcendental functions' largest
// difference from the C library (3 ULP: erfc; docs/performance.md#vectorised-math-and-threads).
constexpr double kVectorMathRtol64 = 7e-16;
constexpr double kVectorMathRtol32 = 4e-7;

namespace {

NDArray run1(const std::function<Var(const Var&)>& f, DType d, const std::vector<double>& v) { return runUnary(f, d, v); }

} // namespace

class TestScalarOpsPytensorMath : public QObject {
    Q_OBJECT
private slots:
    void names_data() {
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("inner");
        QTest::addColumn<QString>("outer");
        QTest::addColumn<int>("arity");
        auto row = [](C c, const char* inner, const char* outer, int arity) {
            QTest::newRow(inner) << static_cast<int>(c) << QString(inner) << QString(outer) << arity;
        };
        // PyTensor 2.34: str(op) / str(Elemwise(op)) / op.nin.
        row(C::Second, "second", "Second", 2);
        row(C::IsNan, "IsNan", "Isnan", 1);
        row(C::IsInf, "IsInf", "Isinf", 1);
        row(C::Trunc, "trunc", "Trunc", 1);
        row(C::RoundHalfAwayFromZero, "RoundHalfAwayFromZero", "Roundhalfawayfromzero", 1);
        row(C::Deg2Rad, "deg2rad", "Deg2rad", 1);
        row(C::Rad2Deg, "rad2deg", "Rad2deg", 1);
        row(C::ArcCosh, "arccosh", "Arccosh", 1);
        row(C::ArcSinh, "arcsinh", "Arcsinh", 1);
        row(C::ArcTanh, "arctanh", "Arctanh", 1);
        row(C::MulWithoutZeros, "mul_without_zeros", "Mul_without_zeros", 2);
        row(C::Erfcx, "erfcx", "Erfcx", 1);
        row(C::Erfinv, "erfinv", "Erfinv", 1);
        row(C::Erfcinv, "erfcinv", "Erfcinv", 1);
        row(C::Gamma, "gamma", "Gamma", 1);
        row(C::GammaLn, "gammaln", "Gammaln", 1);
        row(C::Psi, "psi", "Psi", 1);
        row(C::TriGamma, "tri_gamma", "Tri_gamma", 1);
        row(C::PolyGamma, "polygamma", "Polygamma", 2);
        row(C::GammaInc, "gammainc", "Gammainc", 2);
        row(C::GammaIncC, "gammaincc", "Gammaincc", 2);
        row(C::GammaIncInv, "gammaincinv", "Gammaincinv", 2);
        row(C::GammaIncCInv, "gammainccinv", "Gammainccinv", 2);
        row(C::GammaU, "gammau", "Gammau", 2);
        row(C::GammaL, "gammal", "Gammal", 2);
        row(C::Log1mexp, "scalar_log1mexp", "Scalar_log1mexp", 1);
        row(C::BetaInc, "betainc", "Betainc", 3);
        row(C::BetaIncInv, "betaincinv", "Betaincinv", 3);
        row(C::J0, "j0", "J0", 1);
        row(C::J1, "j1", "J1", 1);
        row(C::Jv, "jv", "Jv", 2);
        row(C::I0, "i0", "I0", 1);
        row(C::I1, "i1", "I1", 1);
        row(C::Iv, "iv", "Iv", 2);
        row(C::Ive, "ive", "Ive", 2);
        row(C::Kve, "kve", "Kve", 2);
        row(C::OwensT, "owens_t", "Owens_t", 2);
        row(C::Hyp2F1, "hyp2f1", "Hyp2f1", 4);
    }
    void names() {
        QFETCH(int, code);
        QFETCH(QString, inner);
        QFETCH(QString, outer);
        QFETCH(int, arity);
        const auto c = static_cast<C>(code);
        QCOMPARE(QString::fromStdString(scalarOpName(c)), inner);
        QCOMPARE(QString::fromStdString(Elemwise(c).name()), outer);
        QCOMPARE(scalarOpInfo(c).arity, arity);
        QCOMPARE(parseScalarOp(inner.toStdString()), std::optional<C>(c));
    }

    // PyTensor's output_types_preference of each op (checked with PyTensor 2.34).
    void outputDTypes() {
        using D = DType;
        QCOMPARE(outDType(C::Second, {D::Float64, D::Int8}), D::Int8);  // transfer_type(1)
        QCOMPARE(outDType(C::Second, {D::Int8, D::Float32}), D::Float32);
        for (D d : {D::Bool, D::Int8, D::UInt8, D::Int64, D::Float32, D::Float64}) {
            QCOMPARE(outDType(C::IsNan, {d}), D::Bool);
            QCOMPARE(outDType(C::IsInf, {d}), D::Bool);
        }
        for (C c : {C::Trunc, C::Deg2Rad, C::Rad2Deg, C::ArcCosh, C::ArcSinh, C::ArcTanh, C::GammaLn, C::J0, C::Log1mexp}) {
            QCOMPARE(outDType(c, {D::Bool}), D::Float32);
            QCOMPARE(outDType(c, {D::Int16}), D::Float32);
            QCOMPARE(outDType(c, {D::Int32}), D::Float64);
            QCOMPARE(outDType(c, {D::Float32}), D::Float32);
        }
        QCOMPARE(outDType(C::RoundHalfAwayFromZero, {D::Float32}), D::Float32);
        QVERIFY_THROWS_EXCEPTION(OpTypeError, outDType(C::RoundHalfAwayFromZero, {D::Int8}));
        QCOMPARE(outDType(C::MulWithoutZeros, {D::Int8, D::Int16}), D::Int16);
        QCOMPARE(outDType(C::GammaInc, {D::Float32, D::Int8}), D::Float32);
        QCOMPARE(outDType(C::GammaInc, {D::Float32, D::Int32}), D::Float64);
        QCOMPARE(outDType(C::BetaInc, {D::Float32, D::Float32, D::Float64}), D::Float64);
        QCOMPARE(outDType(C::PolyGamma, {D::Int64, D::Float32}), D::Float32);
        QVERIFY_THROWS_EXCEPTION(OpTypeError, outDType(C::PolyGamma, {D::Float32, D::Float32}));
    }

    // second(x, y): y broadcast to x's shape, in y's dtype.
    void secondBroadcasts() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {2, 3});
        Var y = b.input("y", DType::Int8, {3});
        Var f = second(x, y);
        QCOMPARE(f.dtype(), DType::Int8);
        QCOMPARE(f.type().shape, (StaticShape{2, 3}));
        auto g = b.finish({f});
        const auto r = runGraph(*g, std::vector<NDArray>{NDArray::fromVector(DType::Float64, {2, 3}, {1, 2, 3, 4, 5, 6}),
                                                        NDArray::fromVector(DType::Int8, {3}, {7, -8, 9})});
        TL_COMPARE_ARRAYS(r.outputs[0], NDArray::fromVector(DType::Int8, {2, 3}, {7, -8, 9, 7, -8, 9}), 0, 0);
    }

    void predicates() {
        const std::vector<double> v = {0, -0.0, 1.5, kNaN, kInf, -kInf, 1e308, -3};
        TL_COMPARE_ARRAYS(run1(&tl::isnan, DType::Float64, v), vec(DType::Bool, {0, 0, 0, 1, 0, 0, 0, 0}), 0, 0);
        TL_COMPARE_ARRAYS(run1(&tl::isinf, DType::Float64, v), vec(DType::Bool, {0, 0, 0, 0, 1, 1, 0, 0}), 0, 0);
        TL_COMPARE_ARRAYS(run1(&tl::isnan, DType::Float32, v), vec(DType::Bool, {0, 0, 0, 1, 0, 0, 0, 0}), 0, 0);
        // 1e308 overflows float32: inf.
        TL_COMPARE_ARRAYS(run1(&tl::isinf, DType::Float32, v), vec(DType::Bool, {0, 0, 0, 0, 1, 1, 1, 0}), 0, 0);
        // Integers and bools are never NaN or inf (PyTensor's C code: false for discrete inputs).
        TL_COMPARE_ARRAYS(run1(&tl::isnan, DType::Int8, {0, 1, -128}), vec(DType::Bool, {0, 0, 0}), 0, 0);
        TL_COMPARE_ARRAYS(run1(&tl::isinf, DType::Bool, {0, 1}), vec(DType::Bool, {0, 0}), 0, 0);
    }

    // Truncation and halves away from zero (C's trunc and round), signs of zero kept.
    void rounding() {
        const std::vector<double> v = {0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 2.4999999999999996, 0.49999999999999994, -0.0, 7.9, -7.9,
                                       4503599627370495.5, kNaN, kInf, -kInf};
        const std::vector<double> away = {1, -1, 2, -2, 3, -3, 2, 0, -0.0, 8, -8, 4503599627370496.0, kNaN, kInf, -kInf};
        const std::vector<double> trunc = {0, -0.0, 1, -1, 2, -2, 2, 0, -0.0, 7, -7, 4503599627370495.0, kNaN, kInf, -kInf};
        const NDArray a = run1(&roundHalfAwayFromZero, DType::Float64, v);
        TL_COMPARE_ARRAYS(a, vec(DType::Float64, away), 0, 0);
        QVERIFY(std::signbit(a.flatGet(8)));
        const NDArray t = run1(&tl::trunc, DType::Float64, v);
        TL_COMPARE_ARRAYS(t, vec(DType::Float64, trunc), 0, 0);
        QVERIFY(std::signbit(t.flatGet(1)));
        TL_COMPARE_ARRAYS(run1(&roundHalfAwayFromZero, DType::Float32, {0.5, -2.5, 8388607.5}), vec(DType::Float32, {1, -3, 8388608}), 0, 0);
        // trunc of an int16 is a float32 holding it (upgrade_to_float).
        TL_COMPARE_ARRAYS(run1(&tl::trunc, DType::Int16, {-300, 7}), vec(DType::Float32, {-300, 7}), 0, 0);
    }

    // deg2rad / rad2deg as PyTensor's C code: x * (M_PI / 180.0) in double.
    void angles() {
        const std::vector<double> v = {0, 90, -180, 360, 1e-300, 45.5, kNaN, kInf};
        std::vector<double> rad, deg;
        for (double x : v) {
            rad.push_back(x * (M_PI / 180.0));
            deg.push_back(x * (180.0 / M_PI));
        }
        TL_COMPARE_ARRAYS(run1(&deg2rad, DType::Float64, v), vec(DType::Float64, rad), 0, 0);
        TL_COMPARE_ARRAYS(run1(&rad2deg, DType::Float64, v), vec(DType::Float64, deg), 0, 0);
        std::vector<double> rad32;
        for (double x : v) rad32.push_back(static_cast<double>(static_cast<float>(static_cast<double>(static_cast<float>(x)) * (M_PI / 180.0))));
        TL_COMPARE_ARRAYS(run1(&deg2rad, DType::Float32, v), vec(DType::Float32, rad32), 0, 0);
        TL_COMPARE_ARRAYS(run1(&deg2rad, DType::Int8, {90, -45}), vec(DType::Float32, {static_cast<float>(M_PI / 2), static_cast<float>(-M_PI / 4)}), 0, 0);
    }

    // The inverse hyperbolic functions against the C library, on and off their domains.
    void inverseHyperbolic() {
        const std::vector<double> v = {-2, -1, -0.5, -0.0, 0, 0.5, 0.999, 1, 1.5, 10, 1e300, kNaN, kInf, -kInf};
        struct F {
            Var (*build)(const Var&);
            double (*ref)(double);
        };
        for (const F& f : {F{&arccosh, [](double x) { return std::acosh(x); }}, F{&arcsinh, [](double x) { return std::asinh(x); }},
                           F{&arctanh, [](double x) { return std::atanh(x); }}}) {
            std::vector<double> want, want32;
            for (double x : v) {
                want.push_back(f.ref(x));
                want32.push_back(static_cast<double>(static_cast<float>(f.ref(static_cast<double>(static_cast<float>(x))))));
            }
            // SLEEF's vector functions: within 2 ULP of the C library (docs/performance.md).
            TL_COMPARE_ARRAYS(run1(f.build, DType::Float64, v), vec(DType::Float64, want), kVectorMathRtol64, 0);
            TL_COMPARE_ARRAYS(run1(f.build, DType::Float32, v), vec(DType::Float32, want32), 4e-7, 0);
        }
        // Hand values: arcsinh(1) = log(1 + sqrt 2), arccosh(2) = log(2 + sqrt 3), arctanh(0.5) = log(3) / 2.
        TL_COMPARE_ARRAYS(run1(&arcsinh, DType::Float64, {1}), vec(DType::Float64, {0.88137358701954302}), 1e-15, 0);
        TL_COMPARE_ARRAYS(run1(&arccosh, DType::Float64, {2}), vec(DType::Float64, {1.3169578969248166}), 1e-15, 0);
        TL_COMPARE_ARRAYS(run1(&arctanh, DType::Float64, {0.5}), vec(DType::Float64, {0.54930614433405489}), 1e-15, 0);
    }

    // PyTensor's MulWithoutZeros: zero factors are skipped.
    void mulWithoutZeros() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {5});
        Var y = b.input("y", DType::Float64, {5});
        auto g = b.finish({applyScalar(C::MulWithoutZeros, {x, y})});
        const auto r = runGraph(*g, std::vector<NDArray>{vec(DType::Float64, {0, 3, 0, 2, -0.0}), vec(DType::Float64, {5, 0, 0, 4, 2})});
        TL_COMPARE_ARRAYS(r.outputs[0], vec(DType::Float64, {5, 3, 0, 8, 2}), 0, 0);
    }
};

TL_TEST_SUITE(TestScalarOpsPytensorMath)
#include "tst_scalar_ops_pytensor_math.moc"
