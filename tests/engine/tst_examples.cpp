// The built-in examples: they build, match their shipped JSON, and compute what
// a real PyTensor computed (tests/oracle/<case>/expected.json, and the seed programs' numbers).
#include "TestSuites.h"
#include "TestSupport.h"
#include "builder/Examples.h"
#include "exec/Executor.h"
#include "io/JsonGraph.h"
#include "io/JsonValues.h"
#include "ops/ScanOp.h"
#include "rewrite/Pipeline.h"

#include <QtTest>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace tl;

namespace {
std::vector<NDArray> oracleInputs(const Graph& g, const nlohmann::json& expected) {
    return inputsFromJson(expected.at("inputs"), g, "expected.json: /inputs");
}
} // namespace

class TestExamples : public QObject {
    Q_OBJECT
private slots:
    void everyExampleBuildsAndValidates_data() {
        QTest::addColumn<QString>("name");
        for (const Example& e : examples()) QTest::newRow(e.name.c_str()) << QString::fromStdString(e.name);
    }
    void everyExampleBuildsAndValidates() {
        QFETCH(QString, name);
        auto g = buildExample(name.toStdString());
        QVERIFY(g->numNodes() > 0);
        auto problems = g->validate();
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
    }

    void shippedJsonMatchesTheBuilder_data() { everyExampleBuildsAndValidates_data(); }
    void shippedJsonMatchesTheBuilder() {
        QFETCH(QString, name);
        const std::string path = test::sourcePath("resources/examples/" + name.toStdString() + ".json");
        std::ifstream f(path);
        QVERIFY2(f.good(), ("missing " + path + " (regenerate: tensorlens example NAME -o FILE)").c_str());
        std::stringstream ss;
        ss << f.rdbuf();
        QCOMPARE(QString::fromStdString(ss.str()),
                 QString::fromStdString(graphToJsonText(*buildExample(name.toStdString()))));
    }

    void matchesPyTensorReference_data() { everyExampleBuildsAndValidates_data(); }
    void matchesPyTensorReference() {
        QFETCH(QString, name);
        const std::string file = test::oracleCaseFile(name.toStdString());
        if (file.empty()) QSKIP("no PyTensor reference case for this example");
        const nlohmann::json expected = readJsonFile(file);
        auto g = buildExample(name.toStdString());
        RunResult r = runGraph(*g, oracleInputs(*g, expected));
        const auto& outs = expected.at("outputs");
        QCOMPARE(r.outputs.size(), outs.size());
        for (size_t i = 0; i < outs.size(); ++i) {
            NDArray want = arrayFromJson(outs[i], g->outputs()[i]->type(), "/outputs/" + std::to_string(i));
            TL_COMPARE_ARRAYS(r.outputs[i], want, 1e-12, 1e-300);
        }
    }

    // The seed programs' figures from a real PyTensor 2.34 run.
    void seedRopNumbers() {
        const Example* e = findExample("seed_rop");
        QVERIFY(e);
        auto g = buildExample("seed_rop");
        auto in = e->inputs();
        RunResult r = runGraph(*g, std::vector<NDArray>{in.at("x_init"), in.at("x_init_tangent")});
        for (int64_t i = 0; i < 7; ++i) QVERIFY(std::fabs(r.outputs[0].flatGet(i) - -4.993216188647903) <= 1e-13 * 5);
        const double tangent[] = {6.8260538401706609e-20, 7.2810266172858716e-20, 7.7746727176156749e-20,
                                  8.3110287531612892e-20, 8.8946294422551726e-20, 9.5305784474505571e-20,
                                  1.022463063810696e-19};
        TL_COMPARE_ARRAYS(r.outputs[1], NDArray::fromVector(DType::Float64, {7}, {tangent, tangent + 7}), 1e-13, 0);
    }

    // The seed's loop over a sequence of unknown length: the numbers of a hand loop,
    // and after FAST_RUN one Scan whose two state buffers hold one row each although
    // n_steps is only known at run time.
    void seedRopSequenceNumbersAndBuffers() {
        const Example* e = findExample("seed_rop_sequence");
        QVERIFY(e);
        auto g = buildExample("seed_rop_sequence");
        auto in = e->inputs();
        const std::vector<NDArray> inputs{in.at("x_init"), in.at("x_init_tangent"), in.at("M")};
        RunResult before = runGraph(*g, inputs);
        std::vector<double> x = in.at("x_init").toDoubles(), dx = in.at("x_init_tangent").toDoubles();
        const std::vector<double> m = in.at("M").toDoubles();
        for (size_t t = 0; t < 10; ++t)
            for (size_t i = 0; i < 7; ++i) {
                const double ex = std::exp(x[i]);
                dx[i] = ex * dx[i];
                x[i] = ex - 5 + m[t * 7 + i] * 0.01;
            }
        TL_COMPARE_ARRAYS(before.outputs[0], NDArray::fromVector(DType::Float64, {7}, x), 1e-12, 0);
        TL_COMPARE_ARRAYS(before.outputs[1], NDArray::fromVector(DType::Float64, {7}, dx), 1e-12, 1e-300);

        Pipeline::fastRun().run(*g, PipelineOptions{});
        std::vector<const Node*> scans;
        for (const Node* n : g->toposort())
            if (n->op().kind() == OpKind::Scan) scans.push_back(n);
        QCOMPARE(scans.size(), size_t(1));
        const ScanInfo& info = static_cast<const ScanOp&>(scans[0]->op()).info();
        QCOMPARE(info.nTracedStates(), 2);
        for (int s = 0; s < 2; ++s) {
            const Shape& buffer = scans[0]->input(info.outerInMitMot() + s)->type().shape;
            QVERIFY(!buffer.empty());
            QCOMPARE(buffer[0], int64_t(1));
        }
        RunResult after = runGraph(*g, inputs);
        for (size_t k = 0; k < 2; ++k) TL_COMPARE_ARRAYS(after.outputs[k], before.outputs[k], 1e-12, 1e-300);
    }

    void seedDupNumbers() {
        auto g = buildExample("seed_dup");
        auto in = findExample("seed_dup")->inputs();
        RunResult r = runGraph(*g, std::vector<NDArray>{in.at("x_init")});
        QCOMPARE(r.outputs[0].shape(), (Shape{10, 7}));
        TL_COMPARE_ARRAYS(r.outputs[0], r.outputs[1], 0, 0);
        const std::vector<double> row0 = {-4.0951625819640407, -4.0644930149683827, -4.0327838995179945, -4,
                                          -3.9661048864864261, -3.9310608942527536, -3.8948290819243523};
        const std::vector<double> row1 = {-4.9833469614209172, -4.9828283071416308, -4.9822750831824152,
                                          -4.9816843611112658, -4.9810529093413161, -4.980377156255714,
                                          -4.9796531482032638};
        const std::vector<double> all = r.outputs[0].toDoubles();
        TL_COMPARE_ARRAYS(NDArray::fromVector(DType::Float64, {7}, {all.begin(), all.begin() + 7}),
                          NDArray::fromVector(DType::Float64, {7}, row0), 1e-13, 0);
        TL_COMPARE_ARRAYS(NDArray::fromVector(DType::Float64, {7}, {all.begin() + 7, all.begin() + 14}),
                          NDArray::fromVector(DType::Float64, {7}, row1), 1e-13, 0);
    }
};

TL_TEST_SUITE(TestExamples)
#include "tst_examples.moc"
