// Scan parity with PyTensor on PyTensor's own graphs (docs/missed.md#scan-parity):
// each case of tests/data/scan_parity/ holds a program's graph as a real PyTensor
// 2.34 built it, its FAST_RUN graph just before PyTensor's scan_save_mem, and the
// buffer rows PyTensor's compiled loops ran with (tests/pytensor/export_references.py).
// Through tensorlens's pipeline, `pytensor` mode must give PyTensor's FAST_RUN rows
// and `exact` mode never more, and both must compute PyTensor's outputs. Rows are
// the buffers' static lengths, or their lengths at run time where the type has none.
#include "TestSuites.h"
#include "TestSupport.h"
#include "exec/Executor.h"
#include "io/JsonGraph.h"
#include "io/JsonValues.h"
#include "analysis/PyTensorOrder.h"
#include "ir/GraphCopy.h"
#include "ops/ScanOp.h"
#include "rewrite/Pipeline.h"

#include <QDir>
#include <functional>
#include <QtTest>


using namespace tl;

namespace {

std::string parityDir() { return test::sourcePath("tests/data/scan_parity"); }

struct StateRows {
    std::string category;
    int index = 0;
    int64_t rows = -1;
};

struct LoopRows {
    int64_t nSteps = -1;  // -1: not a constant
    std::vector<StateRows> states;
};

// tensorlens's loops in PyTensor's order, each state's static buffer rows (-1: unknown).
std::vector<LoopRows> loopRows(const Graph& g) {
    std::vector<LoopRows> out;
    for (const Node* n : pytensorToposort(g)) {
        const auto* scan = dynamic_cast<const ScanOp*>(&n->op());
        if (!scan) continue;
        const ScanInfo& I = scan->info();
        std::vector<StateRows> states;
        for (int s = 0; s < I.nTracedStates(); ++s) {
            const auto& shape = n->input(I.outerInMitMot() + s)->type().shape;
            states.push_back({scanCategoryName(I.stateCategory(s)), I.indexInCategory(s), shape.empty() ? -1 : shape[0]});
        }
        for (int k = 0; k < I.nNitSot; ++k) {
            const Variable* v = n->input(I.outerInNitSot() + k);
            states.push_back({"nit_sot", k, v->isConstant() ? v->constantValue().itemInt() : -1});
        }
        const Variable* steps = n->input(0);
        out.push_back({steps->isConstant() ? steps->constantValue().itemInt() : -1, std::move(states)});
    }
    return out;
}

// Fills the rows `loopRows` could not read from types with the rows the buffers have
// when `g` runs on `inputs`: a buffer PyTensor built before its constant folding keeps
// the unknown length it was typed with (a gradient's mit_mot), which PyTensor's
// figures, taken at run time, know.
void fillRowsAtRunTime(const Graph& g, std::span<const NDArray> inputs, std::vector<LoopRows>& loops) {
    GraphAssembler probe;
    VariableMap map;
    for (const Variable* in : g.inputs()) map[in] = probe.addInput(in->type(), in->name());
    copyGraphInto(probe, g, map, CopyIds::Keep);
    std::vector<Variable*> outs;
    for (const Variable* o : g.outputs()) outs.push_back(map.at(o));
    std::vector<StateRows*> unknown;
    size_t l = 0;
    for (const Node* n : pytensorToposort(g)) {
        const auto* scan = dynamic_cast<const ScanOp*>(&n->op());
        if (!scan) continue;
        const ScanInfo& I = scan->info();
        for (int s = 0; s < I.nTracedStates() + I.nNitSot; ++s) {
            StateRows& r = loops.at(l).states.at(s);
            if (r.rows >= 0) continue;
            const int in = s < I.nTracedStates() ? I.outerInMitMot() + s : I.outerInNitSot() + (s - I.nTracedStates());
            outs.push_back(map.at(n->input(in)));
            unknown.push_back(&r);
        }
        ++l;
    }
    if (unknown.empty()) return;
    probe.setOutputs(outs);
    const auto graph = probe.finish();
    const RunResult run = runGraph(*graph, inputs);
    for (size_t k = 0; k < unknown.size(); ++k) {
        const NDArray& v = run.outputs.at(g.outputs().size() + k);
        unknown[k]->rows = v.ndim() == 0 ? v.itemInt() : v.shape().at(0);
    }
}

std::string describe(const std::vector<LoopRows>& loops) {
    std::string s;
    for (const auto& l : loops) {
        s += "[";
        for (const StateRows& r : l.states) s += " " + r.category + "-" + std::to_string(r.index) + ":" + std::to_string(r.rows);
        s += " ]";
    }
    return s.empty() ? "no loop" : s;
}

// Whether one of tensorlens's loops is PyTensor's loop `theirs`: the same states in the
// same order, each with PyTensor's rows and steps (`pytensor` mode) or never more (`exact`).
bool sameLoop(const LoopRows& loop, const nlohmann::json& theirs, bool exact) {
    const std::vector<StateRows>& ours = loop.states;
    const nlohmann::json& states = theirs.at("states");
    if (ours.size() != states.size()) return false;
    // Steps as PyTensor's too (exact mode may run fewer, when the last ones are never read).
    if (loop.nSteps >= 0 && !theirs.at("n_steps").is_null()) {
        const int64_t pt = theirs.at("n_steps").get<int64_t>();
        if (exact ? loop.nSteps > pt : loop.nSteps != pt) return false;
    }
    for (size_t s = 0; s < ours.size(); ++s) {
        if (ours[s].category != states[s].at("category").get<std::string>()) return false;
        if (states[s].at("rows").is_null()) continue;
        const int64_t pt = states[s].at("rows").get<int64_t>();
        const int64_t tl = ours[s].rows;
        if (exact ? (tl < 0 || tl > pt) : tl != pt) return false;
    }
    return true;
}

// "" when every PyTensor loop is one of tensorlens's, each used once; else both lists.
// Independent loops may come in either order (each toposort breaks ties its own way).
std::string rowsMismatch(const std::vector<LoopRows>& ours, const nlohmann::json& theirs, bool exact) {
    const std::string both = "tensorlens " + describe(ours) + " vs PyTensor " + theirs.dump();
    if (ours.size() != theirs.size()) return "loops differ: " + both;
    // A one-to-one pairing (a search: a few loops), as a greedy one could pair a loop that
    // fits two of PyTensor's with the wrong one.
    std::vector<bool> used(ours.size(), false);
    std::function<bool(size_t)> pair = [&](size_t t) {
        if (t == theirs.size()) return true;
        for (size_t l = 0; l < ours.size(); ++l) {
            if (used[l] || !sameLoop(ours[l], theirs[t], exact)) continue;
            used[l] = true;
            if (pair(t + 1)) return true;
            used[l] = false;
        }
        return false;
    };
    return pair(0) ? std::string() : "no pairing of the loops: " + both;
}

} // namespace

