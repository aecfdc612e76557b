// The widened scalar vocabulary (sign, floor, ceil, round_half_to_even, reciprocal,
// erf, erfc, sinh, cosh, tan, arcsin, arccos, arctan, log2, log10, exp2, arctan2,
// clip): PyTensor's names, output dtypes, kernels against the C library on edge
// values (0, -0, halves, NaN, ±inf) for float and int inputs, forward derivatives
// against central differences, fusion, and the dprint print -> import -> print trip.
#include "FusionTestUtil.h"
#include "RewriteCheck.h"
#include "TestSupport.h"

#include "builder/Math.h"
#include "exec/Executor.h"
#include "io/DPrint.h"
#include "io/DPrintImport.h"
#include "io/JsonGraph.h"
#include "ops/Composite.h"
#include "ops/Elemwise.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <cfenv>
#include <cmath>
#include <functional>
#include <limits>

using namespace tl;
using namespace tl::test;
using C = ScalarOpCode;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Unary {
    C code;
    const char* inner;  // str(scalar_op), printed inside Composites
    const char* outer;  // str(Elemwise) == inner.capitalize()
    Var (*build)(const Var&);
    double (*ref64)(double);
    float (*ref32)(float);
};

// The C library's functions as the references (the kernels must agree with them).
const std::vector<Unary>& unaries() {
    static const std::vector<Unary> v = {
        {C::Sign, "sign", "Sign", &sign, [](double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : std::isnan(x) ? x : 0.0; },
         [](float x) { return x > 0 ? 1.0f : x < 0 ? -1.0f : std::isnan(x) ? x : 0.0f; }},
        {C::Floor, "floor", "Floor", &floor, [](double x) { return std::floor(x); }, [](float x) { return std::floor(x); }},
        {C::Ceil, "ceil", "Ceil", &ceil, [](double x) { return std::ceil(x); }, [](float x) { return std::ceil(x); }},
        // nearbyint under the default FE_TONEAREST mode is round-half-to-even.
        {C::RoundHalfToEven, "RoundHalfToEven", "Roundhalftoeven", &roundHalfToEven,
         [](double x) { return std::nearbyint(x); }, [](float x) { return std::nearbyint(x); }},
        {C::Reciprocal, "reciprocal", "Reciprocal", &reciprocal, [](double x) { return 1.0 / x; },
         [](float x) { return 1.0f / x; }},
        {C::Erf, "erf", "Erf", &erf, [](double x) { return std::erf(x); }, [](float x) { return std::erf(x); }},
        {C::Erfc, "erfc", "Erfc", &erfc, [](double x) { return std::erfc(x); }, [](float x) { return std::erfc(x); }},
        {C::Sinh, "sinh", "Sinh", &sinh, [](double x) { return std::sinh(x); }, [](float x) { return std::sinh(x); }},
        {C::Cosh, "cosh", "Cosh", &cosh, [](double x) { return std::cosh(x); }, [](float x) { return std::cosh(x); }},
        {C::Tan, "tan", "Tan", &tan, [](double x) { return std::tan(x); }, [](float x) { return std::tan(x); }},
        {C::ArcSin, "arcsin", "Arcsin", &arcsin, [](double x) { return std::asin(x); }, [](float x) { return std::asin(x); }},
        {C::ArcCos, "arccos", "Arccos", &arccos, [](double x) { return std::acos(x); }, [](float x) { return std::acos(x); }},
        {C::ArcTan, "arctan", "Arctan", &arctan, [](double x) { return std::atan(x); }, [](float x) { return std::atan(x); }},
        {C::Log2, "log2", "Log2", &log2, [](double x) { return std::log2(x); }, [](float x) { return std::log2(x); }},
        {C::Log10, "log10", "Log10", &log10, [](double x) { return std::log10(x); }, [](float x) { return std::log10(x); }},
        {C::Exp2, "exp2", "Exp2", &exp2, [](double x) { return std::exp2(x); }, [](float x) { return std::exp2(x); }},
    };
    return v;
}

const Unary& unaryOf(C code) {
    for (const Unary& u : unaries())
        if (u.code == code) return u;
    throw std::logic_error("not a new unary op");
}

