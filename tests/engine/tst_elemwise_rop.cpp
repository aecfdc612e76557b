// Forward derivatives of Elemwise / Composite / ScalarOp against central finite
// differences, and the builder's math: PyTensor's constant dtypes, ExpandDims
// for lower ranks, operators, ScalarType graphs.
#include "TestSuites.h"
#include "builder/rop/OpRop.h"
#include "TestSupport.h"

#include "builder/Math.h"
#include "exec/Executor.h"
#include "ops/Composite.h"
#include "ops/DimShuffle.h"
#include "ops/Elemwise.h"

#include <QtTest>

#include <cmath>
#include <functional>

using namespace tl;
using C = ScalarOpCode;

namespace {

constexpr int64_t kN = 6;

NDArray vec(std::vector<double> v) { return NDArray::fromVector(DType::Float64, {static_cast<int64_t>(v.size())}, v); }

// x + s * d elementwise.
NDArray shifted(const NDArray& x, const NDArray& d, double s) {
    std::vector<double> v(static_cast<size_t>(x.size()));
    for (int64_t i = 0; i < x.size(); ++i) v[static_cast<size_t>(i)] = x.flatGet(i) + s * d.flatGet(i);
    return vec(v);
}

// Builds outs = f(inputs) and their tangents via ropOfNode on the node producing
// outs[0]; checks the tangents against (f(x + h dx) - f(x - h dx)) / 2h.
void checkRop(const std::vector<NDArray>& x, const std::vector<NDArray>& dx, const std::vector<bool>& hasTangent,
              const std::function<std::vector<Var>(const std::vector<Var>&)>& f, double rtol, double h = 1e-6) {
    GraphBuilder b;
    std::vector<Var> ins, tans;
    for (size_t i = 0; i < x.size(); ++i) ins.push_back(b.input("x" + std::to_string(i), DType::Float64, {kN}));
    for (size_t i = 0; i < x.size(); ++i) tans.push_back(b.input("dx" + std::to_string(i), DType::Float64, {kN}));
    std::vector<Var> outs = f(ins);
    const Node& node = *outs[0]->owner();
    std::vector<Variable*> tv;
    for (Variable* in : node.inputs()) {
        Variable* t = nullptr;
        for (size_t i = 0; i < ins.size(); ++i)
            if (in == ins[i].get() && hasTangent[i]) t = tans[i].get();
        tv.push_back(t);
    }
    std::vector<Variable*> r = ropOfNode(b, node, tv);
    QCOMPARE(r.size(), outs.size());
    std::vector<Var> all = outs;
    for (Variable* t : r) {
        QVERIFY2(t, "expected a non-zero tangent");
        all.push_back(b.wrap(t));
    }
    auto g = b.finish(all);
    auto eval = [&](double s) {
        std::vector<NDArray> args;
        for (size_t i = 0; i < x.size(); ++i) args.push_back(hasTangent[i] ? shifted(x[i], dx[i], s) : x[i]);
        for (size_t i = 0; i < x.size(); ++i) args.push_back(dx[i]);
        return runGraph(*g, args).outputs;
    };
    const std::vector<NDArray> at = eval(0.0), plus = eval(h), minus = eval(-h);
    for (size_t o = 0; o < outs.size(); ++o) {
        std::vector<double> fd(static_cast<size_t>(kN));
        for (int64_t i = 0; i < kN; ++i) fd[static_cast<size_t>(i)] = (plus[o].flatGet(i) - minus[o].flatGet(i)) / (2 * h);
        TL_COMPARE_ARRAYS(at[outs.size() + o].astype(DType::Float64), vec(fd), rtol, 1e-7);
    }
}

} // namespace

class TestElemwiseRop : public QObject {
    Q_OBJECT
private slots:
    void ropVsFiniteDifferences_data() {
        QTest::addColumn<int>("code");
        QTest::addColumn<int>("arity");
        QTest::addColumn<QList<double>>("x");  // values of every input (shifted per input)
        QTest::addColumn<bool>("onlyFirst");     // tangent on input 0 only
        const QList<double> any{-1.7, -0.6, 0.2, 0.9, 1.3, 2.4};
        const QList<double> pos{0.3, 0.7, 1.1, 1.9, 2.5, 3.2};
        auto row = [](const char* name, C c, int arity, QList<double> x, bool onlyFirst = false) {
            QTest::newRow(name) << static_cast<int>(c) << arity << x << onlyFirst;
        };
        row("add", C::Add, 3, any);
        row("sub", C::Sub, 2, any);
        row("mul", C::Mul, 3, any);
        row("mul one tangent", C::Mul, 2, any, true);
        row("true_div", C::TrueDiv, 2, pos);
        row("mod", C::Mod, 2, pos);
        row("neg", C::Neg, 1, any);
        row("abs", C::Abs, 1, any);
        row("exp", C::Exp, 1, any);
        row("log", C::Log, 1, pos);
        row("log1p", C::Log1p, 1, pos);
        row("expm1", C::Expm1, 1, any);
        row("sqrt", C::Sqrt, 1, pos);
        row("sqr", C::Sqr, 1, any);
        row("sin", C::Sin, 1, any);
        row("cos", C::Cos, 1, any);
        row("tanh", C::Tanh, 1, any);
        row("sigmoid", C::Sigmoid, 1, any);
        row("softplus", C::Softplus, 1, any);
        row("pow", C::Pow, 2, pos);
        row("maximum", C::Maximum, 2, any);
        row("minimum", C::Minimum, 2, any);
        row("identity", C::Identity, 1, any);
    }

