// The headless command line, driven as a user would: exit codes, --help, errors.
#include "TestSuites.h"
#include "TestSupport.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

namespace {
struct Result {
    int code;
    QString out;
    QString err;
};

Result runApp(const QStringList& args) {
    QProcess p;
    p.start(TL_APP_PATH, args);
    p.waitForFinished(300000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

QString example(const QString& name) { return QString::fromStdString(tl::test::sourcePath("resources/examples/" + name.toStdString() + ".json")); }
} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void helpOnEveryCommand_data() {
        QTest::addColumn<QString>("command");
        for (const char* c : {"example", "run", "print", "rewrite", "trace", "verify", "export", "import-dprint"})
            QTest::newRow(c) << c;
    }
    void helpOnEveryCommand() {
        QFETCH(QString, command);
        Result r = runApp({command, "--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("Usage: tensorlens " + command));
    }

    void overviewHelp() {
        Result r = runApp({"--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("verify"));
    }

    void exampleListNamesTheSeed() {
        Result r = runApp({"example", "--list"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("seed_rop\t"));
        QVERIFY(r.out.contains("seed_dup\t"));
    }

    void unknownOptionIsAUsageError() {
        Result r = runApp({"print", example("seed_rop"), "--no-such-flag"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("unknown option --no-such-flag"));
    }

    void missedOnTheSeedTraceInEveryFormat() {
        const QString trace = QString::fromStdString(tl::test::sourcePath("tests/data/missed/seed_rop.trace.json"));
        Result table = runApp({"missed", trace});
        QCOMPARE(table.code, 0);
        QVERIFY2(table.out.contains("3 recurrent states -> 2") && table.out.contains("(2, 7) instead of (1, 7)"), qPrintable(table.out));
        Result md = runApp({"missed", trace, "--markdown"});
        QCOMPARE(md.code, 0);
        QVERIFY(md.out.startsWith("## Missed rewrites in `seed_rop`"));
        QVERIFY(md.out.contains("### PyTensor's compiled graph"));
        Result js = runApp({"missed", trace, "--json", "--no-run"});
        QCOMPARE(js.code, 0);
        const auto doc = nlohmann::json::parse(js.out.toStdString());
        QCOMPARE(doc["missed_count"].get<int>(), 3);
        Result both = runApp({"missed", trace, "--json", "--markdown"});
        QCOMPARE(both.code, 2);
        Result none = runApp({"missed", "/nonexistent/pt-trace.json"});
        QCOMPARE(none.code, 1);
        QVERIFY2(none.err.contains("/nonexistent/pt-trace.json"), qPrintable(none.err));
    }

    void missingFileNamesTheFile() {
        Result r = runApp({"print", "/nonexistent/graph.json"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("/nonexistent/graph.json"), qPrintable(r.err));
    }

    void runJsonReadsBackExactly() {
        QTemporaryDir dir;
        const QString inputs = dir.filePath("in.json");
        {
            QFile f(inputs);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"x_init": {"dtype": "float64", "shape": [7], "data": [-0.1, -0.06666666666666668, -0.03333333333333334, 0.0, 0.033333333333333326, 0.06666666666666665, 0.1]},
                       "x_init_tangent": [1, 1, 1, 1, 1, 1, 1]})");
        }
        Result r = runApp({"run", example("seed_rop"), "--inputs", inputs, "--json"});
        QCOMPARE(r.code, 0);
        auto doc = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(doc["outputs"].size(), size_t(2));
        QCOMPARE(doc["outputs"][0]["data"][0].get<double>(), -4.993216188647903);
        QVERIFY(doc["peak_bytes"].get<long long>() > 0);
    }

    void runRejectsAWrongInputShape() {
        QTemporaryDir dir;
        const QString inputs = dir.filePath("in.json");
        QFile f(inputs);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"x_init": [1, 2, 3], "x_init_tangent": [1, 1, 1, 1, 1, 1, 1]})");
        f.close();
        Result r = runApp({"run", example("seed_rop"), "--inputs", inputs});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("/x_init"), qPrintable(r.err));
    }

    void printOptionsShowTypesAndOpInfo() {
        Result r = runApp({"print", example("seed_dup"), "--type", "--op-info"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("<Matrix(float64, shape=(?, 7))>"));
        QVERIFY(r.out.contains("(outer_in_sit_sot-1)"));
        QVERIFY(r.out.contains("Inner graphs:"));
    }

    void rewriteTraceAndVerify() {
        QTemporaryDir dir;
        const QString out = dir.filePath("out.json"), trace = dir.filePath("trace.json");
        Result r = runApp({"rewrite", example("seed_rop"), "-o", out, "--trace", trace});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        Result t = runApp({"trace", trace});
        QCOMPARE(t.code, 0);
        QVERIFY(t.out.trimmed().endsWith("steps"));
        Result p = runApp({"print", "--trace", trace, "--step", "0"});
        QCOMPARE(p.code, 0);
        Result bad = runApp({"print", "--trace", trace, "--step", "100000"});
        QCOMPARE(bad.code, 2);
        Result v = runApp({"verify", example("seed_rop")});
        QVERIFY2(v.code == 0, qPrintable(v.out + v.err));
    }

#ifdef TL_APP_HAS_GUI
    // The step scan_save_mem took on seed_rop, exported as every format; the SVG
    // carries the buffer badge the window shows at that step.
    void exportEveryFormatAtTheSaveMemStep() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("seed.trace.json");
        Result r = runApp({"rewrite", example("seed_rop"), "--trace", trace});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        Result t = runApp({"trace", trace});
        QCOMPARE(t.code, 0);
        QString step;
        for (const QString& line : t.out.split('\n'))
            if (line.contains("scan_save_mem")) step = line.split(QRegularExpression("\\s+"), Qt::SkipEmptyParts).value(0);
        QVERIFY2(!step.isEmpty(), qPrintable(t.out));
        for (const char* ext : {"svg", "png", "dot", "json", "txt"}) {
            const QString out = dir.filePath(QString("step.") + ext);
            Result e = runApp({"export", "--trace", trace, "--step", step, "-o", out});
            QVERIFY2(e.code == 0, qPrintable(QString(ext) + ": " + e.err));
            QVERIFY2(QFileInfo(out).size() > 0, ext);
        }
        QFile svg(dir.filePath("step.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(svg.readAll());
        QVERIFY(text.contains("<svg"));
        QVERIFY2(text.contains("(11, 7) \u2192 (1, 7)"), "the buffer badge is in the SVG");
        QFile dot(dir.filePath("step.dot"));
        QVERIFY(dot.open(QIODevice::ReadOnly));
        QVERIFY(dot.readAll().startsWith("digraph"));
    }

    void exportRewritesAGraphOnRequestAndRejectsBadArguments() {
        QTemporaryDir dir;
        Result plain = runApp({"export", example("seed_dup"), "-o", dir.filePath("a.txt")});
        QVERIFY2(plain.code == 0, qPrintable(plain.err));
        QVERIFY(plain.err.contains("step 0 of 0"));
        Result rewritten = runApp({"export", "--example", "seed_dup", "--rewrite", "-o", dir.filePath("b.svg")});
        QVERIFY2(rewritten.code == 0, qPrintable(rewritten.err));
        QVERIFY(!rewritten.err.contains("of 0 "));
        Result ext = runApp({"export", example("seed_dup"), "-o", dir.filePath("c.pdf")});
        QCOMPARE(ext.code, 2);
        QVERIFY(ext.err.contains(".pdf"));
        Result step = runApp({"export", example("seed_dup"), "--rewrite", "--step", "99999", "-o", dir.filePath("d.svg")});
        QCOMPARE(step.code, 2);
        QVERIFY(step.err.contains("99999"));
        Result missing = runApp({"export", dir.filePath("nope.json"), "-o", dir.filePath("e.svg")});
        QCOMPARE(missing.code, 1);
        QVERIFY(missing.err.contains("nope.json"));
    }
#endif

    void verifyRejectsABadTolerance() {
        Result r = runApp({"verify", example("seed_dup"), "--rtol", "tight"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--rtol needs a non-negative number, got 'tight'"), qPrintable(r.err));
    }

    void rewriteRejectsUnknownExclude() {
        QTemporaryDir dir;
        Result r = runApp({"rewrite", example("seed_rop"), "-o", dir.filePath("o.json"), "--exclude", "no_such_rewrite"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("no_such_rewrite"));
    }
};

TL_TEST_SUITE(TestCli)
#include "tst_cli.moc"
