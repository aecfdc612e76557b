// `tensorlens example --generate`: the graphs the benchmarks use, made by users
// the same way (and read back as graphs), and the window's --mode option.
#include "TestSuites.h"
#include "TestSupport.h"

#include "builder/Generators.h"
#include "io/JsonGraph.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

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
} // namespace

class TestCliGenerate : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

private slots:
    void generatesTheBenchmarksGraph() {
        const QString path = m_tmp.filePath("big.json");
        Result r = runApp({"example", "--generate", "mixed", "--nodes", "1200", "-o", path});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        auto read = tl::loadGraph(path.toStdString());
        auto made = tl::generateMixed(1200, 1);
        QCOMPARE(read->numNodes(), made->numNodes());
        QCOMPARE(tl::graphToJsonText(*read), tl::graphToJsonText(*made));
        QVERIFY(r.err.contains("generated mixed graph of"));
    }

    void everyKindGenerates_data() {
        QTest::addColumn<QString>("kind");
        for (const char* k : {"mixed", "chain", "scans", "dup"}) QTest::newRow(k) << QString(k);
    }
    void everyKindGenerates() {
        QFETCH(QString, kind);
        const QString path = m_tmp.filePath(kind + ".json");
        Result r = runApp({"example", "--generate", kind, "--nodes", "300", "-o", path});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(tl::loadGraph(path.toStdString())->numNodes() > 10);
    }

    void badGeneratorArgumentsAreUsageErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown kind") << QStringList{"example", "--generate", "spiral"} << "--generate must be";
        QTest::newRow("no nodes") << QStringList{"example", "--generate", "mixed", "--nodes", "0"} << "--nodes must be";
        QTest::newRow("not a number") << QStringList{"example", "--generate", "mixed", "--nodes", "many"} << "--nodes";
        QTest::newRow("name and kind") << QStringList{"example", "seed_rop", "--generate", "mixed"} << "not both";
    }
    void badGeneratorArgumentsAreUsageErrors() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        Result r = runApp(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

#ifdef TL_APP_HAS_GUI
    // `tensorlens --example seed_rop --mode pytensor` opens the window in that mode;
    // a wrong mode is refused before any window opens.
    void theWindowTakesABufferMode() {
        Result bad = runApp({"--example", "seed_rop", "--mode", "fast"});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("--mode must be exact or pytensor"), qPrintable(bad.err));
        const QString shot = m_tmp.filePath("pytensor.png");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        p.setProcessEnvironment(env);
        p.start(TL_APP_PATH, {"--example", "seed_rop", "--mode", "pytensor", "--step", "6", "--screenshot", shot, "--size", "1200x800"});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, qPrintable(QString::fromUtf8(p.readAllStandardError())));
        QVERIFY(QFileInfo(shot).size() > 1000);
    }
#endif
};

TL_TEST_SUITE(TestCliGenerate)
#include "tst_cli_generate.moc"
