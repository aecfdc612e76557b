// DPrintView: the dprint pane's line view. Lines in, the same lines out; clicks,
// keys and setCurrentLine move the current line (and say so once); dragging
// selects text across lines, Ctrl+C copies it; a new listing keeps the scroll
// position and drops what no longer exists.
#include "TestSuites.h"
#include "widgets/DPrintView.h"

#include <QApplication>
#include <QClipboard>
#include <QScrollBar>
#include <QSignalSpy>
#include <QtTest>

using namespace tl;

namespace {
std::vector<std::string> listing(int n, const std::string& tag = "") {
    std::vector<std::string> l;
    for (int i = 0; i < n; ++i) l.push_back("├─ Add [id " + tag + std::to_string(i) + "] shape=(7,)");
    return l;
}
// On screen at `size`, so scrolling and clicks have a viewport to act on.
bool shown(DPrintView& v, QSize size) {
    v.resize(size);
    v.show();
    return QTest::qWaitForWindowExposed(&v);
}
} // namespace

class TestDPrintView : public QObject {
    Q_OBJECT
private slots:
    void linesComeBackAsGiven() {
        DPrintView v;
        v.setLines(listing(3));
        QCOMPARE(v.lineCount(), 3);
        QCOMPARE(v.lineText(1), QString("├─ Add [id 1] shape=(7,)"));
        QCOMPARE(v.text(), QString("├─ Add [id 0] shape=(7,)\n├─ Add [id 1] shape=(7,)\n├─ Add [id 2] shape=(7,)"));
        QCOMPARE(v.lineText(3), QString());
        QCOMPARE(v.lineText(-1), QString());
    }

    void currentLineMovesOnceAndScrollsIntoView() {
        DPrintView v;
        QVERIFY(shown(v, QSize(300, 120)));
        v.setLines(listing(500));
        QSignalSpy moved(&v, &DPrintView::currentLineChanged);
        v.setCurrentLine(400);
        QCOMPARE(moved.count(), 1);
        QCOMPARE(moved.takeFirst().at(0).toInt(), 400);
        const int first = v.verticalScrollBar()->value();
        QVERIFY2(first <= 400 && 400 < first + 20, qPrintable(QString::number(first)));
        v.setCurrentLine(400);
        QCOMPARE(moved.count(), 0);
        v.setCurrentLine(10000);
        QCOMPARE(v.currentLine(), 499);
    }

    void clickingALineMakesItCurrent() {
        DPrintView v;
        QVERIFY(shown(v, QSize(300, 200)));
        v.setLines(listing(50));
        QSignalSpy moved(&v, &DPrintView::currentLineChanged);
        const int lh = QFontMetrics(v.font()).lineSpacing();
        QTest::mouseClick(v.viewport(), Qt::LeftButton, {}, QPoint(20, lh * 3 + lh / 2));
        QCOMPARE(moved.count(), 1);
        QCOMPARE(v.currentLine(), 3);
        QTest::keyClick(&v, Qt::Key_Down);
        QCOMPARE(v.currentLine(), 4);
        QTest::keyClick(&v, Qt::Key_End);
        QCOMPARE(v.currentLine(), 49);
    }

    void draggingSelectsTextAcrossLines() {
        DPrintView v;
        QVERIFY(shown(v, QSize(400, 200)));
        v.setLines({"abcdef", "ghijkl", "mnopqr"});
        const QFontMetricsF fm(v.font());
        const double cw = fm.horizontalAdvance(QLatin1Char('M'));
        const int lh = QFontMetrics(v.font()).lineSpacing();
        auto at = [&](int line, int col) { return QPoint(static_cast<int>(4 + col * cw), line * lh + lh / 2); };
        QTest::mousePress(v.viewport(), Qt::LeftButton, {}, at(0, 2));
        QMouseEvent move(QEvent::MouseMove, at(1, 3), v.viewport()->mapToGlobal(at(1, 3)), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(v.viewport(), &move);
        QTest::mouseRelease(v.viewport(), Qt::LeftButton, {}, at(1, 3));
        QCOMPARE(v.selectedText(), QString("cdef\nghi"));
        QTest::keyClick(&v, Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QApplication::clipboard()->text(), QString("cdef\nghi"));
        v.selectAll();
        QCOMPARE(v.selectedText(), QString("abcdef\nghijkl\nmnopqr"));
    }

    void aNewListingKeepsThePlaceAndDropsWhatIsGone() {
        DPrintView v;
        QVERIFY(shown(v, QSize(300, 120)));
        v.setLines(listing(300));
        v.setHighlighted({5, 250});
        v.setCurrentLine(250);
        v.centerOnLine(200);
        const int scrolled = v.verticalScrollBar()->value();
        QVERIFY(scrolled > 150);
        v.setLines(listing(300, "x"));
        QCOMPARE(v.verticalScrollBar()->value(), scrolled);
        QCOMPARE(v.currentLine(), 250);
        v.setLines(listing(100, "y"));
        QCOMPARE(v.currentLine(), -1);
        QCOMPARE(v.highlighted(), std::vector<int>{5});
        QCOMPARE(v.selectedText(), QString());
    }
};

TL_TEST_SUITE(TestDPrintView)
#include "tst_dprint_view.moc"
