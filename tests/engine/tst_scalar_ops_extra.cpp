// The widened scalar vocabulary (sign, floor, ceil, round_half_to_even, reciprocal,
// erf, erfc, sinh, cosh, tan, arcsin, arccos, arctan, log2, log10, exp2, arctan2,
// clip): PyTensor's names, output dtypes, and kernels against the C library on edge
// values (0, -0, halves, NaN, ±inf) for float and int inputs. Derivatives, fusion
// and the dprint round trip: tst_scalar_ops_extra_rop.cpp.
#include "TestSuites.h"
#include "ScalarOpsExtraUtil.h"
#include "TestSupport.h"

#include "builder/Math.h"
#include "exec/Executor.h"
#include "ops/Elemwise.h"

#include <QtTest>

#include <cfenv>
#include <cmath>
#include <functional>
#include <limits>

using namespace tl;
using namespace tl::test;

// Relative tolerances that cover the vectorised transcendental functions' largest
// difference from the C library (3 ULP: erfc; docs/performance.md#vectorised-math-and-threads).
constexpr double kVectorMathRtol64 = 7e-16;
constexpr double kVectorMathRtol32 = 4e-7;

class TestScalarOpsExtra : public QObject {
    Q_OBJECT
private slots:
    // Names as PyTensor prints them (checked against pytensor/scalar/basic.py, math.py:
    // `name=` of each instance; RoundHalfToEven has none, so its class name).
    void names() {
        for (const Unary& u : unaries()) {
            QCOMPARE(scalarOpName(u.code), std::string(u.inner));
            QCOMPARE(elemwiseOpName(u.code), std::string(u.outer));
            QCOMPARE(Elemwise(u.code).name(), std::string(u.outer));
            QCOMPARE(parseScalarOp(u.inner), std::optional<C>(u.code));
            QCOMPARE(scalarOpInfo(u.code).arity, 1);
        }
        QCOMPARE(parseScalarOp("round_half_to_even"), std::optional<C>(C::RoundHalfToEven));
        QCOMPARE(elemwiseOpName(C::ArcTan2), std::string("Arctan2"));
        QCOMPARE(scalarOpName(C::ArcTan2), std::string("arctan2"));
        QCOMPARE(elemwiseOpName(C::Clip), std::string("Clip"));
        QCOMPARE(scalarOpName(C::Clip), std::string("clip"));
        QVERIFY(scalarArityOk(C::Clip, 3) && !scalarArityOk(C::Clip, 2));
        QVERIFY(scalarArityOk(C::ArcTan2, 2) && !scalarArityOk(C::ArcTan2, 3));
        QVERIFY(scalarArityOk(C::Add, 1) && scalarArityOk(C::Mul, 5) && !scalarArityOk(C::Mul, 0));
    }

    // PyTensor's rewrites build add and mul of a single term (local_opt_alloc's Mul of one
    // input): the node is its input, in the output dtype, fused or not.
    void singleTermAddMul() {
        GraphBuilder gb;
        Var x = gb.input("x", DType::Int8, {3});
        Var f = gb.input("f", DType::Float64, {3});
        Var m = gb.apply1(makeElemwise(C::Mul), {x});
        Var a = gb.apply1(makeElemwise(C::Add), {f});
        QCOMPARE(m.dtype(), DType::Int8);
        auto g = gb.finish({m, a, exp(a) * 2.0});
        const std::vector<NDArray> ins = {vec(DType::Int8, {-4, 1, 9}), vec(DType::Float64, {0.5, -1, 2})};
        const auto out = runGraph(*g, ins).outputs;
        TL_COMPARE_ARRAYS(out.at(0), vec(DType::Int8, {-4, 1, 9}), 0, 0);
        TL_COMPARE_ARRAYS(out.at(1), vec(DType::Float64, {0.5, -1, 2}), 0, 0);
        // exp is SLEEF's in the fused loop: within its 2-ULP bound of the C library.
        TL_COMPARE_ARRAYS(out.at(2), vec(DType::Float64, {2 * std::exp(0.5), 2 * std::exp(-1.0), 2 * std::exp(2.0)}), 1e-15, 0);
        GraphBuilder bad;
        bool threw = false;
        try {
            bad.apply1(makeElemwise(C::Mul), {});
        } catch (const std::exception& e) {
            threw = QString(e.what()).contains("one or more");
        }
        QVERIFY(threw);
    }

