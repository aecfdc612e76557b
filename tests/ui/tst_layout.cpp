// Layout: the visual graph (per-use inputs, collapsed chains, Scan clusters
// with category links), dot and layered parts, stability between steps, the
// async engine with cancel.
#include "TestSuites.h"
#include "ir/Rewriter.h"
#include "ir/GraphAssembler.h"
#include "layout/GraphLayout.h"
#include "layout/LayoutEngine.h"
#include "layout/VisualGraph.h"
#include "session/FileLoader.h"
#include "session/RewriteSession.h"
#include "trace/StepDiff.h"
#include "builder/Math.h"

#include "UiTestGraphs.h"

#include <QSignalSpy>
#include <QtTest>

using namespace tl;
using namespace tl::testgraphs;

namespace {
bool overlaps(const GraphLayout& l, const VisualGraph& vg, QString* which) {
    for (size_t i = 0; i < vg.nodes.size(); ++i)
        for (size_t j = i + 1; j < vg.nodes.size(); ++j) {
            if (vg.nodes[i].parent != vg.nodes[j].parent) continue;
            if (l.rects[i].adjusted(1, 1, -1, -1).intersects(l.rects[j].adjusted(1, 1, -1, -1))) {
                *which = QString::fromStdString(vg.nodes[i].key + " / " + vg.nodes[j].key);
                return true;
            }
        }
    return false;
}

// x -> Pass -> Elemwise chain of `chain` -> Scan(buffer) -> output
std::unique_ptr<Graph> mixed(int chain, int body) {
    GraphAssembler gA;
    Variable* x = gA.addInput(Type::tensor(DType::Float64, {11, 7}), "x");
    Variable* c = gA.addConstant(NDArray::scalar(DType::Float64, 5));
    Variable* v = gA.addNode(pass(), {x})->output(0);
    for (int i = 0; i < chain; ++i) v = gA.addNode(pass("Exp", OpKind::Elemwise), {v, c})->output(0);
    Node* s = addScan(gA, v, body);
    gA.setOutputs({s->output(0), v});
    auto g = gA.finish();
    return g;
}
} // namespace

class TestLayout : public QObject {
    Q_OBJECT
private slots:
    void inputsAndConstantsOncePerUse() {
        auto g = mixed(3, 2);
        ExpansionState exp;
        VisualGraph vg = buildVisualGraph(*g, exp);
        int constants = 0, inputs = 0;
        for (const VNode& n : vg.nodes) {
            constants += n.kind == VNode::Kind::Constant;
            inputs += n.kind == VNode::Kind::Input;
        }
        // Three uses of the constant 5 and the n_steps constant; x once.
        QCOMPARE(constants, 4);
        QCOMPARE(inputs, 1);
        QVERIFY(vg.indexOf("out0") >= 0 && vg.indexOf("out1") >= 0);
    }

    void longElementwiseChainsCollapse() {
        auto g = mixed(12, 2);
        ExpansionState exp;
        VisualGraph vg = buildVisualGraph(*g, exp);
        int chains = 0;
        for (const VNode& n : vg.nodes)
            if (n.kind == VNode::Kind::Chain) {
                ++chains;
                // The last op feeds both the scan and an output: it ends the chain (and belongs to it).
                QCOMPARE(int(n.members.size()), 12);
                QVERIFY(QString::fromStdString(n.title).contains("12"));
            }
        QCOMPARE(chains, 1);
        // Expanding it shows every op again.
        exp.expanded.insert(vg.nodes[vg.indexOfNode(g->toposort()[1]->id())].key);
        VisualGraph open = buildVisualGraph(*g, exp);
        for (const VNode& n : open.nodes) QVERIFY(n.kind != VNode::Kind::Chain);
    }

