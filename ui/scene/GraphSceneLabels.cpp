// Where the scene puts what is written beside things: badges next to their node
// and edge labels along their edge, each where it covers no box, no frame title
// and no other label (`float64 (7,8 (1,)` was two labels on top of each other).
// A label that finds no free spot is left out rather than drawn over another.
#include "scene/GraphScene.h"
#include "scene/RectGrid.h"

#include <QFontMetricsF>

#include <algorithm>

namespace tl {

RectGrid GraphScene::boxObstacles() const {
    // Built once a step for badges and labels both (a grid of every box).
    RectGrid grid;
    const VisualGraph& g = *m_vg;
    for (size_t i = 0; i < g.nodes.size() && i < m_layout.rects.size(); ++i) {
        const QRectF& r = m_layout.rects[i];
        if (g.nodes[i].kind == VNode::Kind::Cluster) grid.add(QRectF(r.left(), r.top(), r.width(), clusterHeader(g.nodes[i]) - kLinkLabelRoom));
        else grid.add(r.adjusted(-2, -2, 2, 2));
    }
    return grid;
}

void GraphScene::placeBadges(const Highlights& h, RectGrid& taken) {
    const VisualGraph& g = *m_vg;
    // Several badges of one node stack; each stack goes right of its node, else
    // left, above or below, wherever it covers nothing.
    std::unordered_map<int, std::vector<BadgeItem*>> byNode;
    std::vector<int> order;
    for (const Highlights::Badge& b : h.badges) {
        if (b.node < 0 || b.node >= static_cast<int>(g.nodes.size())) continue;
        auto* item = new BadgeItem(BadgeItem::Kind(b.kind), b.text, b.tooltip);
        addItem(item);
        if (!byNode.count(b.node)) order.push_back(b.node);
        byNode[b.node].push_back(item);
        m_badges.push_back(item);
    }
    for (int node : order) {
        const auto& items = byNode[node];
        double w = 0, hsum = 0;
        for (BadgeItem* b : items) {
            w = std::max(w, b->boundingRect().width());
            hsum += b->boundingRect().height() + 4;
        }
        const QRectF r = m_layout.rects[node];
        const bool frame = g.nodes[node].kind == VNode::Kind::Cluster;
        const double top = r.top() + (frame ? 2 : -4);
        const QPointF candidates[] = {{r.right() + 10, top},
                                      {r.left() - 10 - w, top},
                                      {r.center().x() - w / 2, r.top() - 6 - hsum},
                                      {r.center().x() - w / 2, r.bottom() + 6},
                                      {r.right() + 10, r.bottom() - hsum}};
        QPointF at = candidates[0];
        for (const QPointF& c : candidates)
            if (taken.free(QRectF(c, QSizeF(w, hsum)))) {
                at = c;
                break;
            }
        taken.add(QRectF(at, QSizeF(w, hsum)));
        double y = at.y();
        for (BadgeItem* b : items) {
            b->setPos(at.x(), y);
            y += b->boundingRect().height() + 4;
        }
    }
}

void GraphScene::placeLabels(const std::vector<char>& touched, RectGrid& taken) {
    // A step moves a handful of boxes: every other label stays where it was, as
    // long as what the step drew does not cover it (labels placed before never
    // cover each other). The rest are placed around them.
    std::vector<EdgeItem*> items;
    for (size_t e = 0; e < m_edgeOrder.size(); ++e) {
        EdgeItem* item = m_edgeOrder[e];
        if (!item) continue;
        bool keep = e < touched.size() && !touched[e];
        const std::optional<QRectF> label = keep ? item->labelRect() : std::nullopt;
        const std::optional<QRectF> link = keep ? item->linkRect() : std::nullopt;
        // A label left out for want of room may find some now: placed again.
        if (keep && !item->label().isEmpty() && !label) keep = false;
        if (keep && !item->link().isEmpty() && !link) keep = false;
        if (keep && label && !taken.free(*label)) keep = false;
        if (keep && link && !taken.free(*link)) keep = false;
        if (!keep) {
            items.push_back(item);
            continue;
        }
        if (label) taken.add(*label);
        if (link) taken.add(*link);
    }
    // Many edges: the middle only (walking every curve for its length costs more
    // than the picture gains at the zoom where thousands of edges are visible).
    const bool few = m_edgeOrder.size() < 1500;
    // Links first (they name the loop's categories), then the rest, in a fixed order.
    std::sort(items.begin(), items.end(), [](EdgeItem* a, EdgeItem* b) {
        if (a->link().isEmpty() != b->link().isEmpty()) return !a->link().isEmpty();
        const QPointF pa = a->path().currentPosition(), pb = b->path().currentPosition();
        return pa.y() != pb.y() ? pa.y() < pb.y() : pa.x() < pb.x();
    });
    const double ascent = QFontMetricsF(canvasSmallFont()).ascent();
    for (EdgeItem* e : items) {
        const QPainterPath& path = e->path();
        if (path.isEmpty()) {
            e->placeLabels(std::nullopt, std::nullopt);
            continue;
        }
        std::optional<QPointF> link;
        if (!e->link().isEmpty()) {
            // Up the last stretch before the arrow: the gap under the frame's header.
            const QPointF tip = path.currentPosition();
            for (double up : {9.0, 20.0, 32.0, 44.0}) {
                for (double side : {5.0, -5.0}) {
                    QPointF at = tip + QPointF(side, -up);
                    if (side < 0) at.rx() -= e->ownLinkRectAt(QPointF()).width();
                    if (taken.free(e->ownLinkRectAt(at))) {
                        link = at;
                        break;
                    }
                }
                if (link) break;
            }
            // A link always says what it is: on top of the edge when nothing else is free.
            if (!link) link = tip + QPointF(5, -9);
            taken.add(e->ownLinkRectAt(*link));
        }
        std::optional<QPointF> label;
        if (!e->label().isEmpty()) {
            const double width = e->labelWidth();
            std::vector<QPointF> along;
            if (few)
                for (double t : {0.5, 0.38, 0.62, 0.26, 0.74}) along.push_back(path.pointAtPercent(t));
            else
                along.push_back(path.boundingRect().center());
            for (const QPointF& p : along) {
                for (double side : {5.0, -5.0 - width}) {
                    const QPointF at = p + QPointF(side, ascent / 2);
                    if (taken.free(e->ownLabelRectAt(at))) {
                        label = at;
                        break;
                    }
                }
                if (label) break;
            }
            if (label) taken.add(e->ownLabelRectAt(*label));
        }
        e->placeLabels(label, link);
    }
}

} // namespace tl
