#pragma once
// What must hold of the canvas at every step, whatever way the user got there
// (tst_windowwalk, tst_windowfixes): no two boxes on top of each other, every
// edge ending on its nodes, every node of the step drawn, what the step
// highlights in view, and a way to record where each node was drawn.
#include "MainWindow.h"
#include "scene/GraphScene.h"
#include "widgets/GraphCanvas.h"
#include "widgets/GraphView.h"

#include <QRectF>
#include <QString>
#include <QtTest>

#include <cmath>
#include <map>
#include <string>

namespace tl::test {

inline void waitForLayout(MainWindow& w) { QTRY_VERIFY_WITH_TIMEOUT(!w.canvas()->isLayoutPending(), 30000); }

/// Distance from `p` to the rect (0 inside).
inline double distanceTo(const QRectF& r, QPointF p) {
    const double dx = std::max({r.left() - p.x(), 0.0, p.x() - r.right()});
    const double dy = std::max({r.top() - p.y(), 0.0, p.y() - r.bottom()});
    return std::hypot(dx, dy);
}

/// Is `inner` inside frame `outer` (a cluster holding it, at any depth)?
inline bool inside(const VisualGraph& vg, int node, int frame) {
    for (int p = vg.nodes[node].parent; p >= 0; p = vg.nodes[p].parent)
        if (p == frame) return true;
    return false;
}

/// Every invariant of the picture on screen; the first broken one, or "" when all hold.
inline QString brokenInvariant(MainWindow& w) {
    GraphScene* scene = w.canvas()->scene();
    const VisualGraph* vg = scene->visualGraph();
    if (!vg) return "no picture";
    const GraphLayout& l = scene->layout();
    const int n = static_cast<int>(vg->nodes.size());
    // No two boxes overlap; no box inside a frame it does not belong to; no two frames cross.
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) {
            const bool ci = vg->nodes[i].kind == VNode::Kind::Cluster, cj = vg->nodes[j].kind == VNode::Kind::Cluster;
            if (ci && inside(*vg, j, i)) continue;
            if (cj && inside(*vg, i, j)) continue;
            if (l.rects[i].adjusted(1, 1, -1, -1).intersects(l.rects[j].adjusted(1, 1, -1, -1)))
                return QString("boxes overlap: %1 %2 and %3 %4")
                    .arg(QString::fromStdString(vg->nodes[i].key), QString::fromStdString(vg->nodes[i].title))
                    .arg(QString::fromStdString(vg->nodes[j].key), QString::fromStdString(vg->nodes[j].title));
        }
    // Every edge starts at its producer and ends on its reader.
    for (size_t e = 0; e < vg->edges.size(); ++e) {
        const VEdge& ve = vg->edges[e];
        const QPainterPath& p = l.paths[e];
        if (p.isEmpty()) return QString("edge %1 has no path").arg(QString::fromStdString(edgeKey(*vg, ve)));
        const QPointF start = p.elementAt(0), end = p.currentPosition();
        if (distanceTo(l.rects[ve.from], start) > 4)
            return QString("edge %1 starts %2 px from its node").arg(QString::fromStdString(edgeKey(*vg, ve))).arg(distanceTo(l.rects[ve.from], start));
        if (distanceTo(l.rects[ve.to], end) > 4)
            return QString("edge %1 ends %2 px from its node").arg(QString::fromStdString(edgeKey(*vg, ve))).arg(distanceTo(l.rects[ve.to], end));
    }
    // Every node of the step is drawn (in its box, a chain, or the collapsed Scan holding it).
    for (const Node* node : w.session()->currentGraph().nodes())
        if (vg->indexOfNode(node->id()) < 0) return QString("node %1 (%2) is not drawn").arg(node->id()).arg(QString::fromStdString(node->op().name()));
    // ... and every node of each body drawn open.
    for (int c = 0; c < n; ++c) {
        if (vg->nodes[c].kind != VNode::Kind::Cluster) continue;
        const Node* owner = resolveNode(w.session()->currentGraph(), vg->nodes[c].ref);
        if (!owner || !owner->op().innerGraph()) return QString("frame %1 stands for no node with a body").arg(QString::fromStdString(vg->nodes[c].key));
        for (const Node* inner : owner->op().innerGraph()->nodes())
            if (vg->indexOfRef(vg->nodes[c].ref.child(inner->id())) < 0)
                return QString("body node %1 of %2 is not drawn").arg(inner->id()).arg(QString::fromStdString(vg->nodes[c].key));
    }
    // Every box is an item of the scene, where the layout put it.
    for (int i = 0; i < n; ++i) {
        if (vg->nodes[i].kind == VNode::Kind::Cluster) continue;
        NodeItem* item = scene->nodeItem(vg->nodes[i].key);
        if (!item) return QString("no item for %1").arg(QString::fromStdString(vg->nodes[i].key));
        if (item->boxRect() != l.rects[i]) return QString("item %1 is not where the layout put it").arg(QString::fromStdString(vg->nodes[i].key));
    }
    // What the step highlights is in view.
    const QRectF h = scene->highlightedRect();
    const QRectF vis = w.canvas()->view()->visibleSceneRect().adjusted(-2, -2, 2, 2);
    // By the corners: QRectF::contains is false for a zero-width rect (a straight edge).
    const bool inView = h.left() >= vis.left() && h.right() <= vis.right() && h.top() >= vis.top() && h.bottom() <= vis.bottom();
    if (!h.isNull() && !inView)
        return QString("highlights (%1,%2 %3x%4) are not all in view (%5,%6 %7x%8)")
            .arg(h.left())
            .arg(h.top())
            .arg(h.width())
            .arg(h.height())
            .arg(vis.left())
            .arg(vis.top())
            .arg(vis.width())
            .arg(vis.height());
    return {};
}

/// Where every box of the picture on screen is, by key.
inline std::map<std::string, QRectF> boxes(MainWindow& w) {
    std::map<std::string, QRectF> out;
    const VisualGraph* vg = w.canvas()->scene()->visualGraph();
    if (!vg) return out;
    for (size_t i = 0; i < vg->nodes.size(); ++i) out[vg->nodes[i].key] = w.canvas()->scene()->layout().rects[i];
    return out;
}

/// The first key drawn elsewhere in `b` than in `a` among the keys both hold ("" when none).
inline std::string movedKey(const std::map<std::string, QRectF>& a, const std::map<std::string, QRectF>& b) {
    for (const auto& [k, r] : a)
        if (auto it = b.find(k); it != b.end() && it->second != r) return k;
    return {};
}

} // namespace tl::test
