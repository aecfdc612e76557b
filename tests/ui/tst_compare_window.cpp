// The window's "Compare with tensorlens", offscreen: the seed's first program as
// PyTensor 2.34 compiled it (tests/data/missed/seed_rop.trace.json), two lanes of
// steps, the two graphs side by side with shared nodes in the same place and the
// differences as badges, stepping a lane, and "Export report..." writing the
// Markdown with SVGs of both graphs. Also reached from the main window's action.
#include "TestSuites.h"
#include "TestSupport.h"
#include "MainWindow.h"
#include "compare/CompareSession.h"
#include "compare/ComparePane.h"
#include "compare/CompareTimeline.h"
#include "compare/CompareWindow.h"
#include "compare/PyTensorDocument.h"
#include "scene/GraphScene.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace tl;

namespace {

const char* kSeedTrace = "tests/data/missed/seed_rop.trace.json";

QStringList badgeTexts(const GraphScene& scene) {
    QStringList out;
    for (BadgeItem* b : scene.badges()) out << b->text();
    return out;
}

void waitReady(CompareWindow& w) { QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && w.session()->isOpen(), 30000); }

} // namespace

class TestCompareWindow : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("tensorlens-tests");
        QCoreApplication::setApplicationName("tst_compare_window");
        QSettings().clear();
        QVERIFY(m_tmp.isValid());
    }

    void seedTraceSideBySide() {
        CompareWindow w;
        QSignalSpy ready(&w, &CompareWindow::ready);
        w.compare(loadPyTensorDocument(test::sourcePath(kSeedTrace)));
        w.show();
        QVERIFY(ready.wait(30000) || ready.count() > 0);
        waitReady(w);
        CompareSession& s = *w.session();
        // Two lanes: PyTensor's own steps then the ones it missed; tensorlens's steps.
        QVERIFY(s.pytensorSteps() > 20);
        QVERIFY(s.stepCount(CompareSession::PyTensorLane) > s.pytensorSteps());
        QVERIFY(s.stepCount(CompareSession::TensorlensLane) > 0);
        QCOMPARE(s.position(CompareSession::PyTensorLane), s.pytensorSteps());
        QVERIFY(s.atEnd(CompareSession::TensorlensLane));
        bool missedSeen = false;
        for (int k = s.pytensorSteps() + 1; k <= s.stepCount(CompareSession::PyTensorLane); ++k)
            missedSeen = missedSeen || (s.stepInfo(CompareSession::PyTensorLane, k).missed && !s.stepInfo(CompareSession::PyTensorLane, k).followOn);
        QVERIFY(missedSeen);

        // The tensorlens side on PyTensor's compiled graph: badges name the buffers and the merge.
        w.tensorlensChoice()->setCurrentIndex(1);
        waitReady(w);
        const QStringList right = badgeTexts(*w.tensorlensPane()->scene());
        const QString shape = QString::fromUtf8("(2, 7) \u2192 (1, 7)");
        QVERIFY2(right.filter(shape).size() == 2, qPrintable(right.join(" | ")));
        QVERIFY2(right.filter("merged into").size() == 1, qPrintable(right.join(" | ")));
        const QStringList left = badgeTexts(*w.pytensorPane()->scene());
        QVERIFY2(left.filter("tensorlens: 3 states").size() == 1, qPrintable(left.join(" | ")));
        // Shared nodes (same id and op on both sides) sit where they sit on PyTensor's side;
        // the merged loop, rebuilt under a new id, where the loop it was cloned from is.
        QVERIFY2(w.tensorlensPane()->placement().startsWith("shared positions kept"), qPrintable(w.tensorlensPane()->placement()));
        const auto& leftItems = w.pytensorPane()->scene()->nodeItems();
        int same = 0;
        for (const auto& [key, item] : w.tensorlensPane()->scene()->nodeItems()) {
            auto it = leftItems.find(key);
            if (it != leftItems.end() && it->second->pos() == item->pos()) ++same;
        }
        QVERIFY(same > 0);
        // The overview sits where it hides no badge (the badges say what differs).
        w.resize(1600, 900);
        QTest::qWait(50);
        GraphView* view = w.tensorlensPane()->view();
        view->updateMinimap();
        if (view->minimap()->isVisible()) {
            const QRect m = view->minimap()->geometry();
            const QRectF inScene = view->mapToScene(QRect(view->viewport()->mapFrom(view, m.topLeft()), m.size())).boundingRect();
            for (BadgeItem* b : w.tensorlensPane()->scene()->badges())
                QVERIFY2(!b->sceneBoundingRect().intersects(inScene), qPrintable("the minimap covers " + b->text()));
        }
        QVERIFY(w.reportView()->toPlainText().contains("Missed rewrites"));

        // Stepping PyTensor's lane back to its original graph, then to the end of the missed steps.
        s.setPosition(CompareSession::PyTensorLane, 0);
        waitReady(w);
        QVERIFY(w.pytensorPane()->scene()->visualGraph());
        QVERIFY(badgeTexts(*w.pytensorPane()->scene()).isEmpty());
        QTest::keyClick(w.timeline(), Qt::Key_End);
        QCOMPARE(s.position(CompareSession::PyTensorLane), s.pytensorSteps());
        waitReady(w);

        // The report: Markdown with the two pictures beside it.
        const QString md = m_tmp.filePath("seed-report.md");
        w.exportReport(md);
        QFile f(md);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY(text.contains("![PyTensor's compiled graph](seed-report-pytensor.svg)"));
        QVERIFY(text.contains("![After tensorlens's rewrites](seed-report-tensorlens.svg)"));
        QVERIFY(text.contains("Inner graphs:"));
        for (const char* svg : {"seed-report-pytensor.svg", "seed-report-tensorlens.svg"}) {
            QSvgRenderer r(m_tmp.filePath(svg));
            QVERIFY2(r.isValid(), svg);
        }
    }

    void clickMovesALane() {
        CompareWindow w;
        w.compare(loadPyTensorDocument(test::sourcePath(kSeedTrace)));
        w.show();
        waitReady(w);
        CompareTimeline* t = w.timeline();
        CompareSession& s = *w.session();
        const int n = s.stepCount(CompareSession::TensorlensLane);
        QTest::mouseClick(t, Qt::LeftButton, {}, QPoint(static_cast<int>(t->xOf(CompareSession::TensorlensLane, 1)),
                                                         static_cast<int>(t->yOf(CompareSession::TensorlensLane))));
        QCOMPARE(t->activeLane(), CompareSession::TensorlensLane);
        QVERIFY(s.position(CompareSession::TensorlensLane) <= 2);
        QTest::keyClick(t, Qt::Key_End);
        QCOMPARE(s.position(CompareSession::TensorlensLane), n);
        waitReady(w);
    }

    void fromTheMainWindow() {
        MainWindow mw;
        CompareWindow* w = mw.compareWithTensorlens(QString::fromStdString(test::sourcePath(kSeedTrace)));
        QVERIFY(w);
        waitReady(*w);
        QVERIFY(w->session()->comparison().hasTrace);
        QVERIFY(mw.actCompare && mw.actCompare->isEnabled());
        w->close();
    }

    void aBadFileIsReported() {
        QFile bad(m_tmp.filePath("bad.json"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"format\": \"tensorlens-trace\", \"version\": 1");
        bad.close();
        MainWindow mw;
        // Reported (a message box the test closes), nothing opened.
        QTimer::singleShot(200, [] {
            for (QWidget* top : QApplication::topLevelWidgets())
                if (auto* box = qobject_cast<QMessageBox*>(top)) box->accept();
        });
        QVERIFY(!mw.compareWithTensorlens(bad.fileName()));
    }
};

TL_TEST_SUITE(TestCompareWindow)
#include "tst_compare_window.moc"