    // PyTensor's output_types_preference of each op.
    void outputDTypes() {
        using D = DType;
        // upgrade_to_float(_no_complex): small ints and bool -> float32, wide ints -> float64.
        for (C c : {C::Floor, C::Ceil, C::Reciprocal, C::Erf, C::Erfc, C::Sinh, C::Cosh, C::Tan, C::ArcSin, C::ArcCos,
                    C::ArcTan, C::Log2, C::Log10, C::Exp2}) {
            QCOMPARE(outDType(c, {D::Int8}), D::Float32);
            QCOMPARE(outDType(c, {D::UInt8}), D::Float32);
            QCOMPARE(outDType(c, {D::Bool}), D::Float32);
            QCOMPARE(outDType(c, {D::Int32}), D::Float64);
            QCOMPARE(outDType(c, {D::Int64}), D::Float64);
            QCOMPARE(outDType(c, {D::Float32}), D::Float32);
            QCOMPARE(outDType(c, {D::Float64}), D::Float64);
        }
        // sign keeps the dtype and rejects bool; round_half_to_even takes floats only.
        QCOMPARE(outDType(C::Sign, {D::Int8}), D::Int8);
        QCOMPARE(outDType(C::Sign, {D::UInt8}), D::UInt8);
        QCOMPARE(outDType(C::Sign, {D::Float32}), D::Float32);
        QVERIFY_THROWS_EXCEPTION(OpTypeError, outDType(C::Sign, {D::Bool}));
        QCOMPARE(outDType(C::RoundHalfToEven, {D::Float32}), D::Float32);
        QVERIFY_THROWS_EXCEPTION(OpTypeError, outDType(C::RoundHalfToEven, {D::Int64}));
        // arctan2 upgrades each input, then upcasts; clip upcasts.
        QCOMPARE(outDType(C::ArcTan2, {D::Int8, D::Int8}), D::Float32);
        QCOMPARE(outDType(C::ArcTan2, {D::Int8, D::Float32}), D::Float32);
        QCOMPARE(outDType(C::ArcTan2, {D::Int32, D::Float32}), D::Float64);
        QCOMPARE(outDType(C::Clip, {D::Int8, D::Int8, D::Int16}), D::Int16);
        QCOMPARE(outDType(C::Clip, {D::Float32, D::Int8, D::Int8}), D::Float32);
        QCOMPARE(outDType(C::Clip, {D::Int32, D::Float32, D::Float32}), D::Float64);
        // Through the builder, on a graph.
        GraphBuilder b;
        Var i = b.input("i", D::Int16, {3});
        QCOMPARE(floor(i).dtype(), D::Float32);
        QCOMPARE(sign(i).dtype(), D::Int16);
        QVERIFY_THROWS_EXCEPTION(std::exception, roundHalfToEven(i));
        QCOMPARE(clip(i, 0, 5).dtype(), D::Int16);
    }

    void floatKernels_data() {
        QTest::addColumn<int>("op");
        for (size_t k = 0; k < unaries().size(); ++k) QTest::newRow(unaries()[k].inner) << static_cast<int>(k);
    }
    // Every edge value, float64 and float32, against the C library in the same precision.
    void floatKernels() {
        QFETCH(int, op);
        const Unary& u = unaries()[static_cast<size_t>(op)];
        QCOMPARE(std::fegetround(), FE_TONEAREST);
        std::vector<double> want64, want32;
        for (double v : kEdges) {
            want64.push_back(u.ref64(v));
            want32.push_back(static_cast<double>(u.ref32(static_cast<float>(v))));
        }
        const NDArray got64 = runUnary(u.build, DType::Float64, kEdges);
        QCOMPARE(got64.dtype(), DType::Float64);
        // The transcendental ones run on SLEEF's vector functions: within 3 ULP of the
        // C library (docs/performance.md#vectorised-math-and-threads), special values exact.
        TL_COMPARE_ARRAYS(got64, vec(DType::Float64, want64), kVectorMathRtol64, 0);
        const NDArray got32 = runUnary(u.build, DType::Float32, kEdges);
        QCOMPARE(got32.dtype(), DType::Float32);
        TL_COMPARE_ARRAYS(got32, vec(DType::Float32, want32), kVectorMathRtol32, 0);
        // The sign of zero where the op keeps it: floor/ceil/round of -0.0 is -0.0.
        if (u.code == C::Floor || u.code == C::Ceil || u.code == C::RoundHalfToEven) QVERIFY(std::signbit(got64.flatGet(1)));
    }

