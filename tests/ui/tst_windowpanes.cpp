// Results where the user looks, readable at first sight: the Run pane comes
// forward with a verification and a notice sums it up, failing steps are marked
// in the timeline, import notes and opaque nodes say what they are, body nodes
// are inspectable and linked to their dprint lines, the buffer mode switches
// with one key, the minimap minds its business, the first zoom is legible, the
// timeline's change column is whole, long runs are grouped, the exclusion
// dialog searches and resets, and the inspector's text is clean.
#include "TestSuites.h"
#include "WindowChecks.h"

#include "builder/Generators.h"
#include "builder/Math.h"
#include "session/FileLoader.h"
#include "widgets/DPrintPane.h"
#include "widgets/DPrintView.h"
#include "widgets/ExcludeDialog.h"
#include "widgets/InspectorPane.h"
#include "widgets/NoticeBar.h"
#include "widgets/RunPane.h"
#include "widgets/TimelinePane.h"

#include "TestSupport.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QRegularExpression>
#include <QSet>
#include <QDockWidget>
#include <QHeaderView>
#include <QLineEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {
void open(MainWindow& w, const QString& example) {
    w.resize(1500, 950);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openExample(example));
    waitForLayout(w);
}

// x -> exp(x), and one recorded step that turns the exp into a log: a wrong rewrite.
std::unique_ptr<Trace> wrongTrace() {
    GraphBuilder b;
    const Var x = b.input("x", DType::Float64, {3});
    auto g = b.finish({exp(x)});
    GraphBuilder lb;
    const Var lx = lb.input("x", DType::Float64, {3});
    auto lg = lb.finish({log(lx)});
    const Node* e = g->outputs()[0]->owner();
    GraphEdit edit;
    edit.kind = GraphEdit::Kind::SetOp;
    edit.nodeId = e->id();
    edit.opBefore = e->opPtr();
    edit.opAfter = lg->outputs()[0]->owner()->opPtr();
    TraceStep step;
    step.index = 0;
    step.phase = "canonicalize";
    step.rewrite = "a_wrong_rewrite";
    step.root = e->id();
    step.edits.push_back(edit);
    auto t = std::make_unique<Trace>(std::move(g));
    t->steps().push_back(std::move(step));
    return t;
}

QStringList badgeTexts(MainWindow& w) {
    QStringList out;
    for (BadgeItem* b : w.canvas()->scene()->badges()) out << b->text();
    return out;
}
} // namespace

