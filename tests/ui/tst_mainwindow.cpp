// The real window, offscreen: open the seed example, press the next-step key
// until the buffer badge (11, 7) -> (1, 7) appears, find the merged-state
// highlight, run and verify, export SVG and read it back, bad files, search
// and selection sync, timeline filters, drag and drop, headless export.
#include "TestSuites.h"
#include "MainWindow.h"
#include "builder/Examples.h"
#include "export/Export.h"
#include "io/DPrint.h"
#include "io/JsonGraph.h"
#include "scene/GraphScene.h"
#include "scene/Palette.h"
#include "session/FileLoader.h"
#include "widgets/DPrintPane.h"
#include "widgets/DPrintView.h"
#include "widgets/GraphCanvas.h"
#include "widgets/InspectorPane.h"
#include "widgets/RunPane.h"
#include "widgets/TimelinePane.h"

#include "TestSupport.h"

#include <QCheckBox>
#include <QClipboard>
#include <QLabel>
#include <QTextBlock>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QSettings>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

using namespace tl;

namespace {
const QString kBadge = QString::fromUtf8("(11, 7) \u2192 (1, 7)");

void waitForLayout(MainWindow& w) { QTRY_VERIFY_WITH_TIMEOUT(!w.canvas()->isLayoutPending(), 20000); }

QStringList badgeTexts(MainWindow& w, BadgeItem::Kind kind) {
    QStringList out;
    for (BadgeItem* b : w.canvas()->scene()->badges())
        if (b->kind() == kind) out << b->text();
    return out;
}

int countOpsNamed(const Graph& g, const std::string& prefix) {
    int n = 0;
    for (const Node* node : g.toposort())
        if (node->op().name().rfind(prefix, 0) == 0) ++n;
    return n;
}

// Counts pixels close to `c` (antialiasing blends edges).
int pixelsNear(const QImage& img, QColor c) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor p = img.pixelColor(x, y);
            if (std::abs(p.red() - c.red()) < 12 && std::abs(p.green() - c.green()) < 12 && std::abs(p.blue() - c.blue()) < 12) ++n;
        }
    return n;
}
} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("tensorlens-tests");
        QCoreApplication::setApplicationName("tst_mainwindow");
        QSettings().clear();
        QVERIFY(m_tmp.isValid());
    }

    void stepToTheBufferBadge() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openExample("seed_rop"));
        waitForLayout(w);
        const int n = w.session()->stepCount();
        QVERIFY2(n > 0, "the pipeline recorded no steps");
        QCOMPARE(w.session()->currentStep(), 0);
        int found = -1;
        for (int i = 0; i < n && found < 0; ++i) {
            QTest::keyClick(&w, Qt::Key_Right);
            waitForLayout(w);
            QCOMPARE(w.session()->currentStep(), i + 1);
            for (const QString& t : badgeTexts(w, BadgeItem::Shape))
                if (t.contains(kBadge)) found = i + 1;
        }
        QVERIFY2(found > 0, "no step shows the (11, 7) -> (1, 7) badge");
        // The banner shows the bytes shrinking, and the inspector the step.
        QVERIFY(w.canvas()->scene()->banner());
        QVERIFY2(w.canvas()->scene()->banner()->lines().join("\n").contains("buffers"), qPrintable(w.canvas()->scene()->banner()->lines().join("|")));
        QVERIFY(w.inspector()->html().contains("(1, 7)"));
        // The previous key goes back and the badge leaves with the step.
        QTest::keyClick(&w, Qt::Key_Left);
        waitForLayout(w);
        QCOMPARE(w.session()->currentStep(), found - 1);
        QVERIFY(!badgeTexts(w, BadgeItem::Shape).join("|").contains(kBadge));
        // Home / End.
        QTest::keyClick(&w, Qt::Key_End);
        waitForLayout(w);
        QCOMPARE(w.session()->currentStep(), n);
        QTest::keyClick(&w, Qt::Key_Home);
        waitForLayout(w);
        QCOMPARE(w.session()->currentStep(), 0);
    }

    void mergedStatesAreHighlighted() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(w.openExample("seed_rop"));
        waitForLayout(w);
        int merged = -1;
        for (int k = 1; k <= w.session()->stepCount() && merged < 0; ++k)
            if (!w.session()->diff(k).mergedStates.empty()) merged = k;
        QVERIFY2(merged > 0, "no step merged two states");
        w.session()->setCurrentStep(merged);
        waitForLayout(w);
        const QStringList texts = badgeTexts(w, BadgeItem::Merged);
        QVERIFY2(!texts.isEmpty() && texts.join("|").contains("merged into"), qPrintable(texts.join("|")));
    }

    void exportSvgShowsTheHighlights() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(w.openExample("seed_rop"));
        waitForLayout(w);
        int badgeStep = -1;
        for (int k = 1; k <= w.session()->stepCount() && badgeStep < 0; ++k)
            for (const ShapeBadge& b : w.session()->diff(k).shapeChanges)
                if (QString::fromStdString(b.text()) == kBadge) badgeStep = k;
        QVERIFY(badgeStep > 0);
        w.session()->setCurrentStep(badgeStep);
        waitForLayout(w);
        const QString path = m_tmp.filePath("step.svg");
        QVERIFY(w.exportTo(path));
        QSvgRenderer r(path);
        QVERIFY(r.isValid());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString svg = QString::fromUtf8(f.readAll());
        QVERIFY2(svg.contains(kBadge), "the badge text is not in the SVG");
        // Render the SVG back and look for the badge and "added" colours.
        QImage img(r.defaultSize().boundedTo(QSize(4000, 4000)), QImage::Format_ARGB32);
        img.fill(Qt::white);
        QPainter p(&img);
        r.render(&p);
        p.end();
        QVERIFY(pixelsNear(img, palette::badgeText()) > 20);
        QVERIFY(pixelsNear(img, palette::badgeFill()) > 100);
        // PNG, DOT, JSON, trace and dprint text too.
        for (const char* name : {"step.png", "step.dot", "step.json", "step.trace.json", "step.txt"}) QVERIFY2(w.exportTo(m_tmp.filePath(name)), name);
        QVERIFY(!QImage(m_tmp.filePath("step.png")).isNull());
        QFile txt(m_tmp.filePath("step.txt"));
        QVERIFY(txt.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(txt.readAll()).trimmed(), w.dprintPane()->text().trimmed());
        auto reloaded = loadDocument(m_tmp.filePath("step.trace.json"));
        QCOMPARE(int(reloaded.trace->size()), w.session()->stepCount());
    }

    void runAndVerifyAllSteps() {
        MainWindow w;
        w.show();
        QVERIFY(w.openExample("seed_rop"));
        waitForLayout(w);
        w.session()->last();
        QTest::keyClick(&w, Qt::Key_F9);
        QTRY_VERIFY_WITH_TIMEOUT(w.runPane()->lastRun() != nullptr, 20000);
        const StepRun* run = w.runPane()->lastRun();
        QVERIFY2(run->error.empty(), run->error.c_str());
        QCOMPARE(run->outputs.size(), size_t(2));
        for (double d : run->maxAbs) QVERIFY(d < 1e-9);
        QVERIFY(run->peakBytes > 0);
        QVERIFY(w.runPane()->summaryLabel()->text().contains("peak memory"));
        w.runPane()->verifyAllSteps();
        QTRY_VERIFY_WITH_TIMEOUT(w.runPane()->lastVerifiedBadStep() != -2, 60000);
        QCOMPARE(w.runPane()->lastVerifiedBadStep(), -1);
    }

    void badFilesShowTheirPlaceAndKeepWhatIsOpen_data() {
        QTest::addColumn<QString>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("truncated json") << "{\"format\": \"tensorlens-graph\", \"version\": 1, \"graph\": {\"inputs\": [" << "line";
        QTest::newRow("unknown format") << "{\"format\": \"something-else\"}" << "/format";
        QTest::newRow("not json") << "hello" << "bad.json";
        QTest::newRow("bad node") << "{\"format\": \"tensorlens-graph\", \"version\": 1, \"graph\": {\"inputs\": [], \"constants\": [], "
                                     "\"nodes\": [{\"id\": 0, \"op\": \"NoSuchOp\", \"inputs\": []}], \"outputs\": []}}"
                                  << "/graph/nodes/0";
    }
    void badFilesShowTheirPlaceAndKeepWhatIsOpen() {
        QFETCH(QString, content);
        QFETCH(QString, expected);
        MainWindow w;
        w.show();
        QVERIFY(w.openExample("seed_dup"));
        waitForLayout(w);
        const QString source = w.session()->source();
        const int steps = w.session()->stepCount();
        w.session()->setCurrentStep(steps);
        const QString path = m_tmp.filePath("bad.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(content.toUtf8());
        f.close();
        QVERIFY(!w.openFile(path));
        QVERIFY2(w.lastError().contains(expected), qPrintable(w.lastError()));
        QVERIFY2(w.lastError().contains("bad.json"), qPrintable(w.lastError()));
        QVERIFY(w.findChild<QMessageBox*>("errorDialog") != nullptr);
        QCOMPARE(w.session()->source(), source);
        QCOMPARE(w.session()->stepCount(), steps);
        QCOMPARE(w.session()->currentStep(), steps);
        QVERIFY(!w.openFile(m_tmp.filePath("does-not-exist.json")));
        QVERIFY(w.lastError().contains("no such file"));
    }

    // The seed's listings, pasted with Ctrl+Shift+V or opened from a .txt file,
    // become graphs with their Scan, rewritten on open.
    void pasteAndOpenDprintText() {
        const std::string listing = test::seedDprintListing(1);
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QGuiApplication::clipboard()->setText(QString::fromStdString(listing));
        QTest::keyClick(&w, Qt::Key_V, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(w.session()->source(), QString("pasted text"));
        QVERIFY(w.lastError().isEmpty());
        QVERIFY(countOpsNamed(w.session()->trace().original(), "Scan") >= 1);
        QVERIFY2(w.session()->stepCount() > 0, "a pasted graph is rewritten like an opened one");
        waitForLayout(w);

        const QString txt = m_tmp.filePath("listing2.txt");
        QFile f(txt);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QByteArray::fromStdString(test::seedDprintListing(2)));
        f.close();
        QVERIFY2(w.openFile(txt), qPrintable(w.lastError()));
        QCOMPARE(w.session()->source(), QString("listing2.txt"));
        QVERIFY(countOpsNamed(w.session()->trace().original(), "Scan") >= 1);

        // Garbled text names its line and keeps what is open; an empty clipboard says so.
        QGuiApplication::clipboard()->setText("Subtensor{i} [id A]\n \u251c\u2500 Scan{oops [id B]\n");
        QVERIFY(!w.pasteDprint());
        QVERIFY2(w.lastError().contains("line"), qPrintable(w.lastError()));
        QCOMPARE(w.session()->source(), QString("listing2.txt"));
        QGuiApplication::clipboard()->clear();
        QVERIFY(!w.pasteDprint());
        QVERIFY(w.lastError().contains("clipboard"));
    }

    void searchSelectsAndSyncsTheDprintPane() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(w.openExample("seed_dup"));
        waitForLayout(w);
        QTest::keySequence(&w, QKeySequence::Find);
        auto* edit = w.canvas()->findChild<QLineEdit*>("searchEdit");
        QVERIFY(edit && edit->isVisible());
        QTest::keyClicks(edit, "Scan");
        QTest::keyClick(edit, Qt::Key_Return);
        QVERIFY(!w.session()->selection().empty());
        const NodeId scan = w.session()->selection().front();
        QVERIFY(!w.dprintPane()->highlightedLines().empty());
        QCOMPARE(w.dprintPane()->nodeOfLine(w.dprintPane()->highlightedLines().front()), scan);
        QVERIFY(w.inspector()->html().contains("Buffers"));
        QVERIFY(w.inspector()->html().contains("sit_sot-0"));
        // And back: a dprint line selects its node on the canvas.
        w.session()->setSelection({});
        w.dprintPane()->view()->setCurrentLine(0);
        const NodeId first = w.dprintPane()->nodeOfLine(0);
        QVERIFY(first >= 0);
        QCOMPARE(w.session()->selection(), std::vector<NodeId>{first});
        QCOMPARE(w.canvas()->scene()->selectedNodes(), std::vector<NodeId>{first});
    }

    void timelineFiltersAndSkips() {
        MainWindow w;
        w.show();
        QVERIFY(w.openExample("seed_rop"));
        waitForLayout(w);
        TimelinePane* t = w.timeline();
        const int all = t->shownCount();
        QCOMPARE(all, w.session()->stepCount());
        t->filterEdit()->setText("scan");
        const int scanSteps = t->shownCount();
        QVERIFY(scanSteps > 0 && scanSteps < all);
        // Next skips to the next shown step.
        w.session()->first();
        QTest::keyClick(&w, Qt::Key_N);
        QVERIFY(QString::fromStdString(w.session()->step(w.session()->currentStep()).rewrite + w.session()->step(w.session()->currentStep()).phase)
                    .contains("scan", Qt::CaseInsensitive));
        t->filterEdit()->clear();
        t->hideNoOpBox()->setChecked(true);
        QVERIFY(t->shownCount() <= all);
        t->hideNoOpBox()->setChecked(false);
        // Only the steps touching the selected node.
        const StepDiff& d = w.session()->diff(w.session()->currentStep());
        if (!d.added.empty()) {
            w.session()->setSelection({d.added.front()});
            t->onlySelectionBox()->setChecked(true);
            QVERIFY(t->shownCount() >= 1 && t->shownCount() < all);
            QVERIFY(t->isShown(w.session()->currentStep()));
        }
    }

    void dragAndDropAndRecentFiles() {
        const QString path = m_tmp.filePath("seed_dup.json");
        saveGraph(path.toStdString(), *buildExample("seed_dup"));
        MainWindow w;
        w.show();
        auto* mime = new QMimeData;
        mime->setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        QCOMPARE(w.session()->source(), QString("seed_dup.json"));
        QVERIFY(w.session()->stepCount() > 0);  // a plain graph is rewritten on open
        QVERIFY(QSettings().value("files/recent").toStringList().contains(QFileInfo(path).absoluteFilePath()));
        delete mime;
    }

    void headlessExportRendersTheSameScene() {
        auto g = buildExample("seed_rop");
        auto trace = rewriteToTrace(*g);
        const QString svg = m_tmp.filePath("headless.svg");
        int badgeStep = -1;
        {
            RewriteSession s;
            s.openTrace(rewriteToTrace(*g));
            for (int k = 1; k <= s.stepCount() && badgeStep < 0; ++k)
                for (const ShapeBadge& b : s.diff(k).shapeChanges)
                    if (QString::fromStdString(b.text()) == kBadge) badgeStep = k;
        }
        QVERIFY(badgeStep > 0);
        exportScene(*trace, badgeStep, svg.toStdString());
        QSvgRenderer r(svg);
        QVERIFY(r.isValid());
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(f.readAll()).contains(kBadge));
        const QString txt = m_tmp.filePath("headless.txt");
        exportScene(*trace, 0, txt.toStdString());
        QFile t(txt);
        QVERIFY(t.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(t.readAll()).contains("Scan{"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, exportScene(*trace, 100000, svg.toStdString()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, exportScene(*trace, 0, m_tmp.filePath("x.bmp").toStdString()));
    }
};

TL_TEST_SUITE(TestMainWindow)
#include "tst_mainwindow.moc"