    // Halfway values: to the even neighbour, also for big and negative ones.
    void roundHalfToEvenTies() {
        const std::vector<double> in = {0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 1e15 + 0.5, 4503599627370495.5, -3.5, 2.4999999999999996};
        const std::vector<double> want = {0, 2, 2, -0, -2, -2, 1e15, 4503599627370496.0, -4, 2};
        TL_COMPARE_ARRAYS(runUnary(&roundHalfToEven, DType::Float64, in), vec(DType::Float64, want), 0, 0);
        TL_COMPARE_ARRAYS(runUnary(&roundHalfToEven, DType::Float32, {0.5, 1.5, 2.5, -2.5, 8388607.5}),
                          vec(DType::Float32, {0, 2, 2, -2, 8388608}), 0, 0);
    }

    // Integer inputs: sign keeps the dtype (0, ±1, also at the extremes); the
    // upgrading ops compute in float32/float64 what they compute for the same floats.
    void integerKernels() {
        const std::vector<double> i8 = {0, 1, -1, 5, -7, 127, -128};
        TL_COMPARE_ARRAYS(runUnary(&sign, DType::Int8, i8), vec(DType::Int8, {0, 1, -1, 1, -1, 1, -1}), 0, 0);
        QCOMPARE(runUnary(&sign, DType::Int8, i8).dtype(), DType::Int8);
        TL_COMPARE_ARRAYS(runUnary(&sign, DType::UInt8, {0, 1, 255}), vec(DType::UInt8, {0, 1, 1}), 0, 0);
        const std::vector<double> i64 = {0, -9223372036854775808.0, 9223372036854774784.0, -3};
        TL_COMPARE_ARRAYS(runUnary(&sign, DType::Int64, i64), vec(DType::Int64, {0, -1, 1, -1}), 0, 0);
        for (const Unary& u : unaries()) {
            if (u.code == C::Sign || u.code == C::RoundHalfToEven) continue;
            for (DType d : {DType::Int8, DType::UInt8, DType::Int32, DType::Bool}) {
                std::vector<double> in = d == DType::Bool ? std::vector<double>{0, 1}
                                         : d == DType::UInt8 ? std::vector<double>{0, 1, 3, 200}
                                                             : std::vector<double>{0, 1, -1, 3, -100, 100};
                const NDArray got = runUnary(u.build, d, in);
                const DType od = outDType(u.code, {d});
                QCOMPARE(got.dtype(), od);
                std::vector<double> want;
                for (double v : in)
                    want.push_back(od == DType::Float32 ? static_cast<double>(u.ref32(static_cast<float>(v))) : u.ref64(v));
                const std::string msg = compareArrays(got, vec(od, want), od == DType::Float32 ? kVectorMathRtol32 : kVectorMathRtol64, 0);
                QVERIFY2(msg.empty(), (std::string(u.inner) + " of " + std::string(dtypeName(d)) + ": " + msg).c_str());
            }
        }
        // floor of an int32 is a float64 holding the same integer.
        TL_COMPARE_ARRAYS(runUnary(unaryOf(C::Floor).build, DType::Int32, {2147483647, -2147483648.0}),
                          vec(DType::Float64, {2147483647, -2147483648.0}), 0, 0);
    }