class TestWindowPanes : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("tensorlens-tests");
        QCoreApplication::setApplicationName("tst_windowpanes");
        QSettings().clear();
    }

    void verifyResultsAreWhereTheUserLooks() {
        MainWindow w;
        open(w, "seed_rop");
        auto* insp = w.findChild<QDockWidget*>("inspectorDock");
        QVERIFY(insp);
        insp->raise();
        QVERIFY(w.runPane()->visibleRegion().isEmpty());  // behind the inspector's tab
        QTest::keyClick(&w, Qt::Key_F9, Qt::ShiftModifier);
        QVERIFY(!w.runPane()->visibleRegion().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(w.runPane()->lastVerifiedBadStep() != -2, 60000);
        QCOMPARE(w.runPane()->lastVerifiedBadStep(), -1);
        const QString text = w.canvas()->notices()->text("verify");
        QVERIFY2(text.contains(QString("all %1 steps keep the outputs").arg(w.session()->stepCount())), qPrintable(text));
        QVERIFY(w.timeline()->failedSteps().empty());

        // A wrong step: named in the notice with a link, marked in the timeline.
        w.session()->openTrace(wrongTrace(), "wrong");
        waitForLayout(w);
        QVERIFY(!w.canvas()->notices()->has("verify"));
        w.actVerify->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(w.runPane()->lastVerifiedBadStep() != -2, 60000);
        QCOMPARE(w.runPane()->lastVerifiedBadStep(), 1);
        const QString bad = w.canvas()->notices()->text("verify");
        QVERIFY2(bad.contains("Step 1 changes the outputs") && bad.contains("step:1"), qPrintable(bad));
        QCOMPARE(int(w.timeline()->failedSteps().size()), 1);
        QVERIFY(w.timeline()->rowOf(1)->background(0).color() != QColor());
        QCOMPARE(w.session()->currentStep(), 1);
    }

    // A listing cut before `Inner graphs:`: the notes above the graph, the reason on the node.
    void importNotesAndOpaqueNodesSayWhy() {
        std::string listing = seedDprintListing(1);
        const size_t cut = listing.find("Inner graphs:");
        QVERIFY(cut != std::string::npos);
        listing = listing.substr(0, cut);
        MainWindow w;
        w.resize(1500, 950);
        w.show();
        QVERIFY2(w.openText(QString::fromStdString(listing), "truncated.txt"), qPrintable(w.lastError()));
        waitForLayout(w);
        QVERIFY(w.canvas()->notices()->has("import"));
        QVERIFY(w.canvas()->notices()->isVisible());
        QVERIFY2(w.canvas()->notices()->text("import").contains("opaque"), qPrintable(w.canvas()->notices()->text("import")));
        bool said = false;
        for (const auto& [key, item] : w.canvas()->scene()->nodeItems())
            said = said || QString::fromStdString(item->node().subtitle).contains("opaque: body not in the text");
        QVERIFY2(said, "no node says why it is opaque");
        w.canvas()->notices()->dismiss("import");
        QVERIFY(!w.canvas()->notices()->has("import"));
    }

    // Clicking a node of a body selects it by path: the inspector shows it and the
    // dprint text lights its lines of the `Inner graphs:` section.
    void bodyNodesAreInspectableAndLinked() {
        MainWindow w;
        open(w, "seed_rop");
        w.session()->last();
        waitForLayout(w);
        NodeItem* inner = nullptr;
        for (const auto& [key, item] : w.canvas()->scene()->nodeItems())
            if (item->node().parent >= 0 && item->node().kind == VNode::Kind::Op) inner = item;
        QVERIFY2(inner, "no body node drawn at the last step");
        inner->setSelected(true);
        QCOMPARE(int(w.session()->selectedRefs().size()), 1);
        const NodeRef ref = w.session()->selectedRefs().front();
        QCOMPARE(ref, inner->node().ref);
        QVERIFY(!ref.isOuter());
        QVERIFY(w.session()->selection().empty());  // no outer node of that id is meant
        QVERIFY2(w.inspector()->html().contains("body node"), qPrintable(w.inspector()->html()));
        QVERIFY(!w.dprintPane()->highlightedLines().empty());
        for (int line : w.dprintPane()->highlightedLines()) QCOMPARE(w.dprintPane()->refOfLine(line), ref);
        // And back: its dprint line selects it (the cursor first elsewhere: one
        // already on that line would not move).
        w.dprintPane()->view()->setCurrentLine(w.dprintPane()->view()->lineCount() - 1);
        w.session()->setSelection({});
        const int line = [&] {
            for (int i = 0; i < w.dprintPane()->view()->lineCount(); ++i)
                if (w.dprintPane()->refOfLine(i) == ref) return i;
            return -1;
        }();
        QVERIFY(line >= 0);
        w.dprintPane()->view()->setCurrentLine(line);
        QCOMPARE(w.session()->selectedRefs(), std::vector<NodeRef>{ref});
        QVERIFY(inner->isSelected());
    }

    void openDialogShowsEverythingItOpens() {
        const QString filter = MainWindow::openFilter();
        QVERIFY2(filter.section(";;", 0, 0).contains("*.json") && filter.section(";;", 0, 0).contains("*.txt"), qPrintable(filter));
    }

    // (2, 7) against (1, 7), the seed's whole question, with one key.
    void bufferModeSwitchesWithOneKey() {
        MainWindow w;
        w.setBufferMode(MainWindow::BufferMode::PyTensor);
        open(w, "seed_rop");
        int saveMem = -1;
        for (int k = 1; k <= w.session()->stepCount() && saveMem < 0; ++k)
            if (w.session()->step(k).rewrite == "scan_save_mem") saveMem = k;
        QVERIFY(saveMem > 0);
        go(w, saveMem);
        QVERIFY2(badgeTexts(w).join("|").contains("(2, 7)"), qPrintable(badgeTexts(w).join("|")));
        QVERIFY(w.windowTitle().contains("pytensor"));
        QTest::keyClick(&w, Qt::Key_B);
        waitForLayout(w);
        QCOMPARE(w.session()->step(w.session()->currentStep()).rewrite, std::string("scan_save_mem"));
        QVERIFY2(badgeTexts(w).join("|").contains("\u2192 (1, 7)"), qPrintable(badgeTexts(w).join("|")));
        QVERIFY(w.windowTitle().contains("exact"));
        QVERIFY2(brokenInvariant(w).isEmpty(), qPrintable(brokenInvariant(w)));
        QTest::keyClick(&w, Qt::Key_B);
        waitForLayout(w);
        QVERIFY(badgeTexts(w).join("|").contains("(2, 7)"));
    }

    void theMinimapMindsItsBusiness() {
        {
            MainWindow w;
            w.resize(1500, 950);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(!w.canvas()->view()->minimap()->isVisible());  // nothing open
            QVERIFY(w.openExample("dup_mitsot_fib"));
            waitForLayout(w);
            // All of it in view: nothing to find, nothing covered.
            if (w.canvas()->view()->visibleSceneRect().contains(w.canvas()->scene()->sceneRect()))
                QVERIFY(!w.canvas()->view()->minimap()->isVisible());
            for (int i = 0; i < 5; ++i) w.canvas()->view()->zoomIn();
            QVERIFY(w.canvas()->view()->minimap()->isVisible());
            w.actMinimap->trigger();
            QVERIFY(!w.canvas()->view()->minimap()->isVisible());
        }
        MainWindow again;
        QVERIFY2(!again.actMinimap->isChecked(), "the minimap setting is forgotten");
        again.actMinimap->trigger();
        QVERIFY(again.actMinimap->isChecked());
        // A big graph: the overview is a box, not a one-pixel strip.
        auto g = generateMixed(1500, 1);
        again.resize(1500, 950);
        again.show();
        again.session()->openGraph(std::move(g), "big");
        waitForLayout(again);
        Minimap* m = again.canvas()->view()->minimap();
        if (!m->isVisible()) again.canvas()->view()->zoomIn();
        QTRY_VERIFY(m->isVisible());
        QVERIFY(m->height() >= 60 && m->width() >= 60);
    }

    void theFirstZoomIsLegible() {
        MainWindow w;
        open(w, "seed_rop");
        GraphView* v = w.canvas()->view();
        const bool whole = v->visibleSceneRect().adjusted(-2, -2, 2, 2).contains(w.canvas()->scene()->sceneRect());
        QVERIFY2(v->zoom() >= GraphView::kReadableZoom - 1e-9 || whole, qPrintable(QString::number(v->zoom())));
        MainWindow big;
        big.resize(1500, 950);
        big.show();
        big.session()->openGraph(generateMixed(2000, 1), "big");
        waitForLayout(big);
        QVERIFY2(big.canvas()->view()->zoom() >= GraphView::kReadableZoom - 1e-9, qPrintable(QString::number(big.canvas()->view()->zoom())));
    }

    void theChangeColumnIsWhole() {
        MainWindow w;
        open(w, "seed_rop");
        auto* dock = w.findChild<QDockWidget*>("timelineDock");
        w.resizeDocks({dock}, {260}, Qt::Horizontal);
        QApplication::processEvents();
        QTreeWidget* tree = w.timeline()->tree();
        const QFontMetrics fm(tree->font());
        for (int k = 1; k <= w.session()->stepCount(); ++k) {
            QTreeWidgetItem* row = w.timeline()->rowOf(k);
            QVERIFY(!row->toolTip(3).isEmpty());
            QVERIFY2(tree->header()->sectionSize(3) >= fm.horizontalAdvance(row->text(3)), qPrintable(row->text(3)));
        }
    }

    // Buffers changing in different ways: the first is spelled out, the rest counted,
    // and the tooltip has every one.
    void severalBufferChangesStayShort() {
        TraceStep s;
        s.rewrite = "scan_save_mem";
        s.attributes.push_back({1, "buffer_shape", "(11, 3)", "(2, 3)", ""});
        s.attributes.push_back({1, "buffer_shape", "(11, 2)", "(3, 2)", ""});
        s.attributes.push_back({1, "buffer_shape", "(11, 2)", "(3, 2)", ""});
        QCOMPARE(stepChangeSummary(s), QString("(11, 3)\u2192(2, 3) +2 more"));
        const QString tip = stepChangeDescription(s);
        QVERIFY2(tip.contains("(11, 3) \u2192 (2, 3)") && tip.contains("(11, 2) \u2192 (3, 2)"), qPrintable(tip));
    }

    void longRunsOfOneRewriteAreGrouped() {
        MainWindow w;
        w.resize(1500, 950);
        w.show();
        w.session()->openTrace(rewriteToTrace(*generateDuplicatedSubexpressions(160)), "dup");
        waitForLayout(w);
        QTreeWidget* tree = w.timeline()->tree();
        bool grouped = false;
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            for (int j = 0; j < tree->topLevelItem(i)->childCount(); ++j) {
                QTreeWidgetItem* item = tree->topLevelItem(i)->child(j);
                if (item->childCount() >= TimelinePane::kRunGroup && item->text(1).contains(QString::fromUtf8("\u00d7"))) grouped = true;
            }
        QVERIFY2(grouped, "no run of one rewrite is grouped");
        // Stepping into a closed run opens it.
        for (int k = 1; k <= w.session()->stepCount(); ++k) QVERIFY(w.timeline()->rowOf(k));
        w.session()->last();
        QVERIFY(!w.timeline()->rowOf(w.session()->stepCount())->isHidden());
    }

    void theExcludeDialogSearchesMarksAndResets() {
        std::map<std::string, int> fired{{"merge", 2}, {"scan_save_mem", 1}};
        ExcludeDialog d(Pipeline::fastRun().describe(), fired, {"scan_save_mem"}, nullptr);
        const int all = d.shownCount();
        QVERIFY(all > 20);
        d.searchEdit()->setText("save_mem");
        QVERIFY(d.shownCount() >= 1 && d.shownCount() < all);
        d.searchEdit()->clear();
        d.findChild<QCheckBox*>("excludeOnlyFired")->setChecked(true);
        // merge runs in several phases: every row shown is one of the two that fired, both are shown.
        QVERIFY(d.shownCount() >= 2);
        std::set<std::string> shown;
        auto* tree = d.findChild<QTreeWidget*>("excludeTree");
        for (int p = 0; p < tree->topLevelItemCount(); ++p)
            for (int i = 0; i < tree->topLevelItem(p)->childCount(); ++i)
                if (!tree->topLevelItem(p)->child(i)->isHidden()) shown.insert(tree->topLevelItem(p)->child(i)->data(0, Qt::UserRole).toString().toStdString());
        QCOMPARE(shown, (std::set<std::string>{"merge", "scan_save_mem"}));
        QVERIFY(d.excluded().count("scan_save_mem"));
        d.resetToDefaults();
        QVERIFY(!d.excluded().count("scan_save_mem"));
    }

    void theInspectorsTextIsClean() {
        MainWindow w;
        open(w, "seed_rop");
        for (int k = 0; k <= w.session()->stepCount(); ++k) {
            w.session()->setCurrentStep(k);
            const QString html = w.inspector()->browser()->toPlainText();
            QVERIFY2(!QRegularExpression(",\\s*\\n").match(html).hasMatch(), qPrintable(html));
        }
        // Each failed match is said once.
        for (const Node* n : w.session()->trace().original().nodes()) {
            w.session()->setSelection({n->id()});
            const QString text = w.inspector()->browser()->toPlainText();
            const QStringList lines = text.split('\n', Qt::SkipEmptyParts);
            QSet<QString> seen;
            // The table's plain text has one line per cell: a row is rewrite, reason, where.
            const int from = lines.indexOf("Rewrites tried here that did not fire");
            for (int i = from + 1; from >= 0 && i + 2 < lines.size() && !lines[i].startsWith("Steps touching"); i += 3) {
                const QString row = lines.mid(i, 3).join(" | ");
                QVERIFY2(!seen.contains(row), qPrintable(row));
                seen.insert(row);
            }
        }
    }

private:
    static void go(MainWindow& w, int k) {
        w.session()->setCurrentStep(k);
        waitForLayout(w);
    }
};

TL_TEST_SUITE(TestWindowPanes)
#include "tst_windowpanes.moc"