    // x' = x * x, with w added every eighth op: the chain reads x twice and w 25
    // times, yet is one box with one edge per input; fusing it erases 200 nodes,
    // drawn as one summary ghost rather than 200 boxes.
    void repeatedReadsAndBigErasuresStayReadable() {
        GraphBuilder b;
        const Var x = b.input("x", DType::Float64, {4}), w = b.input("w", DType::Float64, {4});
        Var cur = x;
        for (int i = 0; i < 200; ++i) cur = i % 8 == 0 ? add({cur, w}) : mul({cur, cur});
        auto g = b.finish({cur});
        VisualGraph vg = buildVisualGraph(*g, ExpansionState{});
        int chain = -1;
        for (int i = 0; i < int(vg.nodes.size()); ++i)
            if (vg.nodes[i].kind == VNode::Kind::Chain) {
                QCOMPARE(chain, -1);
                chain = i;
            }
        QVERIFY(chain >= 0);
        QCOMPARE(int(vg.nodes[chain].members.size()), 200);
        int into = 0;
        for (const VEdge& e : vg.edges) into += e.to == chain;
        QCOMPARE(into, 2);

        RewriteSession session;
        session.openTrace(rewriteToTrace(*g));
        int fusion = -1;
        for (int k = 0; k < session.stepCount() && fusion < 0; ++k)
            if (session.trace().steps()[k].rewrite == "elemwise_fusion") fusion = k + 1;
        QVERIFY(fusion > 0);
        session.setCurrentStep(fusion);
        VisualGraph after = buildVisualGraph(session.currentGraph(), ExpansionState{}, session.currentDiff());
        int ghosts = 0;
        for (const VNode& n : after.nodes)
            if (n.kind == VNode::Kind::Ghost) {
                ++ghosts;
                QVERIFY2(QString::fromStdString(n.title).contains("nodes erased"), n.title.c_str());
            }
        QCOMPARE(ghosts, 1);
        QVERIFY(session.currentDiff()->erased.size() > kMaxGhostBoxes);  // the summary was needed
    }

    void smallScanBodiesAreClustersWithCategoryLinks() {
        auto g = mixed(1, 3);
        ExpansionState exp;
        VisualGraph vg = buildVisualGraph(*g, exp);
        int cluster = -1;
        for (int i = 0; i < int(vg.nodes.size()); ++i)
            if (vg.nodes[i].kind == VNode::Kind::Cluster) cluster = i;
        QVERIFY(cluster >= 0);
        QCOMPARE(int(vg.childrenOf(cluster).size()), 3 + 2);  // body + placeholder + output marker
        QStringList links;
        for (const VEdge& e : vg.edges)
            if (!e.link.empty()) links << QString::fromStdString(e.link);
        QVERIFY2(links.contains("sit_sot-0"), qPrintable(links.join(",")));
        QVERIFY2(links.contains("n_steps"), qPrintable(links.join(",")));
        // Collapsing it leaves one node.
        exp.collapsed.insert(vg.nodes[cluster].key);
        VisualGraph closed = buildVisualGraph(*g, exp);
        QCOMPARE(closed.nodes[closed.indexOfNode(vg.nodes[cluster].node)].kind, VNode::Kind::Op);
    }

    void layoutHasNoOverlapsAndEdgesPointDown_data() {
        QTest::addColumn<int>("method");
        QTest::newRow("dot") << int(LayoutSettings::Method::Dot);
        QTest::newRow("layered") << int(LayoutSettings::Method::Layered);
    }
    void layoutHasNoOverlapsAndEdgesPointDown() {
        QFETCH(int, method);
        auto g = mixed(3, 3);
        VisualGraph vg = buildVisualGraph(*g, ExpansionState{});
        LayoutSettings s;
        s.method = LayoutSettings::Method(method);
        GraphLayout l = layoutVisualGraph(vg, s);
        QVERIFY(l.ok);
        QString which;
        QVERIFY2(!overlaps(l, vg, &which), qPrintable(which));
        for (const VEdge& e : vg.edges)
            QVERIFY2(l.rects[e.from].center().y() < l.rects[e.to].center().y(), edgeKey(vg, e).c_str());
        // Cluster children sit inside their cluster.
        for (size_t i = 0; i < vg.nodes.size(); ++i)
            if (vg.nodes[i].parent >= 0) QVERIFY(l.rects[vg.nodes[i].parent].contains(l.rects[i]));
        for (const QPainterPath& p : l.paths) QVERIFY(!p.isEmpty());
    }

