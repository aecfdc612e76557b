// xlogx and xlogy0 (pytensor/tensor/xlogx.py) against PyTensor 2.34's compiled
// functions (tests/data/xlogx_reference.json, made by tests/data/make_xlogx_reference.py):
// special values (0 log 0, 0 log NaN, infinities, negatives), every input dtype with
// PyTensor's output dtype, forward derivatives, the fused Composite PyTensor builds;
// and their names in dprint (both ways), JSON, and the constant upcast PyTensor applies.
#include "TestSuites.h"
#include "FusionTestUtil.h"
#include "LinalgTestUtil.h"
#include "RewriteCheck.h"
#include "ScalarRopCheck.h"

#include "builder/Math.h"
#include "builder/rop/OpRop.h"
#include "io/DPrint.h"
#include "io/DPrintImport.h"
#include "io/JsonGraph.h"
#include "ops/Elemwise.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <cmath>
#include <fstream>

using namespace tl;
using namespace tl::test;
using C = ScalarOpCode;

namespace {

const nlohmann::json& referenceDoc() {
    static const nlohmann::json doc = [] {
        std::ifstream in(sourcePath("tests/data/xlogx_reference.json"));
        if (!in) throw std::runtime_error("tests/data/xlogx_reference.json is missing");
        return nlohmann::json::parse(in);
    }();
    return doc;
}

const nlohmann::json& refCaseNamed(const std::string& name) {
    for (const auto& c : referenceDoc()["cases"])
        if (c["name"] == name) return c;
    throw std::runtime_error("no case " + name + " in tests/data/xlogx_reference.json");
}

std::map<std::string, NDArray> inputsOf(const nlohmann::json& c) {
    std::map<std::string, NDArray> m;
    for (auto it = c["inputs"].begin(); it != c["inputs"].end(); ++it) m[it.key()] = arrayFromRef(*it);
    return m;
}

Var in(GraphBuilder& b, const std::string& name, const NDArray& a) { return b.input(name, a.dtype(), {a.dim(0)}); }

// The graph make_xlogx_reference.py compiled for case `c`, as tensorlens builds it.
std::unique_ptr<Graph> graphFor(const nlohmann::json& c, std::vector<NDArray>& args) {
    const auto ins = inputsOf(c);
    GraphBuilder b;
    std::map<std::string, Var> v;
    for (const auto& [k, a] : ins) {
        v.emplace(k, in(b, k, a));
        args.push_back(a);  // std::map order: dx, dy, x, y, which is the inputs' order too
    }
    const std::string fn = c["function"];
    Var out;
    if (fn == "xlogx") out = xlogx(v.at("x"));
    else if (fn == "xlogy0") out = xlogy0(v.at("x"), v.at("y"));
    else if (fn == "composite") out = 1 + xlogx(2 * v.at("x")) - xlogy0(v.at("x"), v.at("y"));
    else {
        // rop_*: the node's forward derivative with the tangents given.
        Var y = fn == "rop_xlogx" ? xlogx(v.at("x")) : xlogy0(v.at("x"), v.at("y"));
        std::vector<Variable*> t{v.at("dx").get(), nullptr};
        if (fn == "rop_xlogy0") t[1] = v.at("dy").get();
        t.resize(static_cast<size_t>(y->owner()->numInputs()));
        out = b.wrap(ropOfNode(b, *y->owner(), t)[0]);
    }
    return b.finish({out});
}

double rtolFor(DType d) { return d == DType::Float32 ? 1.2e-7 : 4.5e-16; }

} // namespace

class TestScalarXlogx : public QObject {
    Q_OBJECT
private slots:
    // str(scalar_op) inside Composites, str(Elemwise) for the named Elemwise PyTensor builds.
    void names() {
        QCOMPARE(QString::fromStdString(scalarOpName(C::XlogX)), "scalar_xlogx");
        QCOMPARE(QString::fromStdString(scalarOpName(C::XlogY0)), "scalar_xlogy0");
        QCOMPARE(QString::fromStdString(Elemwise(C::XlogX).name()), "xlogx");
        QCOMPARE(QString::fromStdString(Elemwise(C::XlogY0).name()), "xlogy0");
        QCOMPARE(scalarOpInfo(C::XlogX).arity, 1);
        QCOMPARE(scalarOpInfo(C::XlogY0).arity, 2);
        for (const char* n : {"xlogx", "scalar_xlogx"}) QCOMPARE(parseScalarOp(n), std::optional<C>(C::XlogX));
        for (const char* n : {"xlogy0", "scalar_xlogy0"}) QCOMPARE(parseScalarOp(n), std::optional<C>(C::XlogY0));
    }

