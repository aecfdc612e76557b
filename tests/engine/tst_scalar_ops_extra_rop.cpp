// The widened scalar vocabulary beyond its kernels (tst_scalar_ops_extra.cpp):
// forward derivatives against central differences, fusion into Composites, and
// the JSON and dprint print -> import -> print round trips with the same numbers.
#include "TestSuites.h"
#include "builder/rop/OpRop.h"
#include "FusionTestUtil.h"
#include "RewriteCheck.h"
#include "ScalarOpsExtraUtil.h"
#include "ScalarRopCheck.h"
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

#include <cmath>
#include <functional>

using namespace tl;
using namespace tl::test;

namespace {

Pipeline fusionOnly() {
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(makeElemwiseFusion());
    return singlePhase("fusion", std::move(passes));
}

} // namespace

class TestScalarOpsExtraRop : public QObject {
    Q_OBJECT
private slots:
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
            std::vector<Variable*> r = ropOfNode(b, *y->owner(), tv);
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

TL_TEST_SUITE(TestScalarOpsExtraRop)
#include "tst_scalar_ops_extra_rop.moc"
