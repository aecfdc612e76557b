#include "scene/GraphScene.h"

#include <QGraphicsSceneMouseEvent>

#include <algorithm>

namespace tl {

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent) {
    setBackgroundBrush(Qt::white);
    connect(this, &QGraphicsScene::selectionChanged, this, [this] {
        if (!m_selecting) emit selectionChangedByUser(selectedNodes());
    });
}

GraphScene::~GraphScene() {
    m_selecting = true;
    blockSignals(true);
    clear();
}

void GraphScene::clearContent() {
    m_selecting = true;
    clear();
    m_selecting = false;
    m_nodes.clear();
    m_clusters.clear();
    m_edges.clear();
    m_badges.clear();
    m_banner = nullptr;
    m_vg.reset();
    m_layout = GraphLayout{};
}

void GraphScene::setContent(std::shared_ptr<const VisualGraph> vg, const GraphLayout& layout, const Highlights& h) {
    m_selecting = true;
    const std::vector<NodeId> keepSelected = selectedNodes();
    m_vg = std::move(vg);
    m_layout = layout;
    m_searchHits.clear();
    const VisualGraph& g = *m_vg;

    // Nodes and clusters: update in place, create what is new, drop what vanished.
    std::unordered_map<std::string, NodeItem*> nodes;
    std::unordered_map<std::string, ClusterItem*> clusters;
    nodes.reserve(g.nodes.size());
    for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
        const VNode& n = g.nodes[i];
        uint8_t flags = 0;
        if (h.added.count(i)) flags |= NodeItem::Added;
        if (h.ghosts.count(i)) flags |= NodeItem::Ghost;
        if (h.opChanged.count(i)) flags |= NodeItem::OpChanged;
        if (h.fused.count(i)) flags |= NodeItem::Fused;
        if (n.kind == VNode::Kind::Cluster) {
            ClusterItem* item;
            if (auto it = m_clusters.find(n.key); it != m_clusters.end()) {
                item = it->second;
                m_clusters.erase(it);
            } else {
                item = new ClusterItem(n);
                addItem(item);
            }
            item->setNode(n, layout.rects[i]);
            item->setFlags(flags);
            clusters[n.key] = item;
            continue;
        }
        NodeItem* item;
        if (auto it = m_nodes.find(n.key); it != m_nodes.end()) {
            item = it->second;
            m_nodes.erase(it);
        } else {
            item = new NodeItem(n);
            addItem(item);
        }
        item->setNode(n, layout.rects[i]);
        item->setFlags(flags);
        item->setFlag(QGraphicsItem::ItemIsSelectable, n.kind != VNode::Kind::Ghost);
        nodes[n.key] = item;
    }
    for (auto& [k, item] : m_nodes) delete item;
    for (auto& [k, item] : m_clusters) delete item;
    m_nodes = std::move(nodes);
    m_clusters = std::move(clusters);

    std::unordered_map<std::string, EdgeItem*> edges;
    edges.reserve(g.edges.size());
    for (int e = 0; e < static_cast<int>(g.edges.size()); ++e) {
        const VEdge& ve = g.edges[e];
        std::string key = edgeKey(g, ve);
        EdgeItem* item;
        if (auto it = m_edges.find(key); it != m_edges.end()) {
            item = it->second;
            m_edges.erase(it);
        } else if (auto dup = edges.find(key); dup != edges.end()) {
            // The same variable twice into one node (x + x): a second item with its own key.
            key += "#" + std::to_string(e);
            item = new EdgeItem;
            addItem(item);
        } else {
            item = new EdgeItem;
            addItem(item);
        }
        // Constants and inputs sit right above their reader: their label would repeat the node's.
        const VNode::Kind fromKind = g.nodes[ve.from].kind;
        const bool quiet = fromKind == VNode::Kind::Constant || fromKind == VNode::Kind::Input;
        item->setEdge(layout.paths[e], quiet ? QString() : QString::fromStdString(ve.label), QString::fromStdString(ve.link));
        EdgeItem::Style style = EdgeItem::Normal;
        if (h.rewiredEdges.count(e)) style = EdgeItem::Rewired;
        else if (h.ghosts.count(ve.to) || h.ghosts.count(ve.from)) style = EdgeItem::ToGhost;
        item->setStyle(style);
        edges[key] = item;
    }
    for (auto& [k, item] : m_edges) delete item;
    m_edges = std::move(edges);

    for (BadgeItem* b : m_badges) delete b;
    m_badges.clear();
    delete m_banner;
    m_banner = nullptr;
    placeBadges(h);
    if (!h.banner.isEmpty()) {
        m_banner = new BannerItem(h.banner, true);
        addItem(m_banner);
        m_banner->setPos(layout.bounds.left(), layout.bounds.top() - m_banner->boundingRect().height() - 24);
    }
    QRectF all = layout.bounds;
    if (m_banner) all = all.united(m_banner->mapRectToScene(m_banner->boundingRect()));
    for (BadgeItem* b : m_badges) all = all.united(b->mapRectToScene(b->boundingRect()));
    setSceneRect(all.adjusted(-40, -40, 40, 40));
    selectNodes(keepSelected);
    m_selecting = false;
}