class TestScanParity : public QObject {
    Q_OBJECT

private slots:
    void cases_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("graph");
        QTest::addColumn<bool>("exact");
        const QStringList files = QDir(QString::fromStdString(parityDir())).entryList({"*.json"}, QDir::Files, QDir::Name);
        QVERIFY2(files.size() >= 6, "tests/data/scan_parity holds the reference cases (tests/pytensor/export_references.py)");
        for (const QString& f : files)
            for (const char* graph : {"built", "before_save_mem"})
                for (bool exact : {false, true})
                    QTest::newRow(qPrintable(f.chopped(5) + " " + graph + (exact ? " exact" : " pytensor")))
                        << f << QString(graph) << exact;
    }

    void cases() {
        QFETCH(QString, file);
        QFETCH(QString, graph);
        QFETCH(bool, exact);
        const std::string path = parityDir() + "/" + file.toStdString();
        const nlohmann::json doc = readJsonFile(path);
        if (doc.contains("differences") && doc["differences"].contains(graph.toStdString()))
            QSKIP(qPrintable("a known difference: " + QString::fromStdString(doc["differences"][graph.toStdString()].get<std::string>())));
        if (doc.at(graph.toStdString()).is_null())
            QSKIP(qPrintable("PyTensor's graph holds an op tensorlens lacks: " + QString::fromStdString(doc.at("built_note").get<std::string>())));
        auto g = graphFromJson(doc.at(graph.toStdString()));
        PipelineOptions opts;
        opts.bufferMode = exact ? RewriteOptions::BufferMode::Exact : RewriteOptions::BufferMode::PyTensor;
        opts.checkHonestChange = true;
        Pipeline::fastRun().run(*g, opts);

        // Buffer rows against PyTensor's FAST_RUN, loop by loop, state by state.
        const std::vector<NDArray> inputs = inputsFromJson(doc.at("inputs"), *g, path);
        auto ours = loopRows(*g);
        fillRowsAtRunTime(*g, inputs, ours);
        const nlohmann::json& theirs = doc.at("pytensor").at("fast_run");
        const std::string mismatch = rowsMismatch(ours, theirs, exact);
        QVERIFY2(mismatch.empty(), mismatch.c_str());

        // PyTensor's outputs.
        RunResult r = runGraph(*g, inputs);
        QCOMPARE(r.outputs.size(), doc.at("expected").size());
        for (size_t o = 0; o < r.outputs.size(); ++o) {
            NDArray want = arrayFromJson(doc.at("expected")[o], g->outputs()[o]->type(), path + " expected " + std::to_string(o));
            TL_COMPARE_ARRAYS(r.outputs[o], want, 1e-12, 1e-14);
        }
    }
};

TL_TEST_SUITE(TestScanParity)
#include "tst_scan_parity.moc"
