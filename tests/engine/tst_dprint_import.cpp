// The dprint importer (io/DPrintImport.h) on real PyTensor listings: both of the
// seed issue's listings and every oracle case's compiled-graph listings import,
// print back with the same options to the same lines, and run to PyTensor's
// numbers; bad text fails with the line number; what cannot be rebuilt becomes an
// Opaque node with a note. (Round trips of tensorlens-printed graphs under every
// option: tst_dprint_import_roundtrip.cpp; fuzz regressions: tst_dprint_import_fuzz.cpp.)
#include "TestSuites.h"
#include "TestSupport.h"
#include "exec/Executor.h"
#include "io/DPrint.h"
#include "io/DPrintImport.h"
#include "io/JsonGraph.h"
#include "io/JsonValues.h"
#include "analysis/PyTensorOrder.h"
#include "ops/Opaque.h"

#include <QtTest>

#include <fstream>
#include <regex>
#include <sstream>

using namespace tl;

namespace {

std::vector<std::string> lines(const std::string& text, bool skipBlank) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
        while (!l.empty() && (l.back() == ' ' || l.back() == '\r')) l.pop_back();
        if (skipBlank && l.empty()) continue;
        out.push_back(l);
    }
    return out;
}

// Compares line by line (blank lines and trailing whitespace aside); `prefix`
// when the expected text was cut short. "" or the first difference.
std::string diffLines(const std::string& ours, const std::string& theirs, bool prefix) {
    auto a = lines(ours, true), b = lines(theirs, true);
    if (prefix && a.size() > b.size()) a.resize(b.size());
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        if (a[i] != b[i]) return "line " + std::to_string(i + 1) + ":\n ours:   " + a[i] + "\n theirs: " + b[i];
    if (a.size() != b.size()) return "ours has " + std::to_string(a.size()) + " lines, the listing " + std::to_string(b.size());
    return {};
}

std::string printBack(const DPrintImport& imp) {
    DPrintOptions o = imp.options;
    o.topoIndexOverride = &imp.topoIndex;
    return dprint(*imp.graph, o);
}

std::string joinNotes(const DPrintImport& imp) {
    std::string s;
    for (const auto& n : imp.notes) s += n + "\n";
    return s;
}

NDArray vec(std::vector<double> v) { return NDArray::fromVector(DType::Float64, {static_cast<int64_t>(v.size())}, v); }

// x_init = linspace(-1, 1, 7) * 0.1 (as NumPy computes it), tangent = ones(7).
NDArray xInit() {
    std::vector<double> v;
    for (int i = 0; i < 7; ++i) v.push_back((-1.0 + i * (2.0 / 6.0)) * 0.1);
    v[6] = 1.0 * 0.1;
    return vec(v);
}

std::vector<NDArray> inputsByName(const Graph& g, const std::map<std::string, NDArray>& values) {
    std::vector<NDArray> out;
    for (const Variable* in : g.inputs()) out.push_back(values.at(in->name()));
    return out;
}

// 't3' names of Composite temporaries are normalised to 't#' in the oracle files.
std::string normaliseTemps(const std::string& text) { return std::regex_replace(text, std::regex("'t[0-9]+'"), "'t#'"); }

} // namespace