    void ropVsFiniteDifferences() {
        QFETCH(int, code);
        QFETCH(int, arity);
        QFETCH(QList<double>, x);
        QFETCH(bool, onlyFirst);
        std::vector<NDArray> xs, dxs;
        for (int i = 0; i < arity; ++i) {
            std::vector<double> v;
            for (int k = 0; k < kN; ++k) v.push_back(x[(k + 2 * i) % kN] + 0.05 * i);  // distinct per input
            xs.push_back(vec(v));
            dxs.push_back(vec({0.5, -1.0, 0.75, 1.5, -0.25, 1.0}));
        }
        std::vector<bool> has(static_cast<size_t>(arity), !onlyFirst);
        has[0] = true;
        checkRop(xs, dxs, has, [&](const std::vector<Var>& in) { return std::vector<Var>{applyScalar(static_cast<C>(code), in)}; }, 1e-6);
    }

    void switchAndCastRop() {
        const NDArray x = vec({-1.5, -0.5, 0.5, 1.5, 2.5, -2.5}), y = vec({2, 3, 4, 5, 6, 7});
        const NDArray dx = vec({1, 2, 3, 4, 5, 6});
        checkRop({x, y}, {dx, dx}, {true, true}, [](const std::vector<Var>& in) {
            return std::vector<Var>{switch_(lt(in[0], 0), in[0], in[1])};
        }, 1e-6);
        checkRop({x}, {dx}, {true}, [](const std::vector<Var>& in) {
            return std::vector<Var>{applyScalar(C::Cast, {in[0]}, DType::Float32)};
        }, 1e-4, 1e-2);  // float32 output: a wide step (the function is linear)
    }

    // The fused seed step: both outputs' tangents, exp(x) shared.
    void compositeRop() {
        GraphBuilder sb;
        Var i0 = sb.placeholder(Type::scalar(DType::Float64)), i1 = sb.placeholder(Type::scalar(DType::Float64));
        Var e = exp(i0);
        OpPtr comp = makeCompositeElemwise(*sb.finish({e - sb.scalarConstant(5.0, DType::Float64), e * i1 + sqr(i1)}));
        const NDArray x = vec({-0.3, -0.1, 0.0, 0.1, 0.2, 0.3}), y = vec({1, 2, 3, -1, -2, 0.5});
        const NDArray d = vec({1, 1, 1, 0.5, 2, -1});
        checkRop({x, y}, {d, d}, {true, true}, [&](const std::vector<Var>& in) { return in[0].builder().apply(comp, in); }, 1e-6);
        checkRop({x, y}, {d, d}, {true, false}, [&](const std::vector<Var>& in) { return in[0].builder().apply(comp, in); }, 1e-6);
    }

