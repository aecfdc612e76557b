// A Composite nested in a Composite's inner graph, as PyTensor's compiled loop bodies
// hold it, loads from JSON as one flat Composite that computes the same values; a
// malformed nested body is an error naming its JSON path.
#include "TestSuites.h"
#include "TestSupport.h"

#include "exec/Executor.h"
#include "io/FormatError.h"
#include "io/JsonGraph.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace tl;
using namespace tl::test;
using nlohmann::json;

namespace {

json scalarType() { return {{"dtype", "float64"}, {"kind", "scalar"}}; }

json scalarNode(int id, const char* op, std::vector<int> inputs, int out) {
    return {{"id", id}, {"op", "Scalar"}, {"params", {{"scalar_op", op}}}, {"inputs", inputs}, {"outputs", {{{"id", out}, {"type", scalarType()}}}}};
}

// x -> Composite{add(Composite{sqr(sqr(i0))}(i0), i0)}(x), or with `nestedOutputIsInput`
// a nested body that returns its input unchanged, and `nestedInputs` inputs fed to it.
json document(bool nestedOutputIsInput, int nestedInputs = 1) {
    json nested = {{"inputs", {{{"id", 0}, {"type", scalarType()}}}}, {"constants", json::array()},
                   {"nodes", nestedOutputIsInput ? json::array() : json{scalarNode(0, "sqr", {0}, 1), scalarNode(1, "sqr", {1}, 2)}},
                   {"outputs", {nestedOutputIsInput ? 0 : 2}}, {"next_node_id", 2}, {"next_var_id", 3}};
    json inner = {{"inputs", {{{"id", 0}, {"type", scalarType()}}}}, {"constants", json::array()},
                  {"nodes", json::array()}, {"outputs", {2}}, {"next_node_id", 2}, {"next_var_id", 3}};
    json composite = scalarNode(0, "composite", std::vector<int>(static_cast<size_t>(nestedInputs), 0), 1);
    composite["inner"] = nested;
    inner["nodes"].push_back(composite);
    inner["nodes"].push_back(scalarNode(1, "add", {1, 0}, 2));
    json tensor = {{"dtype", "float64"}, {"kind", "tensor"}, {"shape", {3}}};
    json node = {{"id", 0}, {"op", "Elemwise"}, {"params", {{"scalar_op", "composite"}}}, {"inputs", {0}},
                 {"outputs", {{{"id", 1}, {"type", tensor}}}}, {"inner", inner}};
    json graph = {{"inputs", {{{"id", 0}, {"name", "x"}, {"type", tensor}}}}, {"constants", json::array()},
                  {"nodes", {node}}, {"outputs", {1}}, {"next_node_id", 1}, {"next_var_id", 2}};
    return {{"format", "tensorlens-graph"}, {"version", 1}, {"graph", graph}};
}

std::vector<double> run(const Graph& g, const std::vector<double>& x) {
    const NDArray in = NDArray::fromVector(DType::Float64, {static_cast<int64_t>(x.size())}, x);
    const NDArray out = runGraph(g, std::span<const NDArray>(&in, 1)).outputs.at(0);
    std::vector<double> v;
    for (int64_t i = 0; i < out.size(); ++i) v.push_back(out.flatGet(i));
    return v;
}

} // namespace

class TestJsonNestedComposite : public QObject {
    Q_OBJECT
private slots:
    void loadsFlatAndRuns() {
        auto g = graphFromJson(document(false));
        const Graph& body = *g->nodes().front()->op().innerGraph();
        QCOMPARE(static_cast<int>(body.nodes().size()), 3);  // sqr, sqr, add: no Composite inside
        const std::vector<double> got = run(*g, {-2, 0.5, 3});
        QCOMPARE(got, (std::vector<double>{16 - 2, 0.0625 + 0.5, 81 + 3}));
        // Saved again, the flat form reloads to the same values and the ids stay unique.
        auto back = graphFromJsonText(graphToJsonText(*g));
        QCOMPARE(run(*back, {-2, 0.5, 3}), got);
    }

    void nestedOutputThatIsItsInput() {
        auto g = graphFromJson(document(true));
        QCOMPARE(run(*g, {-2, 0.5, 3}), (std::vector<double>{-4, 1, 6}));
    }

    void wrongInputCountNamesThePlace() {
        QString msg;
        try {
            graphFromJson(document(false, 2));
        } catch (const FormatError& e) {
            msg = e.what();
        }
        QVERIFY2(msg.contains("/graph/nodes/0/inner/nodes/0: cannot copy the nested Composite: the nested Composite takes 1 inputs, "
                              "the node gives 2"),
                 qPrintable(msg));
    }
};

TL_TEST_SUITE(TestJsonNestedComposite)
#include "tst_json_nested_composite.moc"
