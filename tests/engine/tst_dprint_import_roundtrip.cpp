// dprint -> import -> dprint under every printing option: the golden graphs of
// real PyTensor listings, every built-in example as built and after the FAST_RUN
// pipeline. The imported graph prints the same text; where the listing shows all
// types it also computes the same outputs.
#include "TestSuites.h"
#include "ir/GraphAssembler.h"
#include "DPrintGoldenGraphs.h"
#include "TestSupport.h"
#include "builder/Examples.h"
#include "exec/Executor.h"
#include "io/DPrint.h"
#include "io/DPrintImport.h"
#include "io/JsonValues.h"
#include "ops/Elemwise.h"
#include "ops/Opaque.h"
#include "rewrite/Pipeline.h"

#include <QtTest>

#include <map>

using namespace tl;

namespace {

struct Opts {
    const char* name;
    DPrintOptions o;
    bool typed;  // every type (or shape) printed: the import prints back exactly and runs
};

std::vector<Opts> optionSets() {
    std::vector<Opts> v;
    auto make = [](bool type, bool shape, bool destroy, bool view, bool info, bool topo) {
        DPrintOptions o;
        o.printType = type;
        o.printShape = shape;
        o.printDestroyMap = destroy;
        o.printViewMap = view;
        o.printOpInfo = info;
        o.printTopoIndex = topo;
        return o;
    };
    v.push_back({"all", make(true, true, true, true, true, true), true});
    v.push_back({"type", make(true, false, false, false, false, false), true});
    v.push_back({"type+topo", make(true, false, true, false, false, true), true});
    v.push_back({"shape+info", make(false, true, false, false, true, false), true});
    v.push_back({"view+info", make(false, false, false, true, true, false), false});
    v.push_back({"plain", make(false, false, false, false, false, false), false});
    DPrintOptions depth = make(true, false, false, false, false, false);
    depth.depth = 3;
    v.push_back({"type, depth 3", depth, false});
    return v;
}

std::string joinNotes(const DPrintImport& imp) {
    std::string s;
    for (const auto& n : imp.notes) s += n + "\n";
    return s;
}

bool hasOpaque(const Graph& g) {
    for (const Node* n : g.nodes())
        if (dynamic_cast<const OpaqueOp*>(&n->op())) return true;
    return false;
}

std::map<std::string, NDArray> valuesByName(const Graph& g, uint64_t seed) {
    std::vector<NDArray> vals = randomInputs(g, seed);
    std::map<std::string, NDArray> m;
    for (size_t i = 0; i < vals.size(); ++i) m[g.inputs()[i]->name()] = vals[i];
    return m;
}

// Prints `g` with `o`, imports the text and prints it again: the same text. With
// every type printed, the import runs and gives g's outputs.
void roundTrip(const Graph& g, const Opts& opts) {
    const std::string text = dprint(g, opts.o);
    DPrintImport imp;
    try {
        imp = importDprint(text);
    } catch (const std::exception& e) {
        QFAIL((std::string(e.what()) + "\n--- listing:\n" + text).c_str());
    }
    DPrintOptions back = opts.o;
    back.topoIndexOverride = &imp.topoIndex;
    const std::string again = dprint(*imp.graph, back);
    const std::string report = "--- listing:\n" + text + "--- printed back:\n" + again + "--- notes:\n" + joinNotes(imp);
    if (opts.typed) {
        QVERIFY2(again == text, report.c_str());
    } else {
        // Without types (or below a depth limit) some nodes may not type-check: they
        // stay opaque, with a note, and print without their bodies and op-info tags.
        QVERIFY2(again == text || joinNotes(imp).find("opaque") != std::string::npos, report.c_str());
        QVERIFY2(again.substr(0, again.find(' ')) == text.substr(0, text.find(' ')), report.c_str());
    }
    const auto problems = imp.graph->validate();
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
    if (!opts.typed || opts.o.printType == false) return;
    QVERIFY2(!hasOpaque(*imp.graph), joinNotes(imp).c_str());
    for (const Variable* in : imp.graph->inputs()) QVERIFY2(!in->name().empty(), "unnamed input");
    auto values = valuesByName(g, 7);
    std::vector<NDArray> a, b;
    for (const Variable* in : g.inputs()) a.push_back(values.at(in->name()));
    for (const Variable* in : imp.graph->inputs()) b.push_back(values.at(in->name()));
    RunResult ra = runGraph(g, a), rb = runGraph(*imp.graph, b);
    QCOMPARE(rb.outputs.size(), ra.outputs.size());
    for (size_t i = 0; i < ra.outputs.size(); ++i) TL_COMPARE_ARRAYS(rb.outputs[i], ra.outputs[i], 0, 0);
}

} // namespace

class TestDPrintImportRoundTrip : public QObject {
    Q_OBJECT
private slots:
    void goldens_data() {
        QTest::addColumn<int>("graph");
        QTest::addColumn<int>("opts");
        auto cases = golden::cases();
        auto sets = optionSets();
        for (size_t i = 0; i < cases.size(); ++i)
            for (size_t k = 0; k < sets.size(); ++k)
                QTest::newRow((cases[i].name + " / " + sets[k].name).c_str()) << static_cast<int>(i) << static_cast<int>(k);
    }
    void goldens() {
        QFETCH(int, graph);
        QFETCH(int, opts);
        auto g = golden::cases()[static_cast<size_t>(graph)].build();
        roundTrip(*g, optionSets()[static_cast<size_t>(opts)]);
    }

    void builtInExamples_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("rewritten");
        QTest::addColumn<int>("opts");
        auto sets = optionSets();
        for (const Example& e : tl::examples())
            for (bool rewritten : {false, true})
                for (size_t k = 0; k < sets.size(); ++k)
                    QTest::newRow((e.name + (rewritten ? " FAST_RUN / " : " / ") + sets[k].name).c_str())
                        << QString::fromStdString(e.name) << rewritten << static_cast<int>(k);
    }
    void builtInExamples() {
        QFETCH(QString, name);
        QFETCH(bool, rewritten);
        QFETCH(int, opts);
        auto g = buildExample(name.toStdString());
        if (rewritten) Pipeline::fastRun().run(*g, PipelineOptions{});
        roundTrip(*g, optionSets()[static_cast<size_t>(opts)]);
    }

    // A 3000-deep chain (its listing is 13 MB: line k is indented 3k characters):
    // nothing recurses on depth. What it costs: bench/bench_dprint.cpp.
    void deepChain() {
        GraphAssembler ga;
        Variable* v = ga.addInput(Type::tensor(DType::Float64, {3}), "x");
        for (int i = 0; i < 3000; ++i) v = ga.addNode(makeElemwise(i % 2 ? ScalarOpCode::Exp : ScalarOpCode::Neg), {v})->output(0);
        ga.setOutputs({v});
        const auto gOwned = ga.finish();
        const Graph& g = *gOwned;
        Opts o{"type+topo", {}, true};
        o.o.printType = o.o.printTopoIndex = true;
        roundTrip(g, o);
    }
};

TL_TEST_SUITE(TestDPrintImportRoundTrip)
#include "tst_dprint_import_roundtrip.moc"