// 0, -0, halves (ties for rounding), integers, domain edges, NaN and ±inf.
const std::vector<double> kEdges = {0.0,  -0.0, 0.5,  -0.5, 1.5,   -1.5,  2.5,  -2.5, 3.5,  0.49999999999999994,
                                    1.0,  -1.0, 0.3,  -0.7, 3.7,   -3.7,  100., 1e-300, -1e300, 7.0,
                                    kNaN, kInf, -kInf};

NDArray vec(DType d, const std::vector<double>& v) { return NDArray::fromVector(d, {static_cast<int64_t>(v.size())}, v); }

// Runs f on one vector input of dtype `d` holding `values`.
NDArray runUnary(const std::function<Var(const Var&)>& f, DType d, const std::vector<double>& values) {
    GraphBuilder b;
    Var x = b.input("x", d, {static_cast<int64_t>(values.size())});
    auto g = b.finish({f(x)});
    const NDArray in = vec(d, values);
    return runGraph(*g, std::span<const NDArray>(&in, 1)).outputs.at(0);
}

DType outDType(C code, std::vector<DType> ins) { return scalarOutputDType(code, ins); }

// Graph outputs' tangents by Op::rop on the node of y against (f(x+h dx) - f(x-h dx)) / 2h.
void checkRop(const std::vector<std::vector<double>>& xs, const std::vector<bool>& hasTangent,
              const std::function<Var(const std::vector<Var>&)>& f, double rtol) {
    const int64_t n = static_cast<int64_t>(xs[0].size());
    GraphBuilder b;
    std::vector<Var> ins, tans;
    for (size_t i = 0; i < xs.size(); ++i) ins.push_back(b.input("x" + std::to_string(i), DType::Float64, {n}));
    for (size_t i = 0; i < xs.size(); ++i) tans.push_back(b.input("d" + std::to_string(i), DType::Float64, {n}));
    Var y = f(ins);
    const Node& node = *y->owner();
    std::vector<Variable*> tv;
    for (Variable* in : node.inputs()) {
        Variable* t = nullptr;
        for (size_t i = 0; i < ins.size(); ++i)
            if (in == ins[i].get() && hasTangent[i]) t = tans[i].get();
        tv.push_back(t);
    }
    std::vector<Variable*> r = node.op().rop(b, node, tv);
    QCOMPARE(r.size(), size_t(1));
    QVERIFY2(r[0], "expected a non-zero tangent");
    auto g = b.finish({y, b.wrap(r[0])});
    std::vector<std::vector<double>> dirs;
    for (size_t i = 0; i < xs.size(); ++i) {
        std::vector<double> d;
        for (int64_t k = 0; k < n; ++k) d.push_back(0.3 + 0.17 * static_cast<double>(k) - 0.4 * static_cast<double>(i));
        dirs.push_back(d);
    }
    const double h = 1e-6;
    auto eval = [&](double s) {
        std::vector<NDArray> args;
        for (size_t i = 0; i < xs.size(); ++i) {
            std::vector<double> v = xs[i];
            if (hasTangent[i])
                for (int64_t k = 0; k < n; ++k) v[static_cast<size_t>(k)] += s * dirs[i][static_cast<size_t>(k)];
            args.push_back(vec(DType::Float64, v));
        }
        for (size_t i = 0; i < xs.size(); ++i) args.push_back(vec(DType::Float64, dirs[i]));
        return runGraph(*g, args).outputs;
    };
    const auto at = eval(0), plus = eval(h), minus = eval(-h);
    std::vector<double> fd;
    for (int64_t k = 0; k < n; ++k) fd.push_back((plus[0].flatGet(k) - minus[0].flatGet(k)) / (2 * h));
    TL_COMPARE_ARRAYS(at[1], vec(DType::Float64, fd), rtol, 1e-7);
}

Pipeline fusionOnly() {
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(makeElemwiseFusion());
    return singlePhase("fusion", std::move(passes));
}

DPrintOptions allOptions() {
    DPrintOptions o;
    o.printType = true;
    o.printShape = true;
    o.printDestroyMap = true;
    o.printViewMap = true;
    o.printOpInfo = true;
    o.printTopoIndex = true;
    return o;
}

