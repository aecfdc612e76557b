// "What did PyTensor miss?" (compare/Comparison.h, docs/missed.md) on the seed
// report's programs as PyTensor 2.34 compiled them (traces recorded from the real
// PyTensor, tests/data/missed/, written by tests/pytensor/export_references.py) and
// on the seed's own listing: the duplicated state, the buffers, PyTensor's
// DeepCopyOp, the three report formats.
#include "TestSuites.h"
#include "TestSupport.h"
#include "compare/Comparison.h"
#include "compare/PyTensorDocument.h"
#include "compare/Report.h"
#include "io/DPrintImport.h"
#include "io/FormatError.h"
#include "io/JsonTrace.h"
#include "ir/GraphAssembler.h"
#include "ir/Rewriter.h"
#include "ops/Elemwise.h"
#include "trace/TraceRecorder.h"

#include <QtTest>

using namespace tl;

namespace {

Trace seedTrace(const std::string& name) { return loadTrace(test::sourcePath("tests/data/missed/" + name + ".trace.json")); }

const LoopSummary& onlyLoop(const GraphSummary& g) {
    if (g.loopSummaries.size() != 1) throw std::runtime_error("expected one loop, found " + std::to_string(g.loopSummaries.size()));
    return g.loopSummaries[0];
}

int countWhat(const Comparison& c, const std::string& part) {
    int n = 0;
    for (const MissedRewrite& m : c.missed) n += !m.consequence && m.what.find(part) != std::string::npos;
    return n;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A "PyTensor" trace of exp(x) * 2 whose one step swaps exp for log: a compiled graph
// that no longer computes the program (`wrong`), or one that recomputes the same
// values in another form, exp(x) + exp(x) (`wrong` false).
Trace traceEndingIn(bool wrong) {
    GraphAssembler a;
    Variable* x = a.addInput(Type::tensor(DType::Float64, {4}), "x");
    Node* e = a.addNode(makeElemwise(ScalarOpCode::Exp), {x});
    Node* twice = a.addNode(makeElemwise(ScalarOpCode::Mul), {e->output(0), a.addConstant(NDArray::fromVector(DType::Float64, {1}, {2.0}))});
    a.setOutputs({twice->output(0)});
    auto g = a.finish();
    Trace t(g->clone());
    Rewriter rw(*g);
    TraceRecorder rec(t, false);
    rw.addListener(&rec);
    Node* root = g->findNode(twice->id());
    Variable* in = g->findVariable(x->id());
    rw.beginRewrite("hand_edit", root);
    Node* now = wrong ? rw.create(makeElemwise(ScalarOpCode::Mul), {rw.create(makeElemwise(ScalarOpCode::Log), {in})->output(0),
                                                                     root->input(1)})
                      : rw.create(makeElemwise(ScalarOpCode::Add), {root->input(0), root->input(0)});
    rw.replace(root->output(0), now->output(0));
    rw.endRewrite("hand_edit", true);
    return t;
}

} // namespace

class TestMissed : public QObject {
    Q_OBJECT

private slots:
    void seedRopFromPyTensor() {
        Comparison c = compareWithPyTensor(seedTrace("seed_rop"), CompareOptions{});
        QVERIFY(c.hasTrace);
        QVERIFY(c.pytensorSteps > 20);
        QVERIFY2(c.pytensorFinalRewritten, c.missedError.c_str());
        // PyTensor's loop: three states of (2, 7), exp computed in two Composites.
        const LoopSummary& pt = onlyLoop(c.pytensorSummary);
        QCOMPARE(pt.recurrentStates, 3);
        QCOMPARE(pt.exps, 2);
        for (const StateSummary& s : pt.states) QCOMPARE(s.shape, std::string("(2, 7)"));
        // tensorlens on PyTensor's graph: the duplicated state merged, both buffers down to one row.
        const LoopSummary& rw = onlyLoop(c.rewrittenSummary);
        QCOMPARE(rw.recurrentStates, 2);
        QCOMPARE(rw.exps, 1);
        for (const StateSummary& s : rw.states) QCOMPARE(s.shape, std::string("(1, 7)"));
        QCOMPARE(countWhat(c, " merged into "), 1);
        QCOMPARE(countWhat(c, "(2, 7) -> (1, 7)"), 2);
        for (const MissedRewrite& m : c.missed) {
            if (m.consequence) continue;
            QVERIFY2(!m.why.empty(), m.what.c_str());
            QVERIFY2(!m.pytensorWhy.empty(), m.what.c_str());  // both come with PyTensor's reason
        }
        // tensorlens's own pipeline on PyTensor's original graph ends the same way.
        QVERIFY2(c.tensorlensFinal, c.tensorlensError.c_str());
        QCOMPARE(onlyLoop(c.tensorlensSummary).recurrentStates, 2);
        // Both final graphs ran on the same inputs and agree.
        QVERIFY2(c.pytensorRun.ran, c.pytensorRun.error.c_str());
        QVERIFY2(c.tensorlensRun.ran, c.tensorlensRun.error.c_str());
        QVERIFY2(c.outputsCompared && c.maxAbsDifference < 1e-12, c.differenceNote.c_str());
        QVERIFY(c.tensorlensRun.peakBytes <= c.pytensorRun.peakBytes);

        const std::vector<std::string> headlines = comparisonHeadlines(c);
        std::string all;
        for (const std::string& h : headlines) all += h + "\n";
        QVERIFY2(contains(all, "`exp` computed 2 times per step where 1 would do") && contains(all, "3 recurrent states -> 2"),
                 all.c_str());
        QVERIFY2(contains(all, "have shape (2, 7) instead of (1, 7)"), all.c_str());
    }