    void arctan2Kernel() {
        const std::vector<double> a = {0, -0.0, 1, -1, 0, 1, kInf, -kInf, kNaN, 3, 0, -0.0};
        const std::vector<double> b = {1, 1, 0, 0, -1, -kInf, kInf, kInf, 1, kNaN, -0.0, -0.0};
        auto run = [&](DType da, DType db, const std::vector<double>& av, const std::vector<double>& bv) {
            GraphBuilder gb;
            Var x = gb.input("a", da, {static_cast<int64_t>(av.size())});
            Var y = gb.input("b", db, {static_cast<int64_t>(bv.size())});
            auto g = gb.finish({arctan2(x, y)});
            return runGraph(*g, std::vector<NDArray>{vec(da, av), vec(db, bv)}).outputs.at(0);
        };
        std::vector<double> want64, want32;
        for (size_t i = 0; i < a.size(); ++i) {
            want64.push_back(std::atan2(a[i], b[i]));
            want32.push_back(static_cast<double>(std::atan2(static_cast<float>(a[i]), static_cast<float>(b[i]))));
        }
        const NDArray r64 = run(DType::Float64, DType::Float64, a, b);
        TL_COMPARE_ARRAYS(r64, vec(DType::Float64, want64), 0, 0);
        QVERIFY(std::signbit(r64.flatGet(1)) && std::signbit(r64.flatGet(11)));
        TL_COMPARE_ARRAYS(run(DType::Float32, DType::Float32, a, b), vec(DType::Float32, want32), kVectorMathRtol32, 0);
        // int8 with int8 -> float32.
        const std::vector<double> ia = {1, -1, 0, 100}, ib = {1, 2, -3, 0};
        std::vector<double> wi;
        for (size_t i = 0; i < ia.size(); ++i)
            wi.push_back(static_cast<double>(std::atan2(static_cast<float>(ia[i]), static_cast<float>(ib[i]))));
        const NDArray ri = run(DType::Int8, DType::Int8, ia, ib);
        QCOMPARE(ri.dtype(), DType::Float32);
        TL_COMPARE_ARRAYS(ri, vec(DType::Float32, wi), kVectorMathRtol32, 0);
    }

    void clipKernel() {
        auto run = [&](DType d, const std::vector<double>& x, double lo, double hi) {
            GraphBuilder gb;
            Var v = gb.input("x", d, {static_cast<int64_t>(x.size())});
            Var l = gb.input("lo", d, {});
            Var h = gb.input("hi", d, {});
            auto g = gb.finish({clip(v, l, h)});
            return runGraph(*g, std::vector<NDArray>{vec(d, x), NDArray::scalar(d, lo), NDArray::scalar(d, hi)}).outputs.at(0);
        };
        const std::vector<double> x = {-5, -1, 0, 0.5, 1, 2, kNaN, kInf, -kInf};
        TL_COMPARE_ARRAYS(run(DType::Float64, x, -1, 1), vec(DType::Float64, {-1, -1, 0, 0.5, 1, 1, kNaN, 1, -1}), 0, 0);
        TL_COMPARE_ARRAYS(run(DType::Float32, x, -1, 1), vec(DType::Float32, {-1, -1, 0, 0.5, 1, 1, kNaN, 1, -1}), 0, 0);
        // lo > hi: lo wins (PyTensor's C code tests x < lo first).
        TL_COMPARE_ARRAYS(run(DType::Float64, {-3, 0, 3}, 1, -1), vec(DType::Float64, {1, 1, -1}), 0, 0);
        TL_COMPARE_ARRAYS(run(DType::Int8, {-128, -3, 0, 7, 127}, -2, 5), vec(DType::Int8, {-2, -2, 0, 5, 5}), 0, 0);
        TL_COMPARE_ARRAYS(run(DType::UInt8, {0, 3, 255}, 2, 200), vec(DType::UInt8, {2, 3, 200}), 0, 0);
        // Mixed dtypes upcast: int8 x with float32 bounds is float32.
        GraphBuilder gb;
        Var v = gb.input("x", DType::Int8, {3});
        Var c = clip(v, 0.5, 2.5);
        QCOMPARE(c.dtype(), DType::Float32);
        auto g = gb.finish({c});
        const NDArray in = vec(DType::Int8, {-4, 1, 9});
        TL_COMPARE_ARRAYS(runGraph(*g, std::span<const NDArray>(&in, 1)).outputs.at(0), vec(DType::Float32, {0.5, 1, 2.5}), 0, 0);
    }
};

TL_TEST_SUITE(TestScalarOpsExtra)
#include "tst_scalar_ops_extra.moc"