class TestDPrintImport : public QObject {
    Q_OBJECT
private slots:
    void seedListing1() {
        const std::string text = test::seedDprintListing(1);
        QVERIFY(text.size() > 1000);
        DPrintImport imp = importDprint(text, "seed-listing-1");
        QVERIFY(imp.graph->validate().empty());
        QVERIFY(imp.options.printType && imp.options.printTopoIndex && !imp.options.printShape && !imp.options.printOpInfo);
        const std::string back = printBack(imp);
        std::string d = diffLines(back, text, false);
        QVERIFY2(d.empty(), (d + "\n--- printed:\n" + back + "--- notes:\n" + joinNotes(imp)).c_str());
        // No op-info tags: the Scan's categories were inferred, and the result says so.
        const std::string notes = joinNotes(imp);
        QVERIFY2(notes.find("categories inferred") != std::string::npos && notes.find("3 sit_sot") != std::string::npos,
                 notes.c_str());
        // The listing's Unbroadcast dates it before PyTensor 2.29, whose order numbered the
        // outputs 13 and 14 (2.34's would give 14 and 13): that order is computed, not copied.
        QVERIFY2(notes.find("topological indices differ") == std::string::npos, notes.c_str());
        // PyTensor's numbers for seed example 1: seq[-1] = -4.993216188647903, and the Rop tangent.
        RunResult r = runGraph(*imp.graph, inputsByName(*imp.graph, {{"x_init", xInit()}, {"x_init_tangent", vec(std::vector<double>(7, 1.0))}}));
        QCOMPARE(r.outputs.size(), size_t(2));
        TL_COMPARE_ARRAYS(r.outputs[0], vec(std::vector<double>(7, -4.993216188647903)), 1e-13, 0);
        TL_COMPARE_ARRAYS(r.outputs[1],
                          vec({6.8260538401706609e-20, 7.2810266172858716e-20, 7.7746727176156749e-20, 8.3110287531612892e-20,
                               8.8946294422551726e-20, 9.5305784474505571e-20, 1.022463063810696e-19}),
                          1e-13, 0);
        // Printed with the order computed for the graph (no override), also after a JSON round
        // trip (what `import-dprint` then `print --topo` do), the listing comes back as PyTensor printed it.
        DPrintOptions own = imp.options;
        std::string d2 = diffLines(dprint(*imp.graph, own), text, false);
        QVERIFY2(d2.empty(), d2.c_str());
        auto reloaded = graphFromJsonText(graphToJsonText(*imp.graph));
        d2 = diffLines(dprint(*reloaded, own), text, false);
        QVERIFY2(d2.empty(), d2.c_str());
        // PyTensor 2.34's rule numbers the two outputs the other way round.
        QVERIFY(pytensorToposortRuleFor(*imp.graph) == PyTensorToposortRule::Before);
        auto current = pytensorToposort(*imp.graph, PyTensorToposortRule::Current);
        QCOMPARE(current.back(), imp.graph->outputs()[0]->owner());
    }

    void seedListing2() {
        const std::string text = test::seedDprintListing(2);
        QVERIFY(text.find("Inner graphs:") != std::string::npos);
        DPrintImport imp = importDprint(text);
        QVERIFY(imp.graph->validate().empty());
        QVERIFY(imp.options.printShape && imp.options.printOpInfo && !imp.options.printType);
        // Cut short by its author: the print goes on with the two Composite bodies.
        const std::string back = printBack(imp);
        std::string d = diffLines(back, text, true);
        QVERIFY2(d.empty(), (d + "\n--- printed:\n" + back + "--- notes:\n" + joinNotes(imp)).c_str());
        QVERIFY(lines(back, true).size() > lines(text, true).size());
        const std::string notes = joinNotes(imp);
        QVERIFY2(notes.find("rebuilt from its name") != std::string::npos, notes.c_str());
        QVERIFY2(notes.find("dtype not printed") != std::string::npos, notes.c_str());
        // Seed example 2: sx == sy, shape (10, 7), first two rows.
        RunResult r = runGraph(*imp.graph, inputsByName(*imp.graph, {{"x_init", xInit()}}));
        QCOMPARE(r.outputs.size(), size_t(2));
        QCOMPARE(r.outputs[0].shape(), (Shape{10, 7}));
        TL_COMPARE_ARRAYS(r.outputs[0], r.outputs[1], 0, 0);
        const std::vector<double> row0{-4.0951625819640407, -4.0644930149683827, -4.0327838995179945, -4,
                                       -3.9661048864864261, -3.9310608942527536, -3.8948290819243523};
        const std::vector<double> row1{-4.9833469614209172, -4.9828283071416308, -4.9822750831824152, -4.9816843611112658,
                                       -4.9810529093413161, -4.980377156255714, -4.9796531482032638};
        std::vector<double> all = r.outputs[0].toDoubles();
        TL_COMPARE_ARRAYS(vec(std::vector<double>(all.begin(), all.begin() + 7)), vec(row0), 1e-13, 0);
        TL_COMPARE_ARRAYS(vec(std::vector<double>(all.begin() + 7, all.begin() + 14)), vec(row1), 1e-13, 0);
    }