    // Thousands of boxes in one part: how fast is bench/bench_ui_layered.cpp's question.
    void layeredLaysOutThousandsOfNodes() {
        auto g = randomDag(3000, 20, 7);
        VisualGraph vg = buildVisualGraph(*g, ExpansionState{});
        LayoutSettings s;
        s.method = LayoutSettings::Method::Layered;
        GraphLayout l = layoutVisualGraph(vg, s);
        QVERIFY(l.ok);
        QCOMPARE(l.rects.size(), vg.nodes.size());
        // Within a rank boxes never overlap.
        std::map<double, std::vector<QRectF>> rows;
        for (const QRectF& r : l.rects) rows[r.center().y()].push_back(r);
        for (auto& [y, rs] : rows) {
            std::sort(rs.begin(), rs.end(), [](const QRectF& a, const QRectF& b) { return a.left() < b.left(); });
            for (size_t i = 1; i < rs.size(); ++i) QVERIFY(rs[i - 1].right() <= rs[i].left() + 0.01);
        }
    }

    void steppingKeepsPositionsOfUnchangedNodes() {
        auto g = mixed(3, 2);
        VisualGraph before = buildVisualGraph(*g, ExpansionState{});
        GraphLayout l = layoutVisualGraph(before, LayoutSettings{});
        PositionCache cache;
        cache.remember(before, l);
        // One more node after the scan: everything else must stay put.
        auto g2 = g->clone();
        Variable* extra = nullptr;
        {
            Rewriter rw(*g2);
            extra = rw.create(pass("New"), {g2->outputs()[0]})->output(0);
            rw.setOutput(0, extra);
        }
        VisualGraph after = buildVisualGraph(*g2, ExpansionState{});
        IncrementalLayout inc = layoutIncrementally(after, cache);
        QVERIFY(inc.layout.ok);
        QCOMPARE(inc.placed, 1);
        for (size_t i = 0; i < after.nodes.size(); ++i) {
            const VNode& n = after.nodes[i];
            if (n.kind == VNode::Kind::Cluster) continue;
            if (const QRectF* r = cache.rect(n.key)) QCOMPARE(inc.layout.rects[i].center(), r->center());
        }
        const int fresh = after.indexOf("n" + std::to_string(extra->owner()->id()));
        QVERIFY(fresh >= 0);
        // Placed below its input, not on top of anything.
        const int scan = after.indexOfNode(g2->outputs()[1]->owner() ? extra->owner()->input(0)->owner()->id() : -1);
        QVERIFY(scan >= 0);
        QVERIFY(inc.layout.rects[fresh].top() > inc.layout.rects[scan].top());
        for (size_t i = 0; i < after.nodes.size(); ++i)
            if (int(i) != fresh && after.nodes[i].parent == -1 && after.nodes[i].kind != VNode::Kind::Cluster)
                QVERIFY(!inc.layout.rects[i].intersects(inc.layout.rects[fresh]));
    }

    void engineRunsOffThreadAndCancels() {
        LayoutEngine engine;
        QSignalSpy done(&engine, &LayoutEngine::finished);
        QSignalSpy cancelled(&engine, &LayoutEngine::cancelled);
        auto vg = std::make_shared<VisualGraph>(buildVisualGraph(*mixed(3, 2), ExpansionState{}));
        const quint64 first = engine.start(vg);
        const quint64 second = engine.start(vg);  // supersedes the first
        QVERIFY(second != first);
        QVERIFY(done.wait(10000));
        QCOMPARE(done.count(), 1);
        QCOMPARE(done.at(0).at(0).value<quint64>(), second);
        QVERIFY(cancelled.count() >= 1);
        QCOMPARE(cancelled.at(0).at(0).value<quint64>(), first);
        auto layout = done.at(0).at(2).value<std::shared_ptr<const GraphLayout>>();
        QVERIFY(layout && layout->ok);
        QCOMPARE(layout->rects.size(), vg->nodes.size());
        QVERIFY(!engine.isBusy());
    }
};

TL_TEST_SUITE(TestLayout)
#include "tst_layout.moc"
