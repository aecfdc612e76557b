// Listings a real PyTensor 2.34 printed (tests/data/dprint_import/, made by
// make_listings.py) read back: for each program, pytensor.dprint of its graph (with
// types), of its compiled function (types, destroy maps, op info) and of the compiled
// function with dprint's defaults (no types: imported with the input values' types).
// Every listing imports; every Scan reads back with PyTensor's own layout (taps are
// never printed); and every listing whose values are all printed runs to PyTensor's
// outputs. What each program is there for is in make_listings.py.
#include "TestSuites.h"
#include "TestSupport.h"

#include "exec/Executor.h"
#include "io/DPrintImport.h"
#include "io/JsonValues.h"
#include "ops/Elemwise.h"
#include "ops/ScanOp.h"

#include <QtTest>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

using namespace tl;
using namespace tl::test;

namespace {

const std::vector<std::string> kCases = {"rop_of_scan", "grad_of_states", "gapped_taps", "nested_loops",
                                         "map_over_slices", "fused_arithmetic", "graph_ops"};

std::string dataFile(const std::string& name) {
    std::ifstream in(sourcePath("tests/data/dprint_import/" + name), std::ios::binary);
    if (!in) throw std::runtime_error("tests/data/dprint_import/" + name + " is missing");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

nlohmann::json caseDoc(const std::string& name) { return nlohmann::json::parse(dataFile(name + ".json")); }

// The layouts of every Scan in g and its inner graphs, as make_listings.py writes them.
void collectLayouts(const Graph& g, std::vector<std::string>& out) {
    for (const Node* n : g.nodes()) {
        if (const auto* scan = dynamic_cast<const ScanOp*>(&n->op())) {
            const ScanInfo& i = scan->info();
            nlohmann::json j = {{"n_seqs", i.nSeqs},       {"mit_mot_in_taps", i.mitMotInTaps}, {"mit_mot_out_taps", i.mitMotOutTaps},
                                {"mit_sot_taps", i.mitSotTaps}, {"n_sit_sot", i.nSitSot},         {"n_untraced", i.nUntraced},
                                {"n_nit_sot", i.nNitSot},   {"n_non_seqs", i.nNonSeqs},         {"as_while", i.asWhile}};
            out.push_back(j.dump());
        }
        if (auto inner = n->op().innerGraph()) collectLayouts(*inner, out);
    }
}

std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

// What the listing itself lacks for a run: values PyTensor's print elided or rounded.
bool listingLacksValues(const DPrintImport& imp) {
    return std::any_of(imp.notes.begin(), imp.notes.end(), [](const std::string& n) {
        return n.find("values are elided") != std::string::npos || n.find("may be rounded") != std::string::npos;
    });
}

} // namespace

class TestDPrintImportListings : public QObject {
    Q_OBJECT
private slots:
    void listing_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("kind");
        for (const std::string& c : kCases)
            for (const char* kind : {"graph", "compiled", "plain"})
                QTest::newRow((c + "." + kind).c_str()) << QString::fromStdString(c) << QString(kind);
    }

    void listing() {
        QFETCH(QString, name);
        QFETCH(QString, kind);
        const nlohmann::json doc = caseDoc(name.toStdString());
        const std::string text = dataFile(name.toStdString() + "." + kind.toStdString() + ".txt");
        DPrintInputTypes types;
        if (kind == "plain") types = valueTypes(doc["inputs"], name.toStdString());
        const DPrintImport imp = importDprint(text, name.toStdString(), types);
        QVERIFY(imp.graph);

        // Layouts: the compiled function's listings show its loops, the graph's its own.
        std::vector<std::string> got, want;
        collectLayouts(*imp.graph, got);
        for (const auto& s : doc["scans"][kind == "graph" ? "graph" : "compiled"]) want.push_back(s.dump());
        QCOMPARE(sorted(got), sorted(want));

        if (listingLacksValues(imp)) {
            QVERIFY2(kind != "graph", "every graph listing of these programs prints all its values");
            return;
        }
        nlohmann::json values = nlohmann::json::object();
        for (const Variable* in : imp.graph->inputs()) values[in->name()] = doc["inputs"].at(in->name());
        const RunResult r = runGraph(*imp.graph, inputsFromJson(values, *imp.graph, "inputs"));
        QCOMPARE(r.outputs.size(), doc["outputs"].size());
        for (size_t k = 0; k < r.outputs.size(); ++k) {
            const auto& want = doc["outputs"][k];
            const NDArray expected = arrayFromJson(want, Type::tensor(*parseDType(want["dtype"].get<std::string>()),
                                                                      StaticShape(want["shape"].size(), kUnknownDim)),
                                                   "outputs/" + std::to_string(k));
            const std::string diff = compareArrays(r.outputs[k], expected, expected.dtype() == DType::Float32 ? 1e-5 : 1e-12);
            QVERIFY2(diff.empty(), ("output " + std::to_string(k) + ": " + diff).c_str());
        }
    }

    // What the programs are there for, read off the imported graphs.
    void whatTheListingsHold() {
        // PyTensor's inplace true_div and maximum print as `Truediv` and `Scalarmaximum`.
        const DPrintImport fused = importDprint(dataFile("fused_arithmetic.compiled.txt"));
        std::map<ScalarOpCode, int> inplace;
        for (const Node* n : fused.graph->nodes())
            if (const auto* e = dynamic_cast<const Elemwise*>(&n->op()); e && !e->isComposite() && !e->inplacePattern().empty())
                ++inplace[e->scalarOp()];
        QCOMPARE(inplace[ScalarOpCode::TrueDiv], 1);
        QCOMPARE(inplace[ScalarOpCode::Maximum], 1);
        // An inner input that is also a nested loop's input (two op-info tags on its line),
        // and the constant 5 in both the loop's and its Rop's bodies: read, nothing opaque.
        for (const char* listing : {"nested_loops.compiled.txt", "rop_of_scan.graph.txt"}) {
            const DPrintImport imp = importDprint(dataFile(listing));
            for (const std::string& n : imp.notes) QVERIFY2(n.find("opaque") == std::string::npos, (listing + (": " + n)).c_str());
        }
        const DPrintImport ops = importDprint(dataFile("graph_ops.graph.txt"));
        const std::string opsBack = dprint(*ops.graph, ops.options);
        QVERIFY(opsBack.find("AllocDiag{self.axis1=0, self.axis2=1, self.offset=0}") != std::string::npos);
        QVERIFY(opsBack.find("Blockwise{Tri") != std::string::npos);
        QVERIFY(opsBack.find("Print{message='resid'") != std::string::npos);
        for (const std::string& n : ops.notes) QVERIFY2(n.find("opaque") == std::string::npos, n.c_str());
        // An elided constant becomes an opaque node, which PyTensor's topological indices
        // do not count: the printed indices are still PyTensor's order.
        const DPrintImport grad = importDprint(dataFile("grad_of_states.compiled.txt"));
        bool elided = false;
        for (const std::string& n : grad.notes) {
            elided |= n.find("values are elided") != std::string::npos;
            QVERIFY2(n.find("topological indices differ") == std::string::npos, n.c_str());
        }
        QVERIFY(elided);
    }
};

TL_TEST_SUITE(TestDPrintImportListings)
#include "tst_dprint_import_listings.moc"