    // Every compiled-graph listing of the oracle: import, print back, run.
    void oracle_data() {
        QTest::addColumn<QString>("dir");
        QTest::addColumn<QString>("key");
        const QDir d(QString::fromStdString(test::oracleDir()));
        for (const std::string& name : test::oracleCaseNames()) {
            const QString sub = QString::fromStdString(name);
            for (const char* key : {"dprint_fast_run", "dprint_no_prealloc"})
                QTest::newRow(qPrintable(sub + "/" + key)) << d.filePath(sub) << QString(key);
        }
    }
    void oracle() {
        QFETCH(QString, dir);
        QFETCH(QString, key);
        const nlohmann::json j = readJsonFile(dir.toStdString() + "/expected.json");
        if (!j.contains(key.toStdString())) QSKIP("no such listing in this case");
        const std::string text = j[key.toStdString()].get<std::string>();
        DPrintImport imp = importDprint(text, key.toStdString());
        QVERIFY(imp.graph->validate().empty());
        const std::string back = printBack(imp);
        // Exactly, blank lines included; the oracle writes Composite temporaries 't#'.
        QCOMPARE(QString::fromStdString(normaliseTemps(back)), QString::fromStdString(text));
        // PyTensor 2.34 printed these: its order is tensorlens's (no note about indices).
        QVERIFY2(joinNotes(imp).find("topological indices differ") == std::string::npos, joinNotes(imp).c_str());
        QCOMPARE(dprint(*imp.graph, imp.options), back);
        RunResult r = runGraph(*imp.graph, inputsFromJson(j["inputs"], *imp.graph, "/inputs"));
        QCOMPARE(r.outputs.size(), j["outputs"].size());
        for (size_t i = 0; i < r.outputs.size(); ++i) {
            const auto& spec = j["outputs"][i];
            Type t = Type::tensor(*parseDType(spec["dtype"].get<std::string>()), spec["shape"].get<StaticShape>());
            TL_COMPARE_ARRAYS(r.outputs[i], arrayFromJson(spec, t, "/outputs"), 1e-12, 0);
        }
        // The imported graph saves and loads like any other.
        auto again = graphFromJsonText(graphToJsonText(*imp.graph));
        QCOMPARE(QString::fromStdString(dprint(*again, imp.options)), QString::fromStdString(dprint(*imp.graph, imp.options)));
    }

