// Composite: PyTensor's printed names and inner variable names, multi-output
// evaluation with a shared intermediate, a 5000-op chain (no recursion, few
// registers), mixed dtypes, params round trips and structural equality.
#include "TestSuites.h"
#include "ops/OpFactory.h"
#include "TestSupport.h"

#include "builder/Math.h"
#include "exec/ExecContext.h"
#include "ir/Graph.h"
#include "ops/Composite.h"
#include "ops/Elemwise.h"
#include "ops/ScalarOp.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <cmath>

using namespace tl;
using C = ScalarOpCode;

namespace {

Var f64(GraphBuilder& b) { return b.placeholder(Type::scalar(DType::Float64)); }
Var k64(GraphBuilder& b, double v) { return b.scalarConstant(v, DType::Float64); }

// Seed example's fused step: o0 = exp(i0) - 5.0, o1 = exp(i0) * i1 (exp shared).
std::unique_ptr<Graph> seedGraph() {
    GraphBuilder b;
    Var i0 = f64(b), i1 = f64(b);
    Var e = exp(i0);
    return b.finish({e - k64(b, 5.0), e * i1});
}

std::vector<NDArray> run(const Op& op, std::vector<NDArray> ins) {
    ExecContext ctx;
    std::vector<NDArray> outs(static_cast<size_t>(static_cast<const Elemwise&>(op).numOutputs()));
    op.perform(ins, outs);
    return outs;
}

} // namespace

