// The scalar ops of tst_scalar_ops_pytensor_math.cpp beyond their kernels: forward
// derivatives (PyTensor's scalar gradients, which its Elemwise.R_op uses) against
// central differences, the inputs PyTensor has no gradient for, fusion of all of
// them into one Composite, and the dprint and JSON round trips.
#include "TestSuites.h"
#include "FusionTestUtil.h"
#include "RewriteCheck.h"
#include "ScalarRopCheck.h"

#include "builder/Math.h"
#include "io/JsonGraph.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

Pipeline fusionOnly() {
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(makeElemwiseFusion());
    return singlePhase("fusion", std::move(passes));
}

using Build = std::function<Var(const std::vector<Var>&)>;

// ropOfNode with a tangent on input `k` only; true when it throws std::logic_error.
bool ropRefused(const Build& f, int arity, int k) {
    GraphBuilder b;
    std::vector<Var> ins;
    for (int i = 0; i < arity; ++i) ins.push_back(b.input("x" + std::to_string(i), DType::Float64, {3}));
    Var dx = b.input("dx", DType::Float64, {3});
    Var y = f(ins);
    std::vector<Variable*> tv(static_cast<size_t>(y->owner()->numInputs()), nullptr);
    for (int i = 0; i < y->owner()->numInputs(); ++i)
        if (y->owner()->input(i) == ins[static_cast<size_t>(k)].get()) tv[static_cast<size_t>(i)] = dx.get();
    try {
        ropOfNode(b, *y->owner(), tv);
    } catch (const std::logic_error&) {
        return true;
    }
    return false;
}

} // namespace

class TestScalarOpsPytensorMathRop : public QObject {
    Q_OBJECT
private slots:
    void unaryRop_data() {
        QTest::addColumn<int>("code");
        QTest::addColumn<QList<double>>("x");
        const QList<double> wide = {-2.3, -1.1, -0.4, 0.2, 0.9, 1.7, 2.6};
        const QList<double> unit = {-0.9, -0.6, -0.2, 0.1, 0.4, 0.7, 0.85};
        const QList<double> pos = {0.05, 0.3, 0.9, 1.6, 4.0, 10.0, 23.0};
        auto row = [](const char* n, C c, const QList<double>& x) { QTest::newRow(n) << static_cast<int>(c) << x; };
        row("deg2rad", C::Deg2Rad, wide);
        row("rad2deg", C::Rad2Deg, wide);
        row("arccosh", C::ArcCosh, {1.1, 1.5, 2.0, 3.3, 7.0, 12.0, 40.0});
        row("arcsinh", C::ArcSinh, wide);
        row("arctanh", C::ArcTanh, unit);
        row("erfcx", C::Erfcx, wide);
        row("erfinv", C::Erfinv, unit);
        row("erfcinv", C::Erfcinv, {0.05, 0.3, 0.7, 1.0, 1.3, 1.6, 1.95});
        row("gamma", C::Gamma, {0.3, 0.9, 1.6, 2.5, 4.0, -0.5, -1.5});
        row("gammaln", C::GammaLn, pos);
        row("psi", C::Psi, pos);
        row("tri_gamma", C::TriGamma, pos);
        row("log1mexp", C::Log1mexp, {-5.0, -2.0, -0.9, -0.69, -0.5, -0.1, -0.01});
        row("j0", C::J0, wide);
        row("j1", C::J1, wide);
        row("i0", C::I0, wide);
        row("i1", C::I1, wide);
    }
    void unaryRop() {
        QFETCH(int, code);
        QFETCH(QList<double>, x);
        const auto c = static_cast<C>(code);
        checkRop({std::vector<double>(x.begin(), x.end())}, {true}, [&](const std::vector<Var>& v) { return applyScalar(c, {v[0]}); },
                 1e-6);
    }