    // upgrade_to_float of each input, then upcast; a discrete x computes in float64.
    void dtypes() {
        using D = DType;
        auto out = [](C c, std::vector<D> d) { return scalarOutputDType(c, d); };
        for (D d : {D::Bool, D::Int8, D::UInt8, D::Int16, D::Float32}) QCOMPARE(out(C::XlogX, {d}), D::Float32);
        for (D d : {D::Int32, D::Int64, D::Float64}) QCOMPARE(out(C::XlogX, {d}), D::Float64);
        QCOMPARE(out(C::XlogY0, {D::Int8, D::Float32}), D::Float32);
        QCOMPARE(out(C::XlogY0, {D::Float32, D::Int32}), D::Float64);
        QCOMPARE(out(C::XlogY0, {D::Int16, D::UInt8}), D::Float32);
        QCOMPARE(scalarComputeDType(C::XlogX, std::vector<D>{D::Int8}), D::Float64);
        QCOMPARE(scalarComputeDType(C::XlogX, std::vector<D>{D::Float32}), D::Float32);
        QCOMPARE(scalarComputeDType(C::XlogY0, std::vector<D>{D::Float32, D::Int8}), D::Float32);
        QVERIFY(scalarOpDifferentiable(C::XlogX, D::Float64));
    }

    void reference_data() {
        QTest::addColumn<QString>("name");
        for (const auto& c : referenceDoc()["cases"]) {
            const std::string n = c["name"];
            QTest::newRow(n.c_str()) << QString::fromStdString(n);
        }
    }
    // Every case as PyTensor computed it: the same dtype, the same NaNs and infinities,
    // the values to the last bit or so (PyTensor's Python impl for integer inputs uses
    // NumPy's log, whose float64 result can be an ulp from the C library's).
    void reference() {
        QFETCH(QString, name);
        const nlohmann::json& c = refCaseNamed(name.toStdString());
        std::vector<NDArray> args;
        auto g = graphFor(c, args);
        const NDArray want = arrayFromRef(c["output"]);
        const NDArray got = run(*g, args)[0];
        QCOMPARE(got.dtype(), want.dtype());
        TL_COMPARE_ARRAYS(got, want, rtolFor(want.dtype()), 0);
        // Zeros keep their sign: 0 log y is +0.0 (PyTensor's `0.0`), -1 log 1 is -0.0.
        for (int64_t i = 0; i < want.size(); ++i)
            if (want.flatGet(i) == 0.0) QCOMPARE(std::signbit(got.flatGet(i)), std::signbit(want.flatGet(i)));
    }

