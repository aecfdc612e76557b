// The picture is right: each way the canvas used to lie, in the real window
// offscreen. Backward steps and jumps show the step's own picture, a forward
// step keeps left and right, the view follows a graph that grows, body edits
// are highlighted, "hide no-op steps" hides the real no-ops, a stale selection
// never lights a body node of the same id, links enter their own placeholder,
// labels never sit on each other, frame titles are whole, and two positions
// can be compared.
#include "TestSuites.h"
#include "WindowChecks.h"

#include "UiTestGraphs.h"
#include "widgets/DPrintPane.h"
#include "widgets/DPrintView.h"
#include "widgets/NoticeBar.h"
#include "widgets/InspectorPane.h"
#include "widgets/StepHeader.h"
#include "widgets/TimelinePane.h"

#include <QCheckBox>
#include <QTextBlock>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {
void open(MainWindow& w, const QString& example, QSize size = QSize(1500, 950)) {
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openExample(example));
    waitForLayout(w);
}

void go(MainWindow& w, int k) {
    w.session()->setCurrentStep(k);
    waitForLayout(w);
}

int keyOfTitle(const VisualGraph& vg, const QString& title) {
    for (size_t i = 0; i < vg.nodes.size(); ++i)
        if (QString::fromStdString(vg.nodes[i].title) == title && vg.nodes[i].parent < 0) return static_cast<int>(i);
    return -1;
}
} // namespace