    // Several inputs: the tangent of each input PyTensor differentiates.
    void multiInputRop() {
        const std::vector<double> k = {0.5, 1.2, 2.5, 3.0, 4.5, 0.8, 6.0};
        const std::vector<double> x = {0.3, 1.0, 2.2, 4.1, 3.3, 0.05, 7.5};
        const std::vector<double> p = {0.1, 0.3, 0.5, 0.6, 0.75, 0.9, 0.2};
        const std::vector<double> v = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.5};
        auto onX = [&](C c, const std::vector<double>& first, const std::vector<double>& second) {
            checkRop({first, second}, {false, true}, [c](const std::vector<Var>& a) { return applyScalar(c, {a[0], a[1]}); }, 1e-6);
        };
        onX(C::GammaInc, k, x);
        onX(C::GammaIncC, k, x);
        onX(C::GammaIncInv, k, p);
        onX(C::GammaIncCInv, k, p);
        onX(C::Jv, v, x);
        onX(C::Iv, v, x);
        onX(C::Ive, v, x);
        onX(C::Kve, v, x);
        for (auto has : {std::vector<bool>{true, true}, {true, false}, {false, true}})
            checkRop({std::vector<double>{-2, -0.7, 0.1, 0.5, 1.3, 2.2, 3.0}, std::vector<double>{0.2, -1.5, 0.7, 2.0, -0.3, 1.1, 4.0}}, has,
                     [](const std::vector<Var>& a) { return owensT(a[0], a[1]); }, 1e-6);
        const std::vector<double> a = {0.5, 1.0, 2.0, 3.5, 1.5, 5.0, 0.8}, bb = {1.5, 2.0, 0.7, 3.0, 4.0, 2.5, 1.2};
        checkRop({a, bb, p}, {false, false, true}, [](const std::vector<Var>& q) { return betainc(q[0], q[1], q[2]); }, 1e-6);
        checkRop({a, bb, p}, {false, false, true}, [](const std::vector<Var>& q) { return betaincinv(q[0], q[1], q[2]); }, 1e-6);
        const std::vector<double> c = {2.5, 3.0, 4.2, 5.0, 3.3, 7.0, 2.9};
        checkRop({a, bb, c, std::vector<double>{-0.8, -0.3, 0.1, 0.4, 0.6, 0.75, 0.5}}, {false, false, false, true},
                 [](const std::vector<Var>& q) { return hyp2f1(q[0], q[1], q[2], q[3]); }, 1e-6);
        // polygamma(n, x): the order is an integer constant.
        checkRop({x}, {true}, [](const std::vector<Var>& q) { return polygamma(q[0].builder().constant(2, DType::Int64), q[0]); }, 1e-6);
        // second(x, y): the tangent of y, broadcast.
        checkRop({x, p}, {false, true}, [](const std::vector<Var>& q) { return second(q[0], q[1]); }, 1e-9);
    }

    // Where PyTensor's gradient is a ScalarLoop tensorlens lacks, or undefined, a tangent is refused by name.
    void ropRefusedWherePytensorHasNone() {
        QVERIFY(ropRefused([](const std::vector<Var>& a) { return gammainc(a[0], a[1]); }, 2, 0));
        QVERIFY(ropRefused([](const std::vector<Var>& a) { return jv(a[0], a[1]); }, 2, 0));
        QVERIFY(ropRefused([](const std::vector<Var>& a) { return betainc(a[0], a[1], a[2]); }, 3, 1));
        QVERIFY(ropRefused([](const std::vector<Var>& a) { return hyp2f1(a[0], a[1], a[2], a[3]); }, 4, 2));
        QVERIFY(ropRefused([](const std::vector<Var>& a) { return gammau(a[0], a[1]); }, 2, 1));
        QVERIFY(!ropRefused([](const std::vector<Var>& a) { return gammainc(a[0], a[1]); }, 2, 1));
        // Truncation and the predicates have a zero derivative.
        for (C c : {C::Trunc, C::RoundHalfAwayFromZero}) QVERIFY(!scalarOpDifferentiable(c, DType::Float64));
    }

    // A chain of every new op fuses into one Composite computing the same numbers.
    void fusion() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {9});
        Var y = b.input("y", DType::Float64, {9});
        Var p = sigmoid(x);  // in (0, 1)
        Var q = exp(y) + 0.5;  // positive
        Var u = erfcx(x) + erfinv(p * 1.8 - 0.9) + erfcinv(p + 0.5) + gamma(q) + gammaln(q) + psi(q) + triGamma(q);
        Var v = gammainc(q, q) + gammaincc(q, p) + gammau(q, p) + gammal(q, p) + gammaincinv(q, p) + gammainccinv(q, p);
        Var w = j0(x) + j1(y) + jv(q, x) + i0(x) + i1(y) + iv(q, x) + ive(q, y) + kve(q, q) + owensT(x, y);
        Var z = betainc(q, q, p) + betaincinv(q, q, p) + hyp2f1(p, p, q + 2, p * 0.5) + log1mexp(-q) + deg2rad(x) + rad2deg(y);
        Var t = arcsinh(x) + arccosh(q + 1) + arctanh(p - 0.5) + trunc(x * 3) + roundHalfAwayFromZero(y * 3) +
                cast(isnan(log(x)), DType::Float64) + cast(isinf(1 / x), DType::Float64) + second(y, x);
        auto g = b.finish({u + v + w + z + t});
        RewriteOutcome r = rewriteAndCompare(*g, fusionOnly(), {}, 3, 1e-14, 0.0);
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(countElemwise(*r.after), 1);
        for (C c : {C::Erfcx, C::GammaU, C::Kve, C::OwensT, C::Hyp2F1, C::BetaIncInv, C::Log1mexp, C::IsInf, C::Second, C::Trunc})
            QVERIFY2(scalarOpCount(*r.after, c) >= 1, scalarOpName(c).c_str());
    }

    // As Elemwise nodes and inside a Composite: print, import, print the same text, same numbers.
    void dprintAndJsonRoundTrips() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {4});
        Var y = b.input("y", DType::Float64, {4});
        std::vector<Var> outs = {second(x, y), isnan(x), isinf(y), trunc(x), roundHalfAwayFromZero(y), deg2rad(x), rad2deg(y),
                                 arcsinh(x), gammaln(y), psi(y), erfcx(x), jv(x, y), owensT(x, y), betainc(x, y, x),
                                 hyp2f1(x, y, x, y), log1mexp(x), gammau(x, y)};
        auto g = b.finish(outs);
        const std::vector<NDArray> in = {vec(DType::Float64, {0.5, 1.5, 2.5, 3.5}), vec(DType::Float64, {-0.7, 0.2, 0.9, 4.0})};
        dprintRoundTrip(*g, in, allOptions());
        const std::string json = graphToJsonText(*g);
        auto loaded = graphFromJsonText(json);
        QCOMPARE(QString::fromStdString(graphToJsonText(*loaded)), QString::fromStdString(json));
        RewriteOutcome r = rewriteAndCompare(*g, fusionOnly(), {}, 3, 0, 0.0, &in);
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        dprintRoundTrip(*r.after, in, allOptions());  // the fused Composite{...} and its body
    }
};

TL_TEST_SUITE(TestScalarOpsPytensorMathRop)
#include "tst_scalar_ops_pytensor_math_rop.moc"