    // ---------------------------------------------------------------- bad text
    void badText_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("expected");
        const char* ok = "Exp [id A] <Vector(float64, shape=(3,))>\n"
                         " \u2514\u2500 Add [id B] <Vector(float64, shape=(3,))>\n"
                         "    \u251c\u2500 x [id C] <Vector(float64, shape=(3,))>\n"
                         "    \u2514\u2500 y [id D] <Vector(float64, shape=(3,))>\n";
        QTest::newRow("control: a good listing") << ok << 0 << "";
        QTest::newRow("truncated") << "Exp [id A] <Vector(float64, shape=(3,))>\n"
                                      " \u2514\u2500 Add [id B] <Vector(float64, shape=(3,))>\n"
                                      "    \u251c\u2500 x [id C] <Vector(float64, shape=(3,))>\n"
                                   << 3 << "promises another input";
        QTest::newRow("garbled tree characters") << "Exp [id A] <Vector(float64, shape=(3,))>\n"
                                                    " \u2514\u2500 Add [id B] <Vector(float64, shape=(3,))>\n"
                                                    "    +- x [id C] <Vector(float64, shape=(3,))>\n"
                                                    "    \u2514\u2500 y [id D] <Vector(float64, shape=(3,))>\n"
                                                 << 3 << "tree characters";
        QTest::newRow("glyphs of another branch") << "Exp [id A] <Vector(float64, shape=(3,))>\n"
                                                     " \u2514\u2500 Add [id B] <Vector(float64, shape=(3,))>\n"
                                                     " \u2502  \u251c\u2500 x [id C] <Vector(float64, shape=(3,))>\n"
                                                     "    \u2514\u2500 y [id D] <Vector(float64, shape=(3,))>\n"
                                                  << 3 << "do not match";
        QTest::newRow("unknown back-reference") << "Exp [id A] <Vector(float64, shape=(3,))>\n"
                                                   " \u2514\u2500 Add [id Q] <Vector(float64, shape=(3,))>\n"
                                                   "    \u2514\u2500 \u00b7\u00b7\u00b7\n"
                                                << 2 << "[id Q] refers back";
        QTest::newRow("unknown -> link") << "Scan{scan_fn, while_loop=False, inplace=none} [id A] <Vector(float64, shape=(?,))>\n"
                                            " \u251c\u2500 3 [id B] <Scalar(int8, shape=())>\n"
                                            " \u2514\u2500 x [id C] <Vector(float64, shape=(4,))>\n\nInner graphs:\n\n"
                                            "Scan{scan_fn, while_loop=False, inplace=none} [id A]\n"
                                            " \u2190 Exp [id D] <Scalar(float64, shape=())>\n"
                                            "    \u2514\u2500 *0-<Scalar(float64, shape=())> [id E] <Scalar(float64, shape=())> -> [id Z]\n"
                                         << 9 << "[id Z] names no variable";
        QTest::newRow("wrong type string") << "Exp [id A] <Vector(float64, shape=(3,))>\n"
                                              " \u2514\u2500 x [id C] <Matrix(float64, shape=(3,))>\n"
                                           << 2 << "wrong type string";
        QTest::newRow("unknown dtype") << "Exp [id A] <Vector(float65, shape=(3,))>\n"
                                          " \u2514\u2500 x [id C] <Vector(float64, shape=(3,))>\n"
                                       << 1 << "unknown dtype";
        QTest::newRow("mixed-up ids") << "Exp [id A] <Vector(float64, shape=(3,))>\n"
                                         " \u2514\u2500 Add [id B] <Vector(float64, shape=(3,))>\n"
                                         "    \u251c\u2500 x [id C] <Vector(float64, shape=(3,))>\n"
                                         "    \u2514\u2500 y [id B] <Vector(float64, shape=(3,))>\n"
                                      << 4 << "mixed-up";
        QTest::newRow("types that do not fit") << "Exp [id A] <Vector(float64, shape=(3,))>\n"
                                                  " \u2514\u2500 Add [id B] <Vector(float64, shape=(3,))>\n"
                                                  "    \u251c\u2500 x [id C] <Vector(float64, shape=(3,))>\n"
                                                  "    \u2514\u2500 y [id D] <Vector(float64, shape=(4,))>\n"
                                               << 2 << "Add";
        QTest::newRow("no [id]") << "Exp [id A]\n \u2514\u2500 x\n" << 2 << "expected '[id X]'";
        QTest::newRow("nothing after Inner graphs") << "Exp [id A]\n \u2514\u2500 x [id B]\n\nInner graphs:\n" << 4 << "after 'Inner graphs:'";
        QTest::newRow("empty") << "\n\n" << 1 << "no debugprint lines";
    }
    void badText() {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, expected);
        if (line == 0) {
            DPrintImport imp = importDprint(text.toStdString());
            QCOMPARE(QString::fromStdString(dprint(*imp.graph, imp.options)), text);
            return;
        }
        try {
            importDprint(text.toStdString(), "bad.txt");
            QFAIL("no error");
        } catch (const FormatError& e) {
            const std::string msg = e.what();
            QVERIFY2(msg.rfind("bad.txt: line " + std::to_string(line) + ": ", 0) == 0, msg.c_str());
            QVERIFY2(msg.find(expected.toStdString()) != std::string::npos, msg.c_str());
        }
    }

    // ---------------------------------------------------------------- opaque
    void unknownOpIsOpaque() {
        const std::string text = "Mystery{inplace} [id A] <Vector(float64, shape=(3,))> d={0: [0]}\n"
                                 " \u251c\u2500 y [id B] <Vector(float64, shape=(3,))>\n"
                                 " \u2514\u2500 Exp [id C] <Vector(float64, shape=(3,))>\n"
                                 "    \u2514\u2500 x [id D] <Vector(float64, shape=(3,))>\n";
        DPrintImport imp = importDprint(text);
        QCOMPARE(QString::fromStdString(printBack(imp)), QString::fromStdString(text));
        const Node* mystery = imp.graph->output(0)->owner();
        QVERIFY(dynamic_cast<const OpaqueOp*>(&mystery->op()));
        QCOMPARE(mystery->op().destroyMap(), (AliasMap{{0, {0}}}));
        QVERIFY(joinNotes(imp).find("line 1: [id A] Mystery{inplace}: imported as an opaque node") != std::string::npos);
        const NDArray v = vec({1, 2, 3});
        QVERIFY_THROWS_EXCEPTION(ExecError, runGraph(*imp.graph, std::vector<NDArray>{v, v}));
        // A known op with the wrong inputs is an error naming the line, not an opaque node.
        std::string gemvText = text;
        gemvText.replace(0, std::string("Mystery").size(), "Gemv");
        try {
            importDprint(gemvText);
            QFAIL("Gemv with two inputs imported");
        } catch (const FormatError& e) {
            QVERIFY2(std::string(e.what()).find("line 1: Gemv{inplace} [id A]: Gemv takes 5 input(s), got 2") != std::string::npos, e.what());
        }
    }

    void elidedConstantIsOpaque() {
        const std::string text = "Add [id A] <Vector(float64, shape=(30,))>\n"
                                 " \u251c\u2500 x [id B] <Vector(float64, shape=(30,))>\n"
                                 " \u2514\u2500 [0. 1. 2. ... 27. 28. 29.] [id C] <Vector(float64, shape=(30,))>\n";
        DPrintImport imp = importDprint(text);
        QVERIFY(joinNotes(imp).find("line 3: constant [0. 1. 2. ... 27. 28. 29.]: its values are elided") != std::string::npos);
        QVERIFY(dynamic_cast<const OpaqueOp*>(&imp.graph->output(0)->owner()->input(1)->owner()->op()));
        QCOMPARE(QString::fromStdString(printBack(imp)), QString::fromStdString(text));
    }

    void constantsByValue() {
        // A short array prints whole (PyTensor elides texts over 20 characters).
        const std::string text = "Add [id A] <Matrix(float64, shape=(2, 2))>\n"
                                 " \u251c\u2500 x [id B] <Matrix(float64, shape=(2, 2))>\n"
                                 " \u2514\u2500 [[0. 1.] [2. 3.]] [id C] <Matrix(float64, shape=(2, 2))>\n";
        DPrintImport imp = importDprint(text);
        QCOMPARE(QString::fromStdString(printBack(imp)), QString::fromStdString(text));
        const NDArray x = NDArray::fromVector(DType::Float64, {2, 2}, {1, 1, 1, 1});
        RunResult r = runGraph(*imp.graph, std::vector<NDArray>{x});
        TL_COMPARE_ARRAYS(r.outputs[0], NDArray::fromVector(DType::Float64, {2, 2}, {1, 2, 3, 4}), 0, 0);
    }
};

TL_TEST_SUITE(TestDPrintImport)
#include "tst_dprint_import.moc"