    void seedDupFromPyTensor() {
        Comparison c = compareWithPyTensor(seedTrace("seed_dup"), CompareOptions{});
        QVERIFY2(c.pytensorFinalRewritten, c.missedError.c_str());
        const LoopSummary& pt = onlyLoop(c.pytensorSummary);
        QCOMPARE(pt.recurrentStates, 2);
        QCOMPARE(pt.exps, 2);
        // PyTensor copies the initial buffer the two states share (scan_make_inplace's DeepCopyOp).
        QCOMPARE(c.pytensorSummary.deepCopies, 1);
        QVERIFY2(contains(c.pytensorSummary.deepCopyOf[0], "outer_in_sit_sot-1"), c.pytensorSummary.deepCopyOf[0].c_str());
        QCOMPARE(onlyLoop(c.rewrittenSummary).recurrentStates, 1);
        QCOMPARE(onlyLoop(c.rewrittenSummary).exps, 1);
        QCOMPARE(countWhat(c, "sit_sot-1 merged into sit_sot-0"), 1);
        for (const std::string& d : c.rewrittenSummary.deepCopyOf) QVERIFY2(!contains(d, "outer_in_"), d.c_str());
        std::string all;
        for (const std::string& h : comparisonHeadlines(c)) all += h + "\n";
        QVERIFY2(contains(all, "DeepCopyOp") && contains(all, "computes the same sequence"), all.c_str());
        QVERIFY2(c.outputsCompared && c.maxAbsDifference == 0.0, c.differenceNote.c_str());
    }

    void seedListingWithoutTrace() {
        // The seed's first listing as pasted from the issue: PyTensor's compiled graph only.
        PyTensorDocument doc = readPyTensorDocument(test::seedDprintListing(1), "missed-scan-rewrites.txt");
        QVERIFY(doc.kind == PyTensorDocument::Kind::DPrint);
        Comparison c = compareCompiledGraph(*doc.compiled, CompareOptions{});
        QVERIFY(!c.hasTrace && !c.tensorlensFinal);
        QVERIFY2(c.pytensorFinalRewritten, c.missedError.c_str());
        QCOMPARE(onlyLoop(c.pytensorSummary).recurrentStates, 3);
        QCOMPARE(onlyLoop(c.pytensorSummary).exps, 2);
        QCOMPARE(onlyLoop(c.rewrittenSummary).recurrentStates, 2);
        QCOMPARE(onlyLoop(c.rewrittenSummary).exps, 1);
        QCOMPARE(countWhat(c, " merged into "), 1);
        QCOMPARE(countWhat(c, "(2, 7) -> (1, 7)"), 2);
        QVERIFY2(c.outputsCompared && c.maxAbsDifference < 1e-12, c.differenceNote.c_str());
    }

    void pytensorModeKeepsPyTensorsRows() {
        // Sized as PyTensor's C backend, the buffers stay at 2 rows: only the merge is missed.
        CompareOptions o;
        o.bufferMode = RewriteOptions::BufferMode::PyTensor;
        Comparison c = compareWithPyTensor(seedTrace("seed_rop"), o);
        QCOMPARE(c.mode, std::string("pytensor"));
        QCOMPARE(countWhat(c, " merged into "), 1);
        QCOMPARE(countWhat(c, "(2, 7) -> (1, 7)"), 0);
        for (const StateSummary& s : onlyLoop(c.rewrittenSummary).states) QCOMPARE(s.shape, std::string("(2, 7)"));
    }