class TestComposite : public QObject {
    Q_OBJECT
private slots:
    void names_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("inner");
        QTest::addColumn<QString>("outer");
        QTest::newRow("sub") << 0 << "Composite{(exp(i0) - 5.0)}" << "Composite{(exp(i0) - 5.0)}";
        QTest::newRow("add const first") << 1 << "Composite{(-5.0 + exp(i0))}" << "Composite{(-5.0 + exp(i0))}";
        QTest::newRow("neg") << 2 << "Composite{(-i0)}" << "Composite{(-i0)}";
        QTest::newRow("variadic add") << 3 << "Composite{(i0 + i1 + i2)}" << "Composite{(i0 + i1 + i2)}";
        QTest::newRow("pow, div, mod") << 4 << "Composite{(((i0 ** i1) // i2) % (i0 / i1))}"
                                       << "Composite{(((i0 ** i1) // i2) % (i0 / i1))}";
        QTest::newRow("cast") << 5 << "Composite{Cast{float32}(i0)}" << "Composite{cast{float32}(i0)}";
        QTest::newRow("switch lt") << 6 << "Composite{Switch(LT(i0, 0), i1, 0.1)}" << "Composite{switch(lt(i0, 0), i1, 0.1)}";
        QTest::newRow("small float") << 7 << "Composite{sigmoid((i0 * 1e-05))}" << "Composite{sigmoid((i0 * 1e-05))}";
        QTest::newRow("bool constant") << 8 << "Composite{AND(i0, True)}" << "Composite{and(i0, true)}";
        QTest::newRow("two outputs") << 9 << "Composite{...}" << "Composite{...}";
        QTest::newRow("ten nodes") << 10 << "Composite{((((((((((i0 + 1.0) + 1.0) + 1.0) + 1.0) + 1.0) + 1.0) + 1.0) + 1.0) + 1.0) + 1.0)}"
                                   << "Composite{((((((((((i0 + 1.0) + 1.0) + 1.0) + 1.0) + 1.0) + 1.0) + 1.0) + 1.0) + 1.0) + 1.0)}";
        QTest::newRow("eleven nodes") << 11 << "Composite{...}" << "Composite{...}";
        QTest::newRow("float32 literal") << 12 << "Composite{(i0 + 0.1)}" << "Composite{(i0 + 0.1)}";
    }

    void names() {
        QFETCH(int, which);
        QFETCH(QString, inner);
        QFETCH(QString, outer);
        GraphBuilder b;
        Var i0 = f64(b), i1 = f64(b), i2 = f64(b);
        std::vector<Var> outs;
        switch (which) {
        case 0: outs = {exp(i0) - k64(b, 5.0)}; break;
        case 1: outs = {k64(b, -5.0) + exp(i0)}; break;
        case 2: outs = {-i0}; break;
        case 3: outs = {add({i0, i1, i2})}; break;
        case 4: outs = {mod(intDiv(pow(i0, i1), i2), i0 / i1)}; break;
        case 5: outs = {cast(i0, DType::Float32)}; break;
        case 6: outs = {switch_(lt(i0, 0), i1, k64(b, 0.1))}; break;
        case 7: outs = {sigmoid(i0 * k64(b, 1e-5))}; break;
        case 8: outs = {and_(b.placeholder(Type::scalar(DType::Bool)), true)}; break;
        case 9: outs = {exp(i0), i1 * 2}; break;
        case 10:
        case 11: {
            Var v = i0;
            for (int k = 0; k < which; ++k) v = v + k64(b, 1.0);
            outs = {v};
            break;
        }
        case 12: outs = {i0 + b.scalarConstant(0.1, DType::Float32)}; break;
        }
        auto g = b.finish(outs);
        if (which == 8) {  // the Bool placeholder was created after i0..i2: keep only it as input
            GraphBuilder b2;
            Var p = b2.placeholder(Type::scalar(DType::Bool));
            g = b2.finish({and_(p, true)});
        }
        const Composite comp(*g);
        QCOMPARE(QString::fromStdString(comp.name()), inner);
        QCOMPARE(QString::fromStdString(Elemwise(std::make_shared<const Composite>(*g)).name()), outer);
    }

    // PyTensor's renaming: i<k>, o<k>, and t<index> for intermediates with several clients.
    void innerVariableNames() {
        const Composite seed(*seedGraph());
        const Graph& g = *seed.graph();
        QCOMPARE(g.inputs()[0]->name(), std::string("i0"));
        QCOMPARE(g.inputs()[1]->name(), std::string("i1"));
        QCOMPARE(g.outputs()[0]->name(), std::string("o0"));
        QCOMPARE(g.outputs()[1]->name(), std::string("o1"));
        Node* sub = g.outputs()[0]->owner();
        QCOMPARE(sub->op().name(), std::string("sub"));
        QCOMPARE(sub->input(0)->name(), std::string("t3"));  // the shared exp, as in the seed listing
        QCOMPARE(sub->input(0)->owner()->op().name(), std::string("exp"));
        QCOMPARE(sub->input(1)->name(), std::string(""));
        QCOMPARE(g.outputs()[1]->owner()->op().name(), std::string("mul"));
        QCOMPARE(seed.name(), std::string("Composite{...}"));
        // A single use is not named.
        GraphBuilder b;
        Var i0 = f64(b);
        const Composite single(*b.finish({exp(i0) - k64(b, 5.0)}));
        QCOMPARE(single.graph()->outputs()[0]->owner()->input(0)->name(), std::string(""));
    }

    void multiOutputSharedIntermediate() {
        OpPtr op = makeCompositeElemwise(*seedGraph());
        const auto& comp = *static_cast<const Elemwise&>(*op).composite();
        QCOMPARE(comp.program().numInstructions(), size_t(3));  // exp once, sub, mul
        const int64_t n = 1000;
        NDArray x = NDArray::empty(DType::Float64, {n}), y = NDArray::empty(DType::Float64, {n});
        for (int64_t i = 0; i < n; ++i) {
            x.data<double>()[i] = -1.0 + 0.002 * static_cast<double>(i);
            y.data<double>()[i] = 0.5 * static_cast<double>(i % 13);
        }
        const std::vector<NDArray> outs = run(*op, {x, y});
        for (int64_t i = 0; i < n; ++i) {
            const double e = std::exp(x.data<double>()[i]);
            QCOMPARE(outs[0].data<double>()[i], e - 5.0);
            QCOMPARE(outs[1].data<double>()[i], e * y.data<double>()[i]);
        }
    }

    // A 5000-op chain: built, named, compiled and run without recursion, in a few registers.
    void longChain() {
        GraphBuilder b;
        Var x = f64(b);
        Var v = x;
        const int kOps = 5000;
        for (int k = 0; k < kOps; ++k) {
            if (k % 3 == 0) v = v * k64(b, 1.0001);
            else if (k % 3 == 1) v = v + k64(b, 0.25);
            else v = tanh(v);
        }
        OpPtr op = makeCompositeElemwise(*b.finish({v}));
        const auto& comp = *static_cast<const Elemwise&>(*op).composite();
        QCOMPARE(comp.numNodes(), size_t(kOps));
        QCOMPARE(comp.name(), std::string("Composite{...}"));
        QVERIFY2(comp.program().numRegisters() <= 2, std::to_string(comp.program().numRegisters()).c_str());
        NDArray in = NDArray::empty(DType::Float64, {777});
        for (int64_t i = 0; i < 777; ++i) in.data<double>()[i] = -3.0 + 0.01 * static_cast<double>(i);
        const NDArray out = run(*op, {in})[0];
        for (int64_t i = 0; i < 777; i += 37) {
            double r = in.data<double>()[i];
            for (int k = 0; k < kOps; ++k) r = k % 3 == 0 ? r * 1.0001 : k % 3 == 1 ? r + 0.25 : std::tanh(r);
            QCOMPARE(out.data<double>()[i], r);
        }
    }

    void mixedDTypes() {
        GraphBuilder b;
        Var i0 = b.placeholder(Type::scalar(DType::Int8)), i1 = b.placeholder(Type::scalar(DType::Float32));
        Var s = i0 + i1;  // float32
        OpPtr op = makeCompositeElemwise(*b.finish({s, s * k64(b, 0.1), lt(i0, 2)}));
        const NDArray a = NDArray::fromVector(DType::Int8, {4}, {-3, 0, 2, 100});
        const NDArray f = NDArray::fromVector(DType::Float32, {4}, {0.5, 1.25, -2, 3});
        const std::vector<NDArray> outs = run(*op, {a, f});
        QCOMPARE(dtypeName(outs[0].dtype()), std::string_view("float32"));
        QCOMPARE(dtypeName(outs[1].dtype()), std::string_view("float64"));
        QCOMPARE(dtypeName(outs[2].dtype()), std::string_view("bool"));
        for (int64_t i = 0; i < 4; ++i) {
            const float sum = static_cast<float>(a.data<int8_t>()[i]) + f.data<float>()[i];
            QCOMPARE(outs[0].data<float>()[i], sum);
            QCOMPARE(outs[1].data<double>()[i], static_cast<double>(sum) * 0.1);
            QCOMPARE(outs[2].data<bool>()[i], a.data<int8_t>()[i] < 2);
        }
        // A Composite takes exactly its input dtypes.
        const Type wrong = Type::tensor(DType::Float64, {4}), fine = Type::tensor(DType::Float32, {4});
        std::vector<const Type*> types{&wrong, &fine};
        QVERIFY_THROWS_EXCEPTION(OpTypeError, op->inferTypes(types));
    }

    void paramsRoundTrip_data() {
        QTest::addColumn<int>("which");
        QTest::newRow("exp") << 0;
        QTest::newRow("cast int16") << 1;
        QTest::newRow("add inplace") << 2;
        QTest::newRow("composite inplace") << 3;
    }

    void paramsRoundTrip() {
        QFETCH(int, which);
        OpPtr ops[] = {makeElemwise(C::Exp), makeElemwise(C::Cast, DType::Int16), makeElemwise(C::Add, DType::Float64, {{0, 1}}),
                       makeCompositeElemwise(*seedGraph(), {{1, 0}})};
        OpPtr op = ops[which];
        OpPtr back = makeOp(OpKind::Elemwise, op->params(), op->innerGraph());
        QVERIFY(back->equals(*op));
        QCOMPARE(back->hash(), op->hash());
        QCOMPARE(back->name(), op->name());
        QCOMPARE(back->params(), op->params());
        QCOMPARE(back->destroyMap(), op->destroyMap());
    }

    void scalarOpRoundTripAndPerform() {
        OpPtr cast = makeScalarOp(C::Cast, DType::UInt8);
        QCOMPARE(cast->name(), std::string("Cast{uint8}"));
        QVERIFY(makeOp(OpKind::Scalar, cast->params(), nullptr)->equals(*cast));
        ExecContext ctx;
        std::vector<NDArray> out(1);
        std::vector<NDArray> ins = {NDArray::scalar(DType::Int8, 3), NDArray::scalar(DType::Float32, 0.5)};
        ScalarOp(C::Add).perform(ins, out);
        QCOMPARE(dtypeName(out[0].dtype()), std::string_view("float32"));
        QCOMPARE(out[0].item(), 3.5);
        const Type t = Type::scalar(DType::Int8), u = Type::scalar(DType::Float32);
        std::vector<const Type*> types{&t, &u};
        QCOMPARE(ScalarOp(C::Add).inferTypes(types).at(0), Type::scalar(DType::Float32));
    }

    void badParams_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<bool>("withInner");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("unknown op") << R"({"scalar_op": "frob"})" << false << "/scalar_op";
        QTest::newRow("missing op") << R"({})" << false << "/scalar_op";
        QTest::newRow("cast without dtype") << R"({"scalar_op": "cast"})" << false << "/dtype";
        QTest::newRow("cast bad dtype") << R"({"scalar_op": "cast", "dtype": "float16"})" << false << "/dtype";
        QTest::newRow("composite without graph") << R"({"scalar_op": "composite"})" << false << "inner";
        QTest::newRow("plain op with graph") << R"({"scalar_op": "exp"})" << true << "inner graph";
        QTest::newRow("bad inplace") << R"({"scalar_op": "exp", "inplace_pattern": {"x": 0}})" << false << "/inplace_pattern/x";
    }

    void badParams() {
        QFETCH(QString, json);
        QFETCH(bool, withInner);
        QFETCH(QString, mentions);
        std::shared_ptr<const Graph> inner = withInner ? std::shared_ptr<const Graph>(seedGraph()) : nullptr;
        try {
            makeOp(OpKind::Elemwise, nlohmann::json::parse(json.toStdString()), inner);
            QFAIL("expected std::invalid_argument");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString(e.what()).contains(mentions), e.what());
        }
    }

    void structuralEquality() {
        OpPtr a = makeCompositeElemwise(*seedGraph()), b = makeCompositeElemwise(*seedGraph());
        QVERIFY(a->equals(*b));
        QCOMPARE(a->hash(), b->hash());
        GraphBuilder gb;
        Var i0 = f64(gb), i1 = f64(gb);
        Var e = exp(i0);
        OpPtr c = makeCompositeElemwise(*gb.finish({e - k64(gb, 4.0), e * i1}));
        QVERIFY(!a->equals(*c));
        QVERIFY(!a->equals(*makeCompositeElemwise(*seedGraph(), {{0, 0}})));
    }

    void invalidGraphs() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {3});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Composite(*b.finish({exp(x)})));  // tensor input
        GraphBuilder b2;
        Var i0 = f64(b2);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Composite(*b2.finish({i0})));  // output is an input
    }
};

TL_TEST_SUITE(TestComposite)
#include "tst_composite.moc"
