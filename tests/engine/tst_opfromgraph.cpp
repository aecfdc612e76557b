// OpFromGraph: types from the inner graph, the executor running it (outputs never
// alias inputs or inner constants), printed names and the "Inner graphs:" section with
// `*k-` inputs, JSON params and one shared body for the nodes of one op, the forward
// derivative through the inner graph (against finite differences and against the same
// graph inlined), inline_ofg_expansion firing for inline=True only, and random variables
// saying by name that tensorlens does not draw them.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "ShapeOpsTestUtil.h"
#include "TestSupport.h"

#include "builder/ControlFlow.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Rop.h"
#include "io/DPrint.h"
#include "io/JsonGraph.h"
#include "ops/OpFromGraph.h"
#include "ops/Opaque.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

const Type kVec6 = Type::tensor(DType::Float64, {6});
const Type kMat6 = Type::tensor(DType::Float64, {6, 6});

// residual_layer(a, b) = tanh(sum(b, axis=0) * a) + a, applied twice, as the corpus's program.
OpPtr residualLayer(bool inlineGraph = false) {
    return graphOp({kVec6, kMat6}, [](GraphBuilder&, const std::vector<Var>& in) {
        return std::vector<Var>{add(tanh(mul(sum(in[1], std::vector<int>{0}), in[0])), in[0])};
    }, std::string("residual_layer"), inlineGraph);
}

std::unique_ptr<Graph> twoLayers(bool inlineGraph = false) {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {6});
    Var W = b.input("W", DType::Float64, {6, 6});
    OpPtr layer = residualLayer(inlineGraph);
    Var h = applyGraphOp(layer, {applyGraphOp(layer, {x, W}).at(0), W}).at(0);
    return b.finish({h});
}

std::vector<NDArray> layerInputs() {
    NDArray x = NDArray::empty(DType::Float64, {6}), W = NDArray::empty(DType::Float64, {6, 6});
    for (int i = 0; i < 6; ++i) x.data<double>()[i] = 0.1 * (i - 2);
    for (int i = 0; i < 36; ++i) W.data<double>()[i] = 0.05 * ((i * 7) % 11 - 5);
    return {x, W};
}

// The same computation written out, for the numbers.
std::vector<double> twoLayersByHand(const std::vector<NDArray>& in) {
    std::vector<double> x = in[0].toDoubles(), w = in[1].toDoubles(), colSum(6, 0.0);
    for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 6; ++c) colSum[c] += w[r * 6 + c];
    for (int layer = 0; layer < 2; ++layer)
        for (int i = 0; i < 6; ++i) x[i] = std::tanh(colSum[i] * x[i]) + x[i];
    return x;
}

} // namespace

class TestOpFromGraph : public QObject {
    Q_OBJECT
private slots:
    void runsItsInnerGraph() {
        auto g = twoLayers();
        auto in = layerInputs();
        auto out = run(*g, in);
        const auto want = twoLayersByHand(in);
        for (int i = 0; i < 6; ++i) QVERIFY(std::fabs(out[0].flatGet(i) - want[i]) < 1e-14);
    }

    void outputsAreFresh() {
        // An inner graph returning its input and a constant: the node's outputs are copies.
        OpPtr op = graphOp({kVec6}, [](GraphBuilder& b, const std::vector<Var>& in) {
            return std::vector<Var>{in[0], b.constant(3.0)};
        });
        QCOMPARE(QString::fromStdString(op->name()), QString("OpFromGraph{inline=False}"));
        NDArray x = iota(DType::Float64, {6});
        ExecContext ctx;
        std::vector<NDArray> outs(2);
        performOp(ctx, *op, std::vector<NDArray>{x}, outs);
        QVERIFY(!outs[0].sharesStorageWith(x));
        QCOMPARE(outs[1].item(), 3.0);
        outs[1].data<double>()[0] = 5;  // the caller owns it: the inner constant stays 3
        std::vector<NDArray> again(2);
        performOp(ctx, *op, std::vector<NDArray>{x}, again);
        QCOMPARE(again[1].item(), 3.0);
    }

    void typesAndErrors() {
        OpPtr layer = residualLayer();
        const Type v = Type::tensor(DType::Float64, {kUnknownDim}), bad = Type::tensor(DType::Float32, {6});
        const Type* ok[] = {&v, &kMat6};
        QCOMPARE(layer->inferTypes(ok).at(0), kVec6);  // the inner output's type
        const Type* wrong[] = {&bad, &kMat6};
        try {
            layer->inferTypes(wrong);
            QFAIL("a float32 input must be refused");
        } catch (const OpTypeError& e) {
            QVERIFY(QString(e.what()).contains("residual_layer{inline=False}: input 0 is Vector(float32, shape=(6,))"));
        }
        // At run time, an array that does not fit the inner input is an error naming it.
        ExecContext ctx;
        std::vector<NDArray> outs(1);
        try {
            performOp(ctx, *layer, std::vector<NDArray>{iota(DType::Float64, {5}), iota(DType::Float64, {6, 6})}, outs);
            QFAIL("a wrong length must be refused");
        } catch (const ExecError& e) {
            QVERIFY2(QString(e.what()).contains("input 0 must be Vector(float64, shape=(6,))"), e.what());
        }
    }