class TestWindowFixes : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("tensorlens-tests");
        QCoreApplication::setApplicationName("tst_windowfixes");
        QSettings().clear();
    }

    // From step 6 to 5 with the left key, and End then Home: each step's own
    // picture, not positions reused from another step.
    void backwardStepShowsTheStepsOwnPicture() {
        MainWindow w;
        open(w, "seed_rop");
        const auto original = boxes(w);
        std::map<int, std::map<std::string, QRectF>> forward;
        for (int k = 1; k <= 6; ++k) {
            QTest::keyClick(&w, Qt::Key_Right);
            waitForLayout(w);
            forward[k] = boxes(w);
        }
        QTest::keyClick(&w, Qt::Key_Left);
        waitForLayout(w);
        QCOMPARE(w.session()->currentStep(), 5);
        QVERIFY2(brokenInvariant(w).isEmpty(), qPrintable(brokenInvariant(w)));
        QVERIFY(movedKey(forward[5], boxes(w)).empty());
        QCOMPARE(boxes(w).size(), forward[5].size());
        QVERIFY2(w.canvas()->lastLayoutInfo().contains("as shown before"), qPrintable(w.canvas()->lastLayoutInfo()));
        QTest::keyClick(&w, Qt::Key_End);
        waitForLayout(w);
        QVERIFY2(brokenInvariant(w).isEmpty(), qPrintable(brokenInvariant(w)));
        QTest::keyClick(&w, Qt::Key_Home);
        waitForLayout(w);
        QVERIFY2(brokenInvariant(w).isEmpty(), qPrintable(brokenInvariant(w)));
        QVERIFY(movedKey(original, boxes(w)).empty());
    }

    // Step 4 to 5 of the seed example used to mirror the graph (x_init and
    // AllocEmpty swapping sides): nodes both steps show keep their order left to right.
    void forwardStepKeepsLeftAndRight() {
        MainWindow w;
        open(w, "seed_rop");
        go(w, 4);
        const auto before = boxes(w);
        go(w, 5);
        const auto after = boxes(w);
        std::vector<std::pair<double, double>> xs;  // (before, after) of nodes both draw at top level
        const VisualGraph& vg = *w.canvas()->scene()->visualGraph();
        for (const VNode& n : vg.nodes) {
            if (n.parent >= 0 || n.kind == VNode::Kind::Cluster) continue;
            auto a = before.find(n.key), b = after.find(n.key);
            if (a != before.end() && b != after.end()) xs.emplace_back(a->second.center().x(), b->second.center().x());
        }
        QVERIFY(xs.size() >= 4);
        int pairs = 0, flipped = 0;
        for (size_t i = 0; i < xs.size(); ++i)
            for (size_t j = i + 1; j < xs.size(); ++j) {
                const double was = xs[i].first - xs[j].first, now = xs[i].second - xs[j].second;
                if (std::abs(was) < 20) continue;
                ++pairs;
                flipped += (was > 0) != (now > 0);
            }
        QVERIFY2(flipped * 10 <= pairs, qPrintable(QString("%1 of %2 pairs of kept nodes swapped sides").arg(flipped).arg(pairs)));
        const int xInit = keyOfTitle(vg, "x_init"), alloc = keyOfTitle(vg, "AllocEmpty{dtype='float64'}");
        if (xInit >= 0 && alloc >= 0) {
            const std::string kx = vg.nodes[xInit].key, ka = vg.nodes[alloc].key;
            if (before.count(kx) && before.count(ka))
                QCOMPARE(before.at(kx).center().x() < before.at(ka).center().x(), after.at(kx).center().x() < after.at(ka).center().x());
        }
    }

    // A jump of a few steps draws what stepping there would, either way.
    void aJumpDrawsWhatSteppingWould_data() {
        QTest::addColumn<QString>("example");
        for (const char* e : {"seed_rop", "dup_mitsot_fib", "merge_same_nsteps", "savemem_sitsot_last2"}) QTest::newRow(e) << QString(e);
    }
    void aJumpDrawsWhatSteppingWould() {
        QFETCH(QString, example);
        MainWindow walked, jumped, back;
        open(walked, example);
        open(jumped, example);
        open(back, example);
        const int last = walked.session()->stepCount(), middle = last / 2;
        // Step by step (three windows: keys reach only the active one).
        for (int k = 1; k <= last; ++k) go(walked, k);
        go(jumped, last);
        QVERIFY2(brokenInvariant(jumped).isEmpty(), qPrintable(brokenInvariant(jumped)));
        QCOMPARE(boxes(jumped), boxes(walked));
        // Back to a step neither has shown: by a jump, and step by step from the end.
        go(back, last);
        for (int k = last - 1; k >= middle; --k) go(back, k);
        go(jumped, middle);
        QVERIFY2(brokenInvariant(jumped).isEmpty(), qPrintable(brokenInvariant(jumped)));
        QCOMPARE(boxes(jumped), boxes(back));
    }

    // In a small window the steps that widen the graph used to leave nodes and
    // badges clipped at the edge: everything a step highlights is in view.
    void theViewFollowsWhatAStepChanges_data() {
        QTest::addColumn<QString>("example");
        for (const char* e : {"seed_rop", "savemem_sitsot_last2", "dup_mitsot_fib"}) QTest::newRow(e) << QString(e);
    }
    void theViewFollowsWhatAStepChanges() {
        QFETCH(QString, example);
        MainWindow w;
        open(w, example, QSize(1000, 650));
        for (int k = 1; k <= w.session()->stepCount(); ++k) {
            QTest::keyClick(&w, Qt::Key_Right);
            waitForLayout(w);
            const QRectF vis = w.canvas()->view()->visibleSceneRect().adjusted(-2, -2, 2, 2);
            for (BadgeItem* b : w.canvas()->scene()->badges())
                QVERIFY2(vis.contains(b->sceneBoundingRect()), qPrintable(QString("step %1: badge '%2' is cut").arg(k).arg(b->text())));
            QVERIFY2(brokenInvariant(w).isEmpty(), qPrintable(QString("step %1: %2").arg(k).arg(brokenInvariant(w))));
        }
    }

    // Step 3 rewrites the body of rop_of_scan_fn (Sub(Exp, ExpandDims(5)) becomes
    // Add(Exp, -5)); step 5 merges a state, erasing its body nodes.
    void bodyEditsAreHighlighted() {
        MainWindow w;
        open(w, "seed_rop");
        int bodyStep = -1, mergeStep = -1;
        for (int k = 1; k <= w.session()->stepCount(); ++k) {
            if (bodyStep < 0 && w.session()->step(k).rewrite == "scan_inner_rewrites") bodyStep = k;
            if (mergeStep < 0 && w.session()->step(k).rewrite == "scan_merge_states") mergeStep = k;
        }
        QVERIFY(bodyStep > 0 && mergeStep > 0);
        go(w, bodyStep);
        QVERIFY(!w.session()->changes(bodyStep).inner.empty());
        const VisualGraph& vg = *w.canvas()->scene()->visualGraph();
        int addedInside = 0;
        for (const auto& [key, item] : w.canvas()->scene()->nodeItems())
            if ((item->highlightFlags() & NodeItem::Added) && item->node().parent >= 0) ++addedInside;
        int ghostsInside = 0;
        for (const VNode& n : vg.nodes) ghostsInside += n.kind == VNode::Kind::Ghost && n.parent >= 0;
        QVERIFY2(addedInside > 0 || ghostsInside > 0, "the rewritten body shows no change");
        const QString header = w.canvas()->header()->lines().join(" | ");
        QVERIFY2(!header.contains("no visible change"), qPrintable(header));
        QVERIFY2(header.contains("body of"), qPrintable(header));
        go(w, mergeStep);
        int mergedGhosts = 0;
        for (const VNode& n : w.canvas()->scene()->visualGraph()->nodes) mergedGhosts += n.kind == VNode::Kind::Ghost && n.parent >= 0;
        QVERIFY2(mergedGhosts > 0, "the merged state's body nodes vanish without ghosts");
        QVERIFY2(brokenInvariant(w).isEmpty(), qPrintable(brokenInvariant(w)));
    }

    void hideNoOpStepsHidesTheRealNoOps() {
        MainWindow w;
        open(w, "seed_rop");
        TimelinePane* t = w.timeline();
        const int all = t->shownCount();
        t->hideNoOpBox()->setChecked(true);
        QVERIFY2(t->shownCount() < all, "hide no-op steps hides nothing");
        for (int k = 1; k <= w.session()->stepCount(); ++k) {
            if (t->isShown(k)) continue;
            const StepDiff& d = w.session()->diff(k);
            QVERIFY2(d.added.empty() && d.erased.empty() && d.opChanged.empty() && d.attributes.empty(), qPrintable(QString("step %1 is hidden but changed something").arg(k)));
            QVERIFY(w.session()->changes(k).empty());
        }
        for (int k = 1; k <= w.session()->stepCount(); ++k)
            if (!w.session()->changes(k).inner.empty()) QVERIFY2(t->isShown(k), "a step rewriting a body is hidden");
    }

    // Select #5, step to where #5 is erased: nothing of a body whose own node 5 is
    // drawn may light up, in the dprint text, on the canvas or by search.
    void aStaleSelectionNeverPicksABodyNode() {
        MainWindow w;
        open(w, "seed_rop");
        const int n = w.session()->stepCount();
        NodeId chosen = -1, fallback = -1;
        int at = -1, fallbackAt = -1;
        for (int k = 1; k <= n && chosen < 0; ++k)
            for (const NodeSnapshot& s : w.session()->diff(k).erased) {
                const Graph& g = w.session()->graphAt(k);
                bool inBody = false;
                for (const Node* node : g.nodes())
                    if (auto body = node->op().innerGraph(); body && body->findNode(s.id)) inBody = true;
                if (inBody) {
                    chosen = s.id;
                    at = k;
                    break;
                }
                if (fallback < 0) {
                    fallback = s.id;
                    fallbackAt = k;
                }
            }
        if (chosen < 0) {
            chosen = fallback;
            at = fallbackAt;
        }
        QVERIFY(chosen >= 0);
        go(w, at - 1);
        w.session()->setSelection({chosen});
        QVERIFY(!w.dprintPane()->highlightedLines().empty());
        go(w, at);
        for (int line : w.dprintPane()->highlightedLines())
            QVERIFY2(w.dprintPane()->refOfLine(line) == NodeRef::outer(chosen), qPrintable(w.dprintPane()->view()->lineText(line)));
        QVERIFY(w.dprintPane()->highlightedLines().empty());
        QVERIFY(w.canvas()->scene()->selectedItems().isEmpty());
        QVERIFY2(w.inspector()->html().contains("Not in the graph"), qPrintable(w.inspector()->html()));
        // "#id" finds outer nodes only.
        for (int hit : w.canvas()->scene()->search(QString("#%1").arg(chosen)))
            QVERIFY(w.canvas()->scene()->visualGraph()->nodes[hit].ref == NodeRef::outer(chosen));
    }

    // A link goes into its own placeholder and out of its own marker, crossing no other.
    void linksEnterTheirOwnPlaceholder_data() {
        QTest::addColumn<QString>("example");
        for (const char* e : {"seed_rop", "seed_dup", "dup_mitsot_fib", "merge_same_nsteps"}) QTest::newRow(e) << QString(e);
    }
    void linksEnterTheirOwnPlaceholder() {
        QFETCH(QString, example);
        MainWindow w;
        open(w, example);
        for (int k = 0; k <= w.session()->stepCount(); ++k) {
            go(w, k);
            const VisualGraph& vg = *w.canvas()->scene()->visualGraph();
            const GraphLayout& l = w.canvas()->scene()->layout();
            for (size_t e = 0; e < vg.edges.size(); ++e) {
                const VEdge& ve = vg.edges[e];
                const bool into = vg.nodes[ve.to].kind == VNode::Kind::InnerInput, out = vg.nodes[ve.from].kind == VNode::Kind::InnerOutput;
                if (!into && !out) continue;
                for (size_t o = 0; o < vg.nodes.size(); ++o) {
                    const VNode& other = vg.nodes[o];
                    if (static_cast<int>(o) == ve.to || static_cast<int>(o) == ve.from) continue;
                    if (other.kind != VNode::Kind::InnerInput && other.kind != VNode::Kind::InnerOutput) continue;
                    for (int s = 1; s < 40; ++s)
                        QVERIFY2(!l.rects[o].adjusted(2, 2, -2, -2).contains(l.paths[e].pointAtPercent(s / 40.0)),
                                 qPrintable(QString("step %1: the link %2 runs through %3").arg(k).arg(QString::fromStdString(edgeKey(vg, ve)), QString::fromStdString(other.key))));
                }
            }
        }
    }

    // Edge labels and link categories never cover each other or a box.
    void labelsDoNotCollide() {
        MainWindow w;
        open(w, "seed_rop");
        for (int k = 0; k <= w.session()->stepCount(); ++k) {
            go(w, k);
            std::vector<std::pair<QRectF, QString>> labels;
            for (const auto& [key, e] : w.canvas()->scene()->edgeItems()) {
                if (auto r = e->labelRect()) labels.emplace_back(*r, e->label());
                if (auto r = e->linkRect()) labels.emplace_back(*r, e->link());
            }
            for (size_t i = 0; i < labels.size(); ++i)
                for (size_t j = i + 1; j < labels.size(); ++j)
                    QVERIFY2(!labels[i].first.adjusted(1, 1, -1, -1).intersects(labels[j].first.adjusted(1, 1, -1, -1)),
                             qPrintable(QString("step %1: '%2' on '%3'").arg(k).arg(labels[i].second, labels[j].second)));
            const VisualGraph& vg = *w.canvas()->scene()->visualGraph();
            for (size_t n = 0; n < vg.nodes.size(); ++n) {
                if (vg.nodes[n].kind == VNode::Kind::Cluster) continue;
                for (const auto& [r, text] : labels)
                    if (text != QString::fromStdString(vg.nodes[n].title))
                        QVERIFY2(!r.adjusted(1, 1, -1, -1).intersects(w.canvas()->scene()->layout().rects[n]),
                                 qPrintable(QString("step %1: label '%2' on %3").arg(k).arg(text, QString::fromStdString(vg.nodes[n].title))));
            }
        }
    }

    // The frame shows the whole name of its Scan (wrapped when long), the tooltip too.
    void scanTitlesAreWhole() {
        MainWindow w;
        open(w, "seed_rop");
        for (int k = 0; k <= w.session()->stepCount(); ++k) {
            go(w, k);
            const VisualGraph& vg = *w.canvas()->scene()->visualGraph();
            for (size_t i = 0; i < vg.nodes.size(); ++i) {
                const VNode& c = vg.nodes[i];
                if (c.kind != VNode::Kind::Cluster) continue;
                const Node* node = resolveNode(w.session()->currentGraph(), c.ref);
                QVERIFY(node);
                std::string header;
                for (const std::string& line : c.headerLines) header += line + " ";
                QVERIFY2(QString::fromStdString(header).simplified().contains(QString::fromStdString(node->op().name()).simplified()), header.c_str());
                QVERIFY(w.canvas()->scene()->layout().rects[i].width() + 0.5 >= c.size.width());
            }
        }
        // A name longer than any frame wraps, never wider than the wrap width.
        GraphAssembler g;
        Variable* buf = g.addInput(Type::tensor(DType::Float64, {11, 7}), "x");
        std::string name;
        for (int i = 0; i < 30; ++i) name += (i ? "&" : "") + std::string("scan_fn_") + std::to_string(i);
        Node* scan = testgraphs::addScan(g, buf, 2, name);
        g.setOutputs({scan->output(0)});
        auto graph = g.finish();
        VisualGraph vg = buildVisualGraph(*graph, ExpansionState{});
        const int c = vg.indexOfNode(scan->id());
        QVERIFY(c >= 0 && vg.nodes[c].kind == VNode::Kind::Cluster);
        QVERIFY(vg.nodes[c].headerLines.size() > 1);
        QVERIFY(vg.nodes[c].size.width() <= kClusterHeaderWrap + 40);
        QVERIFY(QString::fromStdString(vg.nodes[c].tooltip).contains(QString::fromStdString(name)));
    }

    // "What changed between here and there": the last step against the original.
    void compareAStepWithTheOriginal() {
        MainWindow w;
        open(w, "seed_rop");
        go(w, w.session()->stepCount());
        w.compareWith(0);
        waitForLayout(w);
        QVERIFY2(w.canvas()->header()->lines().front().contains("Changes from the original graph"), qPrintable(w.canvas()->header()->lines().join("|")));
        QVERIFY(w.session()->shownDiff() && !w.session()->shownDiff()->erased.empty() && !w.session()->shownDiff()->added.empty());
        QVERIFY(w.canvas()->notices()->has("compare"));
        QVERIFY2(brokenInvariant(w).isEmpty(), qPrintable(brokenInvariant(w)));
        // And the other way round, from the last step back to step 2.
        w.compareWith(w.session()->stepCount());
        go(w, 2);
        QVERIFY(w.session()->shownDiff());
        QVERIFY2(brokenInvariant(w).isEmpty(), qPrintable(brokenInvariant(w)));
        w.compareWith(-1);
        waitForLayout(w);
        QVERIFY(!w.canvas()->notices()->has("compare"));
        QVERIFY(w.canvas()->header()->lines().front().startsWith("Step 2 /"));
    }
};

TL_TEST_SUITE(TestWindowFixes)
#include "tst_windowfixes.moc"