    void markdownReadsLikeTheSeedReport() {
        Comparison c = compareWithPyTensor(seedTrace("seed_rop"), CompareOptions{});
        c.program = "seed_rop";
        MarkdownOptions mo;
        mo.source = "x_init = pt.vector(\"x_init\", shape=(7,))\n";
        const std::string md = comparisonMarkdown(c, mo);
        // The program, the findings, then PyTensor's compiled graph in its own dprint format.
        QVERIFY(contains(md, "## Missed rewrites in `seed_rop`"));
        QVERIFY(contains(md, "```python\nx_init = pt.vector"));
        QVERIFY(contains(md, "* Scan rop_of_scan_fn&scan_fn computes the same sequence more than once"));
        QVERIFY(contains(md, "### PyTensor's compiled graph\n\n```\nSubtensor{i} [id A] <Vector(float64, shape=(7,))>"));
        QVERIFY(contains(md, "Scan{rop_of_scan_fn&scan_fn, while_loop=False, inplace=all}.2 [id B] <Matrix(float64, shape=(?, 7))> d={0: [1], 1: [2], 2: [3]}"));
        QVERIFY(contains(md, "Inner graphs:"));
        QVERIFY(contains(md, "### After tensorlens's rewrites"));
        QVERIFY(contains(md, "| loop rop_of_scan_fn&scan_fn |"));
        QVERIFY(contains(md, "*Why PyTensor did not:*"));
        QVERIFY(contains(md, "scan_save_mem_prealloc"));
        // The text table and JSON carry the same findings.
        const std::string text = comparisonText(c);
        QVERIFY2(contains(text, "Missed rewrites (tensorlens's steps on PyTensor's compiled graph): 3"), text.c_str());
        const nlohmann::json j = comparisonJson(c);
        QCOMPARE(j["format"].get<std::string>(), std::string("tensorlens-missed"));
        QCOMPARE(j["missed_count"].get<int>(), 3);
        QCOMPARE(j["pytensor"]["loop_summaries"][0]["exp_per_step"].get<int>(), 2);
        QCOMPARE(j["tensorlens_on_pytensor"]["loop_summaries"][0]["recurrent_states"].get<int>(), 2);
        QVERIFY(j["max_abs_difference"].is_number());
    }

    void noRunGivesStaticFactsOnly() {
        CompareOptions o;
        o.run = false;
        Comparison c = compareWithPyTensor(seedTrace("seed_dup"), o);
        QVERIFY(!c.pytensorRun.ran && !c.outputsCompared);
        QCOMPARE(c.differenceNote, std::string("not run"));
        QVERIFY(!c.missed.empty());
    }

    void outputsThatDifferAreBlamedOnTheSideThatChangedThem() {
        CompareOptions o;
        o.inputs = {NDArray::fromVector(DType::Float64, {4}, {0.5, 1.0, 2.0, 3.0})};
        Comparison c = compareWithPyTensor(traceEndingIn(true), o);
        QVERIFY(c.outputsCompared);
        QVERIFY(!c.outputsAgree);
        QVERIFY2(contains(c.disagreement, "PyTensor's compiled graph"), c.disagreement.c_str());
        const std::vector<std::string> h = comparisonHeadlines(c);
        QVERIFY(!h.empty());
        QVERIFY2(contains(h.front(), "The outputs differ by more than rounding"), h.front().c_str());
        QCOMPARE(comparisonJson(c)["outputs_agree"].get<bool>(), false);
        // The same values in another form (exp(x)*2 against exp(x)+exp(x)): no alarm.
        Comparison same = compareWithPyTensor(traceEndingIn(false), o);
        QVERIFY(same.outputsCompared);
        QVERIFY(same.outputsAgree);
        QVERIFY(same.disagreement.empty());
        for (const std::string& line : comparisonHeadlines(same)) QVERIFY2(!contains(line, "outputs differ"), line.c_str());
    }

    void badInputNamesThePlace() {
        try {
            readPyTensorDocument("{\"format\": \"tensorlens-graph\", \"version\": 1, \"graph\": {\"nodes\": 3}}", "broken.json");
            QFAIL("a malformed graph was accepted");
        } catch (const FormatError& e) {
            QVERIFY2(contains(e.what(), "broken.json: /graph"), e.what());
        }
        try {
            readPyTensorDocument("{\"format\": \"something-else\"}", "other.json");
            QFAIL("an unknown format was accepted");
        } catch (const FormatError& e) {
            QVERIFY2(contains(e.what(), "other.json: /format"), e.what());
        }
        try {
            readPyTensorDocument("Subtensor{i} [id A] 3\n ├─ x [id B]\n", "cut.txt");
            QFAIL("a truncated listing was accepted");
        } catch (const FormatError& e) {
            QVERIFY2(contains(e.what(), "cut.txt: line"), e.what());
        }
    }
};

TL_TEST_SUITE(TestMissed)
#include "tst_missed.moc"