    void printsItsInnerGraph() {
        auto g = twoLayers();
        DPrintOptions o;
        o.printType = true;
        const QString text = QString::fromStdString(dprint(*g, o));
        QVERIFY2(text.contains("residual_layer{inline=False} [id A] <Vector(float64, shape=(6,))>"), qPrintable(text));
        QVERIFY2(text.contains("Inner graphs:"), qPrintable(text));
        QVERIFY2(text.contains(" *0-<Vector(float64, shape=(6,))> [id"), qPrintable(text));
        QVERIFY2(!text.contains(" -> [id"), "an OpFromGraph's inner inputs link to nothing");
        // Both nodes share the op's body: the second section refers back to the first.
        QVERIFY2(text.contains(" \u2190 Add [id") && text.count(" \u2514\u2500 \u00b7\u00b7\u00b7") >= 1, qPrintable(text));
    }

    void jsonSharesOneBody() {
        auto g = twoLayers();
        auto loaded = graphFromJsonText(graphToJsonText(*g));
        std::vector<const Node*> ofgs;
        for (const Node* n : loaded->nodes())
            if (n->op().kind() == OpKind::OpFromGraph) ofgs.push_back(n);
        QCOMPARE(ofgs.size(), size_t(2));
        QCOMPARE(ofgs[0]->op().innerGraph().get(), ofgs[1]->op().innerGraph().get());
        QVERIFY(ofgs[0]->op().equals(ofgs[1]->op()));
        QCOMPARE(QString::fromStdString(graphToJsonText(*loaded)), QString::fromStdString(graphToJsonText(*g)));
        const auto p = ofgs[0]->op().params();
        QCOMPARE(p["name"].get<std::string>(), std::string("residual_layer"));
        QCOMPARE(p["inline"].get<bool>(), false);
        auto out = run(*loaded, layerInputs());
        QCOMPARE(out[0].toDoubles(), run(*g, layerInputs())[0].toDoubles());
    }

    void ropThroughTheInnerGraph() {
        checkRopByFiniteDifferences({{6}, {6, 6}}, [](GraphBuilder&, const std::vector<Var>& in) {
            OpPtr layer = residualLayer();
            return applyGraphOp(layer, {applyGraphOp(layer, {in[0], in[1]}).at(0), in[1]}).at(0);
        });
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {6});
        Var W = b.input("W", DType::Float64, {6, 6});
        Var t = rop(applyGraphOp(residualLayer(), {x, W}).at(0), x, b.input("t", DType::Float64, {6}));
        QCOMPARE(QString::fromStdString(t->owner()->op().name()), QString("residual_layer_rop{inline=False}"));
        QCOMPARE(t->owner()->numInputs(), 4);  // inputs, then their tangents (zeros for W)
    }

    void inlineOfgExpansion_data() {
        QTest::addColumn<bool>("inlineGraph");
        QTest::newRow("inline=True expands") << true;
        QTest::newRow("inline=False stays one node") << false;
    }
    void inlineOfgExpansion() {
        QFETCH(bool, inlineGraph);
        auto g = twoLayers(inlineGraph);
        PipelineOptions options;
        options.explain = true;
        auto in = layerInputs();
        RewriteOutcome r = rewriteAndCompare(*g, singleRewrite(tl::inlineOfgExpansion()), options, 1, 1e-14, 0, &in);
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(r.stepsOf("inline_ofg_expansion"), inlineGraph ? 2 : 0);
        QCOMPARE(countOps(*r.after, OpKind::OpFromGraph), inlineGraph ? 0 : 2);
        // The full pipeline keeps inline=False nodes and still computes the same.
        RewriteOutcome full = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 1, 1e-14, 0, &in);
        QVERIFY2(full.mismatch.empty(), full.mismatch.c_str());
        QCOMPARE(countOps(*full.after, OpKind::OpFromGraph), inlineGraph ? 0 : 2);
    }

    void randomVariablesSayWhy() {
        GraphBuilder b;
        Var mu = b.input("mu", DType::Float64, {});
        OpPtr rv = makeOpaque("normal_rv{\"(),()->()\"}", {Type::tensor(DType::Int8, {}), Type::tensor(DType::Float64, {10})});
        QVERIFY(static_cast<const OpaqueOp&>(*rv).drawsRandomNumbers());
        QVERIFY(!static_cast<const OpaqueOp&>(*makeOpaque("Gemv{inplace}", {kVec6})).drawsRandomNumbers());
        Var eps = b.apply(rv, {mu}).at(1);
        auto g = b.finish({add(eps, mu)});
        try {
            run(*g, {NDArray::scalar(DType::Float64, 0.5)});
            QFAIL("a random variable cannot run");
        } catch (const ExecError& e) {
            const QString m = e.what();
            QVERIFY2(m.startsWith("normal_rv#"), e.what());
            QVERIFY2(m.contains("draws random numbers, which tensorlens does not imitate; feed its output as an input instead"), e.what());
            QVERIFY2(m.contains("output 1 (Vector(float64, shape=(10,)))"), e.what());
        }
        // A Scan whose loop draws is exported as an opaque node marked random.
        OpPtr loop = makeOp(OpKind::Opaque, nlohmann::json::parse(R"({"name": "Scan{scan_fn, while_loop=False, inplace=none}",
            "output_types": [{"kind": "tensor", "dtype": "float64", "shape": [null]}], "random": true})"), nullptr);
        QVERIFY(static_cast<const OpaqueOp&>(*loop).drawsRandomNumbers());
        checkJsonRoundTrip(loop);
    }
};

TL_TEST_SUITE(TestOpFromGraph)
#include "tst_opfromgraph.moc"