// Prints g, imports the text, prints it again: the same text; both graphs compute the same numbers.
void dprintRoundTrip(const Graph& g, const std::vector<NDArray>& inputs, DPrintOptions opts) {
    const std::string text = dprint(g, opts);
    DPrintImport imp;
    try {
        imp = importDprint(text);
    } catch (const std::exception& e) {
        QFAIL((std::string(e.what()) + "\n" + text).c_str());
    }
    opts.topoIndexOverride = &imp.topoIndex;
    const std::string again = dprint(*imp.graph, opts);
    std::string notes;
    for (const auto& s : imp.notes) notes += s + "\n";
    QVERIFY2(again == text, ("--- printed:\n" + text + "--- back:\n" + again + "--- notes:\n" + notes).c_str());
    const auto problems = imp.graph->validate();
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
    QCOMPARE(imp.graph->inputs().size(), g.inputs().size());
    const RunResult ra = runGraph(g, inputs), rb = runGraph(*imp.graph, inputs);
    QCOMPARE(rb.outputs.size(), ra.outputs.size());
    for (size_t i = 0; i < ra.outputs.size(); ++i) {
        QCOMPARE(rb.outputs[i].dtype(), ra.outputs[i].dtype());
        TL_COMPARE_ARRAYS(rb.outputs[i], ra.outputs[i], 0, 0);
    }
}

} // namespace

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
        TL_COMPARE_ARRAYS(got64, vec(DType::Float64, want64), 0, 0);
        const NDArray got32 = runUnary(u.build, DType::Float32, kEdges);
        QCOMPARE(got32.dtype(), DType::Float32);
        TL_COMPARE_ARRAYS(got32, vec(DType::Float32, want32), 0, 0);
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
                const std::string msg = compareArrays(got, vec(od, want), 0, 0);
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
        TL_COMPARE_ARRAYS(run(DType::Float32, DType::Float32, a, b), vec(DType::Float32, want32), 0, 0);
        // int8 with int8 -> float32.
        const std::vector<double> ia = {1, -1, 0, 100}, ib = {1, 2, -3, 0};
        std::vector<double> wi;
        for (size_t i = 0; i < ia.size(); ++i)
            wi.push_back(static_cast<double>(std::atan2(static_cast<float>(ia[i]), static_cast<float>(ib[i]))));
        const NDArray ri = run(DType::Int8, DType::Int8, ia, ib);
        QCOMPARE(ri.dtype(), DType::Float32);
        TL_COMPARE_ARRAYS(ri, vec(DType::Float32, wi), 0, 0);
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

    void ropVsFiniteDifferences_data() {
        QTest::addColumn<int>("code");
        QTest::addColumn<QList<double>>("x");
        const QList<double> wide = {-2.3, -1.1, -0.4, 0.2, 0.9, 1.7, 2.6};
        const QList<double> unit = {-0.9, -0.6, -0.2, 0.1, 0.4, 0.7, 0.85};
        const QList<double> pos = {0.05, 0.3, 0.9, 1.6, 4.0, 10.0, 123.0};
        QTest::newRow("reciprocal") << static_cast<int>(C::Reciprocal) << QList<double>{-3, -0.5, 0.2, 0.7, 1.5, 4, 9};
        QTest::newRow("erf") << static_cast<int>(C::Erf) << wide;
        QTest::newRow("erfc") << static_cast<int>(C::Erfc) << wide;
        QTest::newRow("sinh") << static_cast<int>(C::Sinh) << wide;
        QTest::newRow("cosh") << static_cast<int>(C::Cosh) << wide;
        QTest::newRow("tan") << static_cast<int>(C::Tan) << QList<double>{-1.2, -0.7, -0.1, 0.3, 0.8, 1.1, 1.4};
        QTest::newRow("arcsin") << static_cast<int>(C::ArcSin) << unit;
        QTest::newRow("arccos") << static_cast<int>(C::ArcCos) << unit;
        QTest::newRow("arctan") << static_cast<int>(C::ArcTan) << wide;
        QTest::newRow("log2") << static_cast<int>(C::Log2) << pos;
        QTest::newRow("log10") << static_cast<int>(C::Log10) << pos;
        QTest::newRow("exp2") << static_cast<int>(C::Exp2) << wide;
    }
    void ropVsFiniteDifferences() {
        QFETCH(int, code);
        QFETCH(QList<double>, x);
        const Unary& u = unaryOf(static_cast<C>(code));
        checkRop({std::vector<double>(x.begin(), x.end())}, {true}, [&](const std::vector<Var>& v) { return u.build(v[0]); },
                 1e-6);
    }

    void ropBinaryTernary() {
        const std::vector<double> a = {-2, -0.5, 0.3, 1.2, 2.2, -1.4, 0.8};
        const std::vector<double> b = {1.5, -0.7, -2.0, 0.4, 3.0, -1.1, 0.9};
        for (auto has : {std::vector<bool>{true, true}, {true, false}, {false, true}})
            checkRop({a, b}, has, [](const std::vector<Var>& v) { return arctan2(v[0], v[1]); }, 1e-6);
        // x inside, below and above [lo, hi] (away from the kinks).
        const std::vector<double> x = {-3, -0.5, 0.2, 0.9, 2.5, 1.7, -1.8};
        const std::vector<double> lo = {-1, -1, -0.4, 0.1, -1, 0.3, -2.5};
        const std::vector<double> hi = {1, 1, 0.5, 0.5, 1, 1.2, -1.0};
        for (auto has : {std::vector<bool>{true, true, true}, {true, false, false}, {false, true, false}, {false, false, true}})
            checkRop({x, lo, hi}, has, [](const std::vector<Var>& v) { return clip(v[0], v[1], v[2]); }, 1e-6);
    }

    // The piecewise-constant ops have a zero derivative (no tangent), as PyTensor's grad.
    void ropZeroForPiecewiseConstant() {
        for (C c : {C::Sign, C::Floor, C::Ceil, C::RoundHalfToEven}) {
            GraphBuilder b;
            Var x = b.input("x", DType::Float64, {4});
            Var dx = b.input("dx", DType::Float64, {4});
            Var y = unaryOf(c).build(x);
            const std::vector<Variable*> tv = {dx.get()};
            std::vector<Variable*> r = y->owner()->op().rop(b, *y->owner(), tv);
            QCOMPARE(r.size(), size_t(1));
            QVERIFY2(r[0] == nullptr, scalarOpName(c).c_str());
            QVERIFY(!scalarOpDifferentiable(c, DType::Float64));
        }
    }

    // Chains of the new ops fuse into one Composite that computes the same numbers
    // (rewriteAndCompare runs before and after), its rop included.
    void fusion() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {9});
        Var y = b.input("y", DType::Float64, {9});
        Var u = tan(arctan(x)) + sinh(x) * cosh(y) - erf(x) * erfc(y) + log2(exp2(y)) - log10(abs(x) + 1);
        Var v = arcsin(clip(x, -0.9, 0.9)) + arccos(clip(y, -0.5, 0.5)) + arctan2(x, y) + reciprocal(y + 10);
        Var w = sign(x) * floor(y) + ceil(x) - roundHalfToEven(y * 2);
        auto g = b.finish({u + v + w});
        RewriteOutcome r = rewriteAndCompare(*g, fusionOnly(), {}, 3, 1e-14, 0.0);
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(countElemwise(*r.after), 1);
        QCOMPARE(countComposites(*r.after), 1);
        for (C c : {C::Tan, C::Sinh, C::Erfc, C::Log10, C::Clip, C::ArcTan2, C::Sign, C::Floor, C::RoundHalfToEven})
            QVERIFY2(scalarOpCount(*r.after, c) >= 1, scalarOpName(c).c_str());
    }

    // Every new op as an Elemwise and inside a Composite prints, imports and prints
    // back the same listing; the imported graph computes the same numbers.
    void dprintRoundTripElemwise() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {5});
        Var lo = b.input("lo", DType::Float64, {5});
        Var hi = b.input("hi", DType::Float64, {5});
        Var i = b.input("i", DType::Int8, {5});
        std::vector<Var> outs;
        for (const Unary& u : unaries()) outs.push_back(u.build(x));
        outs.push_back(arctan2(x, lo));
        outs.push_back(clip(x, lo, hi));
        outs.push_back(sign(i));
        outs.push_back(floor(i));
        outs.push_back(clip(i, i, i));
        auto g = b.finish(outs);
        const std::string text = dprint(*g, allOptions());
        for (const char* name : {"Sign", "Roundhalftoeven", "Arcsin", "Arctan2", "Clip", "Log10", "Exp2", "Reciprocal"})
            QVERIFY2(text.find(std::string(name) + " [id") != std::string::npos, name);
        const std::vector<NDArray> in = {vec(DType::Float64, {-2.5, -0.3, 0.0, 0.5, 3.7}),
                                         vec(DType::Float64, {-1, -1, 0.1, 0.2, 1}), vec(DType::Float64, {1, 0, 0.2, 0.4, 2}),
                                         vec(DType::Int8, {-3, 0, 1, 5, -128})};
        dprintRoundTrip(*g, in, allOptions());
        DPrintOptions typed;
        typed.printType = true;
        dprintRoundTrip(*g, in, typed);
    }

    // The graph format keeps the new ops (keys "round_half_to_even", "clip", ...) and
    // the loaded graph computes the same numbers.
    void jsonRoundTrip() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float32, {4});
        Var y = b.input("y", DType::Float32, {4});
        std::vector<Var> outs;
        for (const Unary& u : unaries()) outs.push_back(u.build(x));
        outs.push_back(arctan2(x, y));
        outs.push_back(clip(x, y, x + 1));
        outs.push_back(b.apply1(compositeOp(2, [](const std::vector<Var>& v) {
                                    return std::vector<Var>{clip(roundHalfToEven(v[0]), sign(v[1]), exp2(v[1]))};
                                }),
                                {cast(x, DType::Float64), cast(y, DType::Float64)}));
        auto g = b.finish(outs);
        const std::string text = graphToJsonText(*g);
        QVERIFY(text.find("\"round_half_to_even\"") != std::string::npos);
        auto back = graphFromJsonText(text);
        QCOMPARE(graphToJsonText(*back), text);
        const std::vector<NDArray> in = {vec(DType::Float32, {-1.5, 0.25, 2.5, 0.0}), vec(DType::Float32, {0.5, -2, 1, -0.0})};
        const RunResult ra = runGraph(*g, in), rb = runGraph(*back, in);
        QCOMPARE(rb.outputs.size(), ra.outputs.size());
        for (size_t i = 0; i < ra.outputs.size(); ++i) {
            QCOMPARE(rb.outputs[i].dtype(), ra.outputs[i].dtype());
            TL_COMPARE_ARRAYS(rb.outputs[i], ra.outputs[i], 0, 0);
        }
    }

    void dprintRoundTripComposite() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {5});
        Var y = b.input("y", DType::Float64, {5});
        Var z = b.input("z", DType::Float64, {5});
        std::vector<Var> outs;
        for (const Unary& u : unaries())
            outs.push_back(b.apply1(compositeOp(2, [&u](const std::vector<Var>& v) { return std::vector<Var>{u.build(v[0]) * v[1]}; }),
                                    {x, y}));
        outs.push_back(b.apply1(compositeOp(2, [](const std::vector<Var>& v) { return std::vector<Var>{exp(arctan2(v[0], v[1]))}; }),
                                {x, y}));
        outs.push_back(b.apply1(compositeOp(3, [](const std::vector<Var>& v) {
                                    return std::vector<Var>{roundHalfToEven(clip(v[0], v[1], v[2]) + sign(v[0]))};
                                }),
                                {x, y, z}));
        auto g = b.finish(outs);
        const std::string text = dprint(*g, allOptions());
        // The Elemwise prints str(composite).capitalize(): RoundHalfToEven lower-cased, as PyTensor.
        for (const char* name : {"Composite{(sign(i0) * i1)}", "Composite{(roundhalftoeven(i0) * i1)}",
                                 "Composite{exp(arctan2(i0, i1))}", "Composite{roundhalftoeven((clip(i0, i1, i2) + sign(i0)))}",
                                 "Composite{(log10(i0) * i1)}"})
            QVERIFY2(text.find(name) != std::string::npos, (std::string(name) + "\n" + text).c_str());
        const std::vector<NDArray> in = {vec(DType::Float64, {-2.5, -0.3, 0.0, 0.5, 3.7}),
                                         vec(DType::Float64, {-1, -1, 0.1, 0.2, 1}), vec(DType::Float64, {1, 0, 0.2, 0.4, 2})};
        dprintRoundTrip(*g, in, allOptions());
        DPrintOptions typed;
        typed.printType = true;
        dprintRoundTrip(*g, in, typed);
    }
};

QTEST_GUILESS_MAIN(TestScalarOpsExtra)
#include "tst_scalar_ops_extra.moc"