    // PyTensor's FAST_RUN fuses 1 + xlogx(2 x) - xlogy0(x, y) into one Composite; so does
    // tensorlens's pipeline, printing it the same way, with the same numbers.
    void composite() {
        const nlohmann::json& c = refCaseNamed("composite");
        std::vector<NDArray> args;
        auto g = graphFor(c, args);
        RewriteOutcome r = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 1, 1e-12, 0, &args);
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(countComposites(*r.after), 1);
        QCOMPARE(scalarOpCount(*r.after, C::XlogX), 1);
        QCOMPARE(scalarOpCount(*r.after, C::XlogY0), 1);
        QString names;
        for (const Node* n : r.after->nodes())
            if (const Elemwise* e = asElemwise(n)) names += QString::fromStdString(e->name());
        QCOMPARE(names, QString::fromStdString(c["pytensor_name"].get<std::string>()));
        TL_COMPARE_ARRAYS(r.outputsAfter[0], arrayFromRef(c["output"]), 1e-15, 0);
    }

    // The forward derivatives against central differences, away from x = 0.
    void ropByDifferences() {
        const std::vector<double> x = {0.05, 0.3, 0.9, 1.6, 4.0, 10.0}, y = {2.0, 0.7, 0.1, 1.5, 3.0, 0.4};
        checkRop({x}, {true}, [](const std::vector<Var>& v) { return xlogx(v[0]); }, 1e-6);
        checkRop({x, y}, {true, true}, [](const std::vector<Var>& v) { return xlogy0(v[0], v[1]); }, 1e-6);
        checkRop({x, y}, {false, true}, [](const std::vector<Var>& v) { return xlogy0(v[0], v[1]); }, 1e-6);
    }

    // print -> import -> print, inside and outside a Composite, with the same numbers.
    void dprintBothWays() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {4}), y = b.input("y", DType::Float64, {4});
        auto g = b.finish({xlogx(x), xlogy0(x, y), exp(xlogx(x)) + xlogy0(y, x)});
        const std::vector<NDArray> args = {NDArray::fromVector(DType::Float64, {4}, {0, 0.5, 2, 3}),
                                           NDArray::fromVector(DType::Float64, {4}, {0, 1.5, 0.25, 7})};
        dprintRoundTrip(*g, args, allOptions());
        auto fused = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 1, 1e-12, 0, &args);
        QVERIFY2(fused.mismatch.empty(), fused.mismatch.c_str());
        dprintRoundTrip(*fused.after, args, allOptions());
        // PyTensor's listing of an inplace one says `Xlogx` (its scalar op lost its name):
        // tensorlens reads it, and prints an inplace one the same way.
        for (const char* name : {"xlogx", "Xlogx", "xlogy0", "Xlogy0"}) {
            const bool two = std::string(name).find("y0") != std::string::npos;
            const bool inplace = name[0] == 'X';
            const std::string text = std::string(name) + " [id A]" + (inplace ? " d={0: [0]}" : "") + "\n" +
                                     (two ? " ├─ p [id B]\n └─ q [id C]\n" : " └─ p [id B]\n");
            DPrintImport imp = importDprint(text);
            const Node* n = imp.graph->outputs().at(0)->owner();
            QVERIFY2(n, name);
            QCOMPARE(n->op().kind(), OpKind::Elemwise);
            QCOMPARE(static_cast<const Elemwise&>(n->op()).scalarOp(), two ? C::XlogY0 : C::XlogX);
            QCOMPARE(QString::fromStdString(n->op().name()), QString(name));
        }
    }

    // The JSON key, and PyTensor's own scalar op name, load.
    void json() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float32, {3});
        auto g = b.finish({xlogy0(x, xlogx(x))});
        const std::string text = graphToJsonText(*g);
        QVERIFY(text.find(R"("scalar_op": "xlogx")") != std::string::npos);
        QVERIFY(text.find(R"("op_name": "xlogy0")") != std::string::npos);
        std::string renamed = text;
        renamed.replace(renamed.find(R"("scalar_op": "xlogx")"), 20, R"("scalar_op": "scalar_xlogx")");
        auto back = graphFromJsonText(renamed);
        QCOMPARE(QString::fromStdString(graphToJsonText(*back)), QString::fromStdString(text));
    }

    // local_upcast_elemwise_constant_inputs: their rule is upgrade_to_float, so PyTensor
    // stores their constants in the output dtype, a constant x too.
    void constantsUpcast() {
        for (bool constantX : {false, true}) {
            GraphBuilder b;
            Var v = b.input("v", DType::Float32, {3});
            Var k = b.constant(NDArray::fromVector(DType::Int8, {1}, {2}));
            auto g = b.finish({constantX ? xlogy0(k, v) : xlogy0(v, k)});
            RewriteOutcome r = rewriteAndCompare(*g, singleRewrite(localUpcastElemwiseConstantInputs()), {}, 1, 1e-6);
            QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
            QCOMPARE(r.stepsOf("local_upcast_elemwise_constant_inputs"), 1);
            const Node* n = r.after->outputs()[0]->owner();
            const Variable* c = n->input(constantX ? 0 : 1);
            QVERIFY(c->isConstant());
            QCOMPARE(c->type().dtype, DType::Float32);
        }
    }
};

TL_TEST_SUITE(TestScalarXlogx)
#include "tst_scalar_xlogx.moc"
