// Every input the fuzzers (tests/fuzz/, docs/fuzzing.md) ever crashed on, replayed
// through the same checks as the fuzz targets: tests/fuzz/regressions/<target>/*.
// Bad input must end in FormatError; input that loads must save and load again
// to the same text (and an imported dprint listing must validate and print).
#include "TestSuites.h"
#include "TestSupport.h"
#include "io/DPrint.h"
#include "io/DPrintImport.h"
#include "io/JsonGraph.h"
#include "io/JsonTrace.h"

#include <QDir>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace tl;

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// One row per regression file, plus a malformed control row so every slot has data.
void addRows(const char* target, const char* control) {
    QTest::addColumn<QByteArray>("text");
    QDir dir(QString::fromStdString(test::sourcePath(std::string("tests/fuzz/regressions/") + target)));
    for (const QString& f : dir.entryList(QDir::Files, QDir::Name))
        QTest::newRow(qPrintable(f)) << QByteArray::fromStdString(readFile(dir.filePath(f).toStdString()));
    QTest::newRow("control: malformed") << QByteArray(control);
}

} // namespace

class TestFuzzRegressions : public QObject {
    Q_OBJECT
private slots:
    void jsonGraph_data() { addRows("json_graph", "{\"format\": \"tensorlens-graph\", \"version\": 1, \"graph\": {"); }
    void jsonGraph() {
        QFETCH(QByteArray, text);
        std::unique_ptr<Graph> g;
        try {
            g = graphFromJsonText(text.toStdString(), "regression.json");
        } catch (const FormatError&) {
            return;
        }
        const std::string saved = graphToJsonText(*g);
        QCOMPARE(QString::fromStdString(graphToJsonText(*graphFromJsonText(saved))), QString::fromStdString(saved));
        DPrintOptions o;
        o.printType = o.printDestroyMap = o.printOpInfo = o.printTopoIndex = true;
        QVERIFY(!dprint(*g, o).empty());
    }

    void trace_data() { addRows("trace", "{\"format\": \"tensorlens-trace\", \"steps\": 3}"); }
    void trace() {
        QFETCH(QByteArray, text);
        try {
            Trace t = traceFromJsonText(text.toStdString(), "regression-trace.json");
            const std::string saved = traceToJsonText(t);
            QCOMPARE(QString::fromStdString(traceToJsonText(traceFromJsonText(saved))), QString::fromStdString(saved));
        } catch (const FormatError&) {
        }
    }

    void dprintImport_data() { addRows("dprint_import", "Exp [id A]\n \u251c\u2500 x [id B]\n"); }
    void dprintImport() {
        QFETCH(QByteArray, text);
        DPrintImport imp;
        try {
            imp = importDprint(text.toStdString(), "regression.txt");
        } catch (const FormatError&) {
            return;
        }
        const auto problems = imp.graph->validate();
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
        DPrintOptions o = imp.options;
        o.topoIndexOverride = &imp.topoIndex;
        QVERIFY(!dprint(*imp.graph, o).empty());
        const std::string saved = graphToJsonText(*imp.graph);
        QCOMPARE(QString::fromStdString(graphToJsonText(*graphFromJsonText(saved))), QString::fromStdString(saved));
    }
};

TL_TEST_SUITE(TestFuzzRegressions)
#include "tst_fuzz_regressions.moc"
