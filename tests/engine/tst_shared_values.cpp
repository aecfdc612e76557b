// A graph input with a shared value (a PyTensor shared variable, PyMC's pm.Data): the
// value travels with the graph (JSON, clone) and a run uses it unless it is given
// another; a value that does not fit the input's type is refused, naming the place.
#include "TestSuites.h"
#include "TestSupport.h"
#include "builder/Math.h"
#include "exec/Executor.h"
#include "io/FormatError.h"
#include "io/JsonGraph.h"
#include "io/JsonValues.h"
#include "ir/GraphAssembler.h"

#include <QtTest>

using namespace tl;
using nlohmann::json;

namespace {

// a * data, with data = [1, 2, 3] held by the graph.
std::unique_ptr<Graph> scaledByData() {
    GraphBuilder b;
    Var a = b.input("a", DType::Float64, {3});
    Var data = b.input("data", DType::Float64, {kUnknownDim});
    b.assembler().setSharedValue(data.get(), NDArray::fromVector(DType::Float64, {3}, {1, 2, 3}));
    return b.finish({a * data});
}

std::vector<double> run(const Graph& g, const std::vector<NDArray>& in) { return runGraph(g, in).outputs.at(0).toDoubles(); }

} // namespace

class TestSharedValues : public QObject {
    Q_OBJECT
private slots:
    void travelsWithTheGraph() {
        auto g = scaledByData();
        auto copy = g->clone();
        auto back = graphFromJsonText(graphToJsonText(*g));
        for (const Graph* h : {copy.get(), back.get()}) {
            const NDArray& v = h->inputs()[1]->sharedValue();
            QVERIFY(v.valid());
            QCOMPARE(v.toDoubles(), (std::vector<double>{1, 2, 3}));
            QVERIFY(!h->inputs()[0]->sharedValue().valid());
        }
        QVERIFY(graphToJson(*g)["graph"]["inputs"][1].contains("value"));
        QVERIFY(!graphToJson(*g)["graph"]["inputs"][0].contains("value"));
    }

    // A run's inputs file may leave the input out (its value is used) or give another.
    void runsUseItUnlessGivenAnother() {
        auto g = scaledByData();
        QCOMPARE(run(*g, inputsFromJson(json{{"a", {1, 1, 2}}}, *g, "in.json")), (std::vector<double>{1, 2, 6}));
        QCOMPARE(run(*g, inputsFromJson(json{{"a", {1, 1, 2}}, {"data", {0, 1, 0}}}, *g, "in.json")),
                 (std::vector<double>{0, 1, 0}));
        const std::vector<NDArray> random = randomInputs(*g, 7);
        QCOMPARE(random[1].toDoubles(), (std::vector<double>{1, 2, 3}));
        try {
            inputsFromJson(json{{"data", {0, 1, 0}}}, *g, "in.json");
            QFAIL("an input without a value was accepted");
        } catch (const ValueError& e) {
            QVERIFY2(std::string(e.what()).find("in.json: no value for input 'a'") != std::string::npos, e.what());
        }
    }

    void valuesThatDoNotFitAreRefused() {
        GraphAssembler a;
        Variable* x = a.addInput(Type::tensor(DType::Float64, {3}), "x");
        QVERIFY_THROWS_EXCEPTION(GraphError, a.setSharedValue(x, NDArray::fromVector(DType::Float64, {2}, {1, 2})));
        QVERIFY_THROWS_EXCEPTION(GraphError, a.setSharedValue(x, NDArray::fromVector(DType::Int64, {3}, {1, 2, 3})));
        Variable* c = a.addConstant(NDArray::scalar(DType::Float64, 1.0));
        QVERIFY_THROWS_EXCEPTION(GraphError, a.setSharedValue(c, NDArray::scalar(DType::Float64, 2.0)));
        json doc = graphToJson(*scaledByData());
        doc["graph"]["inputs"][0]["value"] = {1.0, 2.0};  // `a` has 3 elements
        try {
            graphFromJsonText(doc.dump(), "model.json");
            QFAIL("a shared value of the wrong shape was accepted");
        } catch (const FormatError& e) {
            QVERIFY2(std::string(e.what()).find("model.json: /graph/inputs/0/value") != std::string::npos, e.what());
        }
    }
};

TL_TEST_SUITE(TestSharedValues)
#include "tst_shared_values.moc"