    void zeroTangents() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {3}), dx = b.input("dx", DType::Float64, {3});
        Var k = b.input("k", DType::Int8, {3}), dk = b.input("dk", DType::Int8, {3});
        for (Var y : {lt(x, 1.0), intDiv(x, 2.0), eq(x, x)}) {
            std::vector<Variable*> t{dx.get(), dx.get()};
            QVERIFY(!ropOfNode(b, *y->owner(), std::span(t).first(static_cast<size_t>(y->owner()->numInputs())))[0]);
        }
        Var s = k + k;  // integer output
        std::vector<Variable*> t{dk.get(), dk.get()};
        QVERIFY(!ropOfNode(b, *s->owner(), t)[0]);
        Var e = exp(x);
        std::vector<Variable*> none{nullptr};
        QVERIFY(!ropOfNode(b, *e->owner(), none)[0]);
    }

    // A tangent of a statically broadcast input gets the output's shape.
    void broadcastTangentShape() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {1}), y = b.input("y", DType::Float64, {4}), dx = b.input("dx", DType::Float64, {1});
        Var s = x + y;
        std::vector<Variable*> t{dx.get(), nullptr};
        Variable* r = ropOfNode(b, *s->owner(), t)[0];
        QCOMPARE(QString::fromStdString(r->type().toString()), QString("Vector(float64, shape=(4,))"));
        auto g = b.finish({b.wrap(r)});
        const auto out = runGraph(*g, std::vector<NDArray>{vec({1}), vec({1, 2, 3, 4}), vec({2.5})}).outputs;
        TL_COMPARE_ARRAYS(out[0], vec({2.5, 2.5, 2.5, 2.5}), 0.0, 0.0);
    }

    // A scalar op's rop builds scalar ops (Composite inner graphs differentiate too).
    void scalarOpRop() {
        GraphBuilder b;
        Var x = b.placeholder(Type::scalar(DType::Float64)), dx = b.placeholder(Type::scalar(DType::Float64));
        Var y = tanh(x);
        std::vector<Variable*> t{dx.get()};
        Variable* r = ropOfNode(b, *y->owner(), t)[0];
        QVERIFY(r->type().isScalarType());
        QCOMPARE(r->owner()->op().kind(), OpKind::Scalar);
        const Composite comp(*b.finish({b.wrap(r)}));
        const auto out = comp.program().evaluate(std::vector<NDArray>{NDArray::scalar(DType::Float64, 0.4), NDArray::scalar(DType::Float64, 2.0)});
        QCOMPARE(out[0].item(), (1 - std::tanh(0.4) * std::tanh(0.4)) * 2.0);
    }

    // PyTensor: pt.exp(x) - 5 is Sub(Exp(x), ExpandDims{axis=0}(5 <int8>)).
    void builderMatchesPyTensor() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {7});
        Var y = exp(x) - 5;
        const Node& sub = *y->owner();
        QCOMPARE(sub.op().name(), std::string("Sub"));
        QCOMPARE(sub.input(0)->owner()->op().name(), std::string("Exp"));
        const Node& expand = *sub.input(1)->owner();
        QCOMPARE(expand.op().name(), std::string("ExpandDims{axis=0}"));
        QVERIFY(expand.input(0)->isConstant());
        QCOMPARE(QString::fromStdString(expand.input(0)->type().toString()), QString("Scalar(int8, shape=())"));
        QCOMPARE(QString::fromStdString(y.type().toString()), QString("Vector(float64, shape=(7,))"));
        // Constants: smallest int; float32 when exact, else float64; bool.
        auto constDType = [](const Var& v) { return v->owner()->input(1)->owner()->input(0)->type().dtype; };
        QCOMPARE(constDType(x + 300), DType::Int16);
        QCOMPARE(constDType(x + 70000), DType::Int32);
        QCOMPARE(constDType(x * 0.5), DType::Float32);
        QCOMPARE(constDType(x * 0.1), DType::Float64);
        QCOMPARE(constDType(maximum(x, 0)), DType::Int8);
        // Number on the left keeps its place: 5 - x is Sub(ExpandDims(5), x).
        QVERIFY((5 - x)->owner()->input(1) == x.get());
        QCOMPARE((-x)->owner()->op().name(), std::string("Neg"));
        QCOMPARE(cast(x, DType::Float64).get(), x.get());
        QCOMPARE(cast(x, DType::Int32)->owner()->op().name(), std::string("Cast{int32}"));
        // Lower rank inputs get ExpandDims: matrix + vector, and a 0-d tensor.
        Var m = b.input("m", DType::Float64, {2, 7});
        Var mv = m + x;
        QCOMPARE(mv->owner()->input(1)->owner()->op().name(), std::string("ExpandDims{axis=0}"));
        Var z = b.input("z", DType::Float64, {});
        Var mz = z * m;
        QCOMPARE(mz->owner()->input(0)->owner()->op().name(), std::string("ExpandDims{axes=[0, 1]}"));
        auto g = b.finish({mv, mz});
        std::vector<double> mvals(14);
        for (int i = 0; i < 14; ++i) mvals[static_cast<size_t>(i)] = i * 0.5;
        const NDArray xm = NDArray::fromVector(DType::Float64, {2, 7}, mvals);
        const auto out = runGraph(*g, std::vector<NDArray>{vec({1, 2, 3, 4, 5, 6, 7}), xm, NDArray::scalar(DType::Float64, 3.0)}).outputs;
        for (int64_t i = 0; i < 14; ++i) {
            QCOMPARE(out[0].flatGet(i), xm.flatGet(i) + static_cast<double>(i % 7 + 1));
            QCOMPARE(out[1].flatGet(i), 3.0 * xm.flatGet(i));
        }
    }

    void builderScalarTypes() {
        GraphBuilder b;
        Var i = b.placeholder(Type::scalar(DType::Int8)), f = b.placeholder(Type::scalar(DType::Float64));
        Var y = exp(f) + i * 2;
        QCOMPARE(y->owner()->op().kind(), OpKind::Scalar);
        QCOMPARE(y->owner()->op().name(), std::string("add"));
        QCOMPARE(y.type(), Type::scalar(DType::Float64));
        QVERIFY(y->owner()->input(1)->owner()->input(1)->type().isScalarType());  // the literal 2
        Var t = b.input("t", DType::Float64, {3});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, f + t);  // ScalarType with a tensor
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, exp(Var()));
    }
};

TL_TEST_SUITE(TestElemwiseRop)
#include "tst_elemwise_rop.moc"
