// `tensorlens import-dprint` driven as a user would: the seed issue's first listing
// becomes a JSON graph that prints back, runs to the issue's numbers, and the
// importer's notes go to stderr; bad text names its line and exits 1.
#include "TestSuites.h"
#include "TestSupport.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace {
struct Result {
    int code;
    QString out;
    QString err;
};

Result runApp(const QStringList& args, const QByteArray& stdinData = {}) {
    QProcess p;
    p.start(TL_APP_PATH, args);
    if (!stdinData.isEmpty()) p.write(stdinData);
    p.closeWriteChannel();
    p.waitForFinished(300000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

void writeFile(const QString& path, const std::string& text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text.data(), static_cast<qint64>(text.size()));
}

} // namespace

class TestCliImport : public QObject {
    Q_OBJECT
private slots:
    void seedListingToJson() {
        QTemporaryDir dir;
        const QString txt = dir.filePath("listing.txt"), json = dir.filePath("graph.json");
        writeFile(txt, tl::test::seedDprintListing(1));
        Result r = runApp({"import-dprint", txt, "-o", json});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        // Notes on stderr: the Scan layout was inferred (the listing has no op-info tags).
        QVERIFY2(r.err.contains("note: line 41: Scan [id B]: no op-info tags; categories inferred"), qPrintable(r.err));
        // The JSON graph prints as the listing (the indices aside: see tst_dprint_import).
        Result p = runApp({"print", json, "--type"});
        QCOMPARE(p.code, 0);
        QVERIFY(p.out.startsWith("Subtensor{i} [id A] <Vector(float64, shape=(7,))>\n"
                                 " \u251c\u2500 Scan{scan_fn&rop_of_scan_fn, while_loop=False, inplace=all}.0 [id B]"));
        QVERIFY(p.out.contains("Composite{(exp(i0) - 5.0)} [id BA]"));
        // ... and runs to PyTensor's numbers for seed example 1.
        const QString inputs = dir.filePath("in.json");
        writeFile(inputs, R"({"x_init": [-0.1, -0.06666666666666668, -0.03333333333333334, 0.0, 0.033333333333333326, 0.06666666666666665, 0.1],
                              "x_init_tangent": [1, 1, 1, 1, 1, 1, 1]})");
        Result run = runApp({"run", json, "--inputs", inputs, "--json"});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        auto doc = nlohmann::json::parse(run.out.toStdString());
        QCOMPARE(doc["outputs"][0]["data"][3].get<double>(), -4.993216188647903);
        QCOMPARE(doc["outputs"][1]["data"][6].get<double>(), 1.022463063810696e-19);
    }

    void standardInputAndOutput() {
        const std::string text = "Exp [id A] <Vector(float64, shape=(3,))>\n \u2514\u2500 x [id B] <Vector(float64, shape=(3,))>\n";
        Result r = runApp({"import-dprint", "-"}, QByteArray::fromStdString(text));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        auto doc = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(doc["format"].get<std::string>(), std::string("tensorlens-graph"));
        QCOMPARE(doc["graph"]["nodes"].size(), size_t(1));
        QVERIFY(r.err.isEmpty());
    }

    void badTextNamesFileAndLine() {
        QTemporaryDir dir;
        const QString txt = dir.filePath("cut.txt");
        writeFile(txt, "Exp [id A] <Vector(float64, shape=(3,))>\n \u251c\u2500 x [id B] <Vector(float64, shape=(3,))>\n");
        Result r = runApp({"import-dprint", txt, "-o", dir.filePath("out.json")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(txt + ": line 2: the listing ends"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(dir.filePath("out.json")));
    }

    void inputsTypeAnUntypedListing() {
        // pytensor.dprint(f) with its defaults prints no types: the values to run with give them.
        QTemporaryDir dir;
        const QString txt = dir.filePath("plain.txt"), json = dir.filePath("graph.json"), inputs = dir.filePath("in.json");
        writeFile(txt, "Dot22 [id A] 1\n \u251c\u2500 Exp [id B] 0\n \u2502  \u2514\u2500 X [id C]\n \u2514\u2500 W [id D]\n");
        writeFile(inputs, R"({"X": {"dtype": "float32", "shape": [1, 2], "data": [0, 1]},
                              "W": {"dtype": "float32", "shape": [2, 1], "data": [2, 3]}})");
        Result r = runApp({"import-dprint", txt, "-o", json, "--inputs", inputs});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("note: line 3: input X: type not printed; taken as Matrix(float32, shape=(?, ?)) from its given value"),
                 qPrintable(r.err));
        Result run = runApp({"run", json, "--inputs", inputs, "--json"});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        auto doc = nlohmann::json::parse(run.out.toStdString());
        QCOMPARE(doc["outputs"][0]["dtype"].get<std::string>(), std::string("float32"));
        const double want = 2.0 + 3.0 * std::exp(1.0);  // float32 arithmetic: within its precision
        QVERIFY(std::abs(doc["outputs"][0]["data"][0][0].get<double>() - want) <= 1e-6 * want);
        // Without them the same listing imports, its types guessed, and Dot22 stays opaque.
        Result guessed = runApp({"import-dprint", txt, "-o", json});
        QVERIFY2(guessed.code == 0, qPrintable(guessed.err));
        QVERIFY2(guessed.err.contains("Dot22: imported as an opaque node"), qPrintable(guessed.err));
        // A values file that is no object of values is an error naming it.
        writeFile(inputs, R"({"X": [0, 1]})");
        Result bad = runApp({"import-dprint", txt, "-o", json, "--inputs", inputs});
        QCOMPARE(bad.code, 1);
        QVERIFY2(bad.err.contains(inputs + ": /X: expected {\"dtype\", \"shape\", \"data\"}"), qPrintable(bad.err));
    }

    void usageErrors() {
        QCOMPARE(runApp({"import-dprint"}).code, 2);
        QCOMPARE(runApp({"import-dprint", "/nonexistent/listing.txt"}).code, 1);
    }
};

TL_TEST_SUITE(TestCliImport)
#include "tst_cli_import.moc"
