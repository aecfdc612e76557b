// The whole pipeline on every PyTensor reference case (tests/oracle): outputs equal
// PyTensor's, and the rewritten graph is at least as good by PyTensor's own figures
// (number of loops, buffer rows, exp per step). In `pytensor` mode the buffers equal
// FAST_RUN's exactly; in `exact` mode they lie between no_prealloc's and FAST_RUN's.
#include "TestSuites.h"
#include "TestSupport.h"
#include "builder/Examples.h"
#include "exec/Executor.h"
#include "io/JsonValues.h"
#include "ops/Elemwise.h"
#include "ops/ScanOp.h"
#include "rewrite/Pipeline.h"

#include <QtTest>

#include <algorithm>

using namespace tl;

namespace {
struct Figures {
    int scans = 0;
    std::vector<int64_t> bufferRows;  // every traced state of every loop, sorted
    int exps = 0;                     // exp evaluations per step, over all loops
};

int countExp(const Graph& g) {
    int n = 0;
    std::vector<const Graph*> stack{&g};
    while (!stack.empty()) {
        const Graph* cur = stack.back();
        stack.pop_back();
        for (const Node* node : cur->nodes()) {
            if (node->op().kind() == OpKind::Scalar || node->op().kind() == OpKind::Elemwise) {
                const std::string name = node->op().name();
                n += name == "exp" || name == "Exp";
            }
            if (node->op().kind() == OpKind::Elemwise)
                if (auto inner = node->op().innerGraph()) stack.push_back(inner.get());
        }
    }
    return n;
}

Figures figuresOf(const Graph& g) {
    Figures f;
    for (const Node* n : g.nodes()) {
        if (n->op().kind() != OpKind::Scan) continue;
        const auto& s = static_cast<const ScanOp&>(n->op());
        ++f.scans;
        for (int k = 0; k < s.info().nTracedStates(); ++k)
            f.bufferRows.push_back(n->input(s.info().outerInMitMot() + k)->type().shape.at(0));
        f.exps += countExp(*s.inner());
    }
    std::sort(f.bufferRows.begin(), f.bufferRows.end());
    return f;
}

Figures figuresOf(const nlohmann::json& mode) {
    Figures f;
    for (const auto& s : mode.at("scans")) {
        ++f.scans;
        for (const auto& st : s.at("states"))
            if (st.at("category") != "nit_sot" && st.at("category") != "untraced")
                f.bufferRows.push_back(st.at("buffer_shape").at(0).get<int64_t>());
        f.exps += s.at("inner_exp_count").get<int>();
    }
    std::sort(f.bufferRows.begin(), f.bufferRows.end());
    return f;
}

QString rows(const std::vector<int64_t>& r) {
    QStringList l;
    for (int64_t x : r) l << QString::number(x);
    return "[" + l.join(", ") + "]";
}
} // namespace

class TestOraclePipeline : public QObject {
    Q_OBJECT
private slots:
    void cases_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("mode");
        for (const Example& e : examples())
            for (const char* mode : {"exact", "pytensor"})
                QTest::newRow((e.name + " " + mode).c_str()) << QString::fromStdString(e.name) << mode;
    }
    void cases() {
        QFETCH(QString, name);
        QFETCH(QString, mode);
        const std::string file = test::oracleCaseFile(name.toStdString());
        if (file.empty()) QSKIP("no PyTensor reference case for this example");
        const nlohmann::json expected = readJsonFile(file);
        auto g = buildExample(name.toStdString());
        PipelineOptions opts;
        opts.bufferMode = mode == "exact" ? RewriteOptions::BufferMode::Exact : RewriteOptions::BufferMode::PyTensor;
        opts.checkHonestChange = true;
        Pipeline::fastRun().run(*g, opts);

        RunResult r = runGraph(*g, inputsFromJson(expected.at("inputs"), *g, "expected.json: /inputs"));
        const auto& outs = expected.at("outputs");
        QCOMPARE(r.outputs.size(), outs.size());
        for (size_t i = 0; i < outs.size(); ++i)
            TL_COMPARE_ARRAYS(r.outputs[i], arrayFromJson(outs[i], g->outputs()[i]->type(), "/outputs"), 1e-12, 1e-300);

        const Figures ours = figuresOf(*g);
        const Figures fastRun = figuresOf(expected.at("fast_run"));
        const Figures noPrealloc = figuresOf(expected.at("no_prealloc"));
        QVERIFY2(ours.scans <= fastRun.scans, qPrintable(QString("%1 loops, PyTensor %2").arg(ours.scans).arg(fastRun.scans)));
        QVERIFY2(ours.exps <= fastRun.exps, qPrintable(QString("%1 exp per step, PyTensor %2").arg(ours.exps).arg(fastRun.exps)));
        long long oursTotal = 0, fastTotal = 0, npTotal = 0;
        for (auto x : ours.bufferRows) oursTotal += x;
        for (auto x : fastRun.bufferRows) fastTotal += x;
        for (auto x : noPrealloc.bufferRows) npTotal += x;
        const QString detail = QString("ours %1, FAST_RUN %2, no_prealloc %3")
                                   .arg(rows(ours.bufferRows), rows(fastRun.bufferRows), rows(noPrealloc.bufferRows));
        QVERIFY2(oursTotal <= fastTotal, qPrintable(detail));
        // Where both keep the same loops and states, compare state by state.
        if (mode == "pytensor" && ours.bufferRows.size() == fastRun.bufferRows.size())
            QVERIFY2(ours.bufferRows == fastRun.bufferRows, qPrintable(detail));
        if (mode == "exact" && ours.bufferRows.size() == noPrealloc.bufferRows.size())
            for (size_t i = 0; i < ours.bufferRows.size(); ++i) QVERIFY2(ours.bufferRows[i] >= noPrealloc.bufferRows[i], qPrintable(detail));
    }
};

TL_TEST_SUITE(TestOraclePipeline)
#include "tst_oracle_pipeline.moc"