void GraphScene::placeBadges(const Highlights& h) {
    const VisualGraph& g = *m_vg;
    // Badges of one node stack downward from its right edge, so several never overlap.
    std::unordered_map<int, double> nextY;
    for (const Highlights::Badge& b : h.badges) {
        if (b.node < 0 || b.node >= static_cast<int>(g.nodes.size())) continue;
        auto* item = new BadgeItem(BadgeItem::Kind(b.kind), b.text, b.tooltip);
        addItem(item);
        const QRectF r = m_layout.rects[b.node];
        // Right of the box (an expanded Scan's right edge too), stacked downward.
        double& y = nextY.try_emplace(b.node, r.top() + (g.nodes[b.node].kind == VNode::Kind::Cluster ? 2 : -4)).first->second;
        const QPointF at(r.right() + 10, y);
        y += item->boundingRect().height() + 4;
        item->setPos(at);
        m_badges.push_back(item);
    }
}

NodeItem* GraphScene::nodeItem(const std::string& key) const {
    auto it = m_nodes.find(key);
    return it == m_nodes.end() ? nullptr : it->second;
}

QGraphicsItem* GraphScene::itemForNode(NodeId id) const {
    if (!m_vg) return nullptr;
    const int v = m_vg->indexOfNode(id);
    if (v < 0) return nullptr;
    const std::string& key = m_vg->nodes[v].key;
    if (auto it = m_nodes.find(key); it != m_nodes.end()) return it->second;
    if (auto it = m_clusters.find(key); it != m_clusters.end()) return it->second;
    return nullptr;
}

void GraphScene::selectNodes(const std::vector<NodeId>& ids) {
    const bool was = m_selecting;
    m_selecting = true;
    clearSelection();
    for (NodeId id : ids)
        if (QGraphicsItem* it = itemForNode(id)) it->setSelected(true);
    m_selecting = was;
}

std::vector<NodeId> GraphScene::selectedNodes() const {
    std::vector<NodeId> out;
    for (QGraphicsItem* it : selectedItems()) {
        if (auto* n = dynamic_cast<NodeItem*>(it)) {
            if (n->node().parent != -1) continue;  // body nodes have ids of the inner graph
            if (n->node().kind == VNode::Kind::Chain) out.insert(out.end(), n->node().members.begin(), n->node().members.end());
            else if (n->node().node >= 0) out.push_back(n->node().node);
        } else if (auto* c = dynamic_cast<ClusterItem*>(it)) {
            if (c->node().parent == -1) out.push_back(c->node().node);
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<int> GraphScene::search(const QString& text) {
    for (int i : m_searchHits)
        if (auto* item = nodeItem(m_vg->nodes[i].key)) item->setFlags(item->highlightFlags() & ~NodeItem::SearchHit);
    m_searchHits.clear();
    std::vector<int> hits;
    if (!m_vg || text.trimmed().isEmpty()) return hits;
    const QString t = text.trimmed();
    bool isId = false;
    QString digits = t.startsWith('#') ? t.mid(1) : t;
    const qlonglong id = digits.toLongLong(&isId);
    for (int i = 0; i < static_cast<int>(m_vg->nodes.size()); ++i) {
        const VNode& n = m_vg->nodes[i];
        bool match = false;
        if (isId) {
            match = n.node == id && n.parent == -1 && n.kind != VNode::Kind::Input && n.kind != VNode::Kind::Constant;
            if (n.kind == VNode::Kind::Chain) match = std::find(n.members.begin(), n.members.end(), id) != n.members.end();
        } else {
            match = QString::fromStdString(n.title).contains(t, Qt::CaseInsensitive) ||
                    QString::fromStdString(n.subtitle).contains(t, Qt::CaseInsensitive);
        }
        if (match) hits.push_back(i);
    }
    std::sort(hits.begin(), hits.end(), [&](int a, int b) {
        const QRectF& ra = m_layout.rects[a];
        const QRectF& rb = m_layout.rects[b];
        return ra.top() != rb.top() ? ra.top() < rb.top() : ra.left() < rb.left();
    });
    for (int i : hits) {
        m_searchHits.insert(i);
        if (auto* item = nodeItem(m_vg->nodes[i].key)) item->setFlags(item->highlightFlags() | NodeItem::SearchHit);
    }
    return hits;
}

void GraphScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) {
    for (QGraphicsItem* it : items(event->scenePos())) {
        if (auto* c = dynamic_cast<ClusterItem*>(it)) {
            emit toggleExpansion(QString::fromStdString(c->node().key));
            event->accept();
            return;
        }
        if (auto* n = dynamic_cast<NodeItem*>(it)) {
            const VNode& v = n->node();
            if (v.kind == VNode::Kind::Chain || (v.kind == VNode::Kind::Op && v.family == OpFamily::Scan) ||
                (v.kind == VNode::Kind::Op && v.family == OpFamily::Composite)) {
                emit toggleExpansion(QString::fromStdString(v.key));
                event->accept();
                return;
            }
        }
    }
    QGraphicsScene::mouseDoubleClickEvent(event);
}

} // namespace tl
