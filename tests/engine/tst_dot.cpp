// DOT output: a valid digraph (balanced braces, quoted names), Scan bodies as
// clusters linked to the outer graph by category, family colours, and Graphviz's
// own `dot -Tsvg` accepting it when the binary is installed.
#include "TestSuites.h"
#include "DPrintGoldenGraphs.h"
#include "TestSupport.h"
#include "io/GraphvizDot.h"

#include <QProcess>
#include <QStandardPaths>
#include <QtTest>

using namespace tl;

namespace {

// Braces balance outside quoted strings, and every quote closes.
bool balanced(const std::string& dot) {
    int depth = 0;
    bool inString = false, escape = false;
    for (char c : dot) {
        if (inString) {
            if (escape) escape = false;
            else if (c == '\\') escape = true;
            else if (c == '"') inString = false;
            continue;
        }
        if (c == '"') inString = true;
        else if (c == '{') ++depth;
        else if (c == '}' && --depth < 0) return false;
    }
    return depth == 0 && !inString;
}

int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

// Runs Graphviz on the text; returns the SVG or "" when `dot` is not installed.
QByteArray renderSvg(const std::string& dot, bool& ran) {
    ran = false;
    QString exe = QStandardPaths::findExecutable("dot");
    if (exe.isEmpty()) return {};
    QProcess p;
    p.start(exe, {"-Tsvg"});
    p.write(QByteArray::fromStdString(dot));
    p.closeWriteChannel();
    if (!p.waitForFinished(60000)) return {};
    ran = true;
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) return "ERROR: " + p.readAllStandardError();
    return p.readAllStandardOutput();
}

const Node* findScan(const Graph& g) {
    for (const Node* n : g.nodes())
        if (n->op().kind() == OpKind::Scan) return n;
    return nullptr;
}

} // namespace

class TestDot : public QObject {
    Q_OBJECT
private slots:
    void scanBodyIsACluster() {
        auto g = golden::seedRop(true);
        std::string dot = toDot(*g);
        QVERIFY(balanced(dot));
        QVERIFY(dot.rfind("digraph \"tensorlens\" {", 0) == 0);
        const Node* scan = findScan(*g);
        QVERIFY(scan);
        QCOMPARE(count(dot, "subgraph \"cluster_n" + std::to_string(scan->id()) + "\""), 1);
        QCOMPARE(count(dot, "subgraph "), 1);  // Composite bodies stay folded by default
        // Inner inputs linked to the outer buffers, inner outputs back to the loop, by category.
        for (const char* cat : {"sit_sot-0", "sit_sot-1", "sit_sot-2"}) QVERIFY(count(dot, std::string("label=\"") + cat + "\"") >= 2);
        // Edges carry dtype and shape; multi-output edges their index.
        QVERIFY(dot.find("label=\"float64 (?, 7)\"") != std::string::npos || dot.find("label=\".2 float64 (?, 7)\"") != std::string::npos);
        QVERIFY(dot.find("label=\".1 float64 (?, 7)\"") != std::string::npos);
        // Names of inner nodes carry their scope.
        QVERIFY(dot.find("\"n" + std::to_string(scan->id()) + "_v") != std::string::npos);
        // Inplace nodes are outlined.
        QVERIFY(dot.find("penwidth=2") != std::string::npos);
        QVERIFY(dot.find(opFamilyColor(scan->op())) != std::string::npos);
    }

    void compositesOnRequest() {
        auto g = golden::seedRop(true);
        DotOptions opt;
        opt.expandComposites = true;
        std::string dot = toDot(*g, opt);
        QVERIFY(balanced(dot));
        QCOMPARE(count(dot, "subgraph "), 3);  // the Scan body and its two Composites, nested
        QVERIFY(dot.find("label=\"o1\"") != std::string::npos);
        opt.expandScans = false;
        opt.expandComposites = false;
        dot = toDot(*g, opt);
        QCOMPARE(count(dot, "subgraph "), 0);
    }

    void familiesAndNames() {
        auto g = golden::miscMapNonseq();
        QCOMPARE(QString::fromStdString(dotName({12, 3}, true, 7)), "n12_n3_v7");
        QCOMPARE(QString::fromStdString(dotName({}, false, 4)), "n4");
        const Node* scan = findScan(*g);
        QCOMPARE(QString::fromStdString(opFamilyColor(scan->op())), "#ffdfb0");  // the canvas's scan colour
        std::string dot = toDot(*g);
        QVERIFY(dot.find("label=\"seqs-0\"") != std::string::npos);
        QVERIFY(dot.find("label=\"nit_sot-0\"") != std::string::npos);
    }

    void highlightHook() {
        auto g = golden::miscMapElemwise();
        DotOptions opt;
        opt.nodeAttributes = [](const Node& n) { return n.op().innerGraph() ? std::string("color=\"orange\"") : std::string(); };
        std::string dot = toDot(*g, opt);
        QCOMPARE(count(dot, "color=\"orange\""), 1);
    }

    void graphvizAccepts_data() {
        QTest::addColumn<int>("which");
        QTest::newRow("seed_rop") << 0;
        QTest::newRow("seed_rop with composites") << 1;
        QTest::newRow("mit_sot") << 2;
        QTest::newRow("seed listing 1") << 3;
    }
    void graphvizAccepts() {
        QFETCH(int, which);
        auto g = which <= 1 ? golden::seedRop(true) : which == 2 ? golden::dupMitsotFib() : golden::seedListing1();
        DotOptions opt;
        opt.expandComposites = which == 1;
        bool ran = false;
        QByteArray svg = renderSvg(toDot(*g, opt), ran);
        if (!ran) QSKIP("Graphviz `dot` is not installed");
        QVERIFY2(svg.contains("<svg"), svg.left(400).constData());
    }

    // No recursion on depth: a long chain converts.
    void deepChain() {
        golden::G o;
        Variable* v = o.in("x", golden::vec(3));
        OpPtr exp = makeElemwise(ScalarOpCode::Exp);
        for (int i = 0; i < 5000; ++i) v = o.ap(exp, {v});
        auto g = o.finish({v});
        std::string dot = toDot(*g);
        QVERIFY(balanced(dot));
        QCOMPARE(count(dot, "label=\"Exp\""), 5000);
    }
};

TL_TEST_SUITE(TestDot)
#include "tst_dot.moc"
