#include "scene/GraphScene.h"
#include "scene/RectGrid.h"

#include <QGraphicsSceneMouseEvent>
#include <QThreadPool>

#include <algorithm>
#include <utility>

namespace tl {

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent) {
    setBackgroundBrush(Qt::white);
    // No BSP index: a step adds, moves and re-labels a few items of thousands,
    // and keeping the index current for them cost more than the linear walk
    // over the items a paint or a click makes.
    setItemIndexMethod(QGraphicsScene::NoIndex);
    connect(this, &QGraphicsScene::selectionChanged, this, [this] {
        if (!m_selecting) emit selectionChangedByUser(selectedRefs());
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
    m_edgeOrder.clear();
    m_badges.clear();
    m_banner = nullptr;
    m_vg.reset();
    m_layout = GraphLayout{};
}

void GraphScene::setContent(std::shared_ptr<const VisualGraph> vg, const GraphLayout& layout, const Highlights& h) {
    m_selecting = true;
    const std::vector<NodeRef> keepSelected = selectedRefs();
    // The picture replaced: freed once the items no longer point into it, off this thread.
    std::shared_ptr<const VisualGraph> replaced = std::exchange(m_vg, std::move(vg));
    m_highlights = h;
    m_layout = layout;
    m_searchHits.clear();
    const VisualGraph& g = *m_vg;

    // Nodes and clusters: update in place, create what is new, drop what vanished.
    // The maps are kept from picture to picture (one lookup per node; a key is
    // copied only when new) and each item is marked with the picture drawing it.
    const unsigned mark = ++m_mark;
    // Nodes new to the scene or drawn elsewhere: the labels around them are placed again.
    std::vector<char> moved(g.nodes.size(), 0);
    for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
        const VNode& n = g.nodes[i];
        uint8_t flags = 0;
        if (h.added.count(i)) flags |= NodeItem::Added;
        if (h.ghosts.count(i)) flags |= NodeItem::Ghost;
        if (h.opChanged.count(i)) flags |= NodeItem::OpChanged;
        if (h.fused.count(i)) flags |= NodeItem::Fused;
        if (n.kind == VNode::Kind::Cluster) {
            auto [it, fresh] = m_clusters.try_emplace(n.keyId, nullptr);
            if (fresh) {
                it->second = new ClusterItem(n);
                addItem(it->second);
                moved[i] = 1;
            }
            ClusterItem* item = it->second;
            item->sceneMark = mark;
            if (!moved[i] && item->frameRect() != layout.rects[i]) moved[i] = 1;
            item->setNode(n, layout.rects[i]);
            item->setFlags(flags);
            continue;
        }
        auto [it, fresh] = m_nodes.try_emplace(n.keyId, nullptr);
        if (fresh) {
            it->second = new NodeItem(n);
            addItem(it->second);
            moved[i] = 1;
        }
        NodeItem* item = it->second;
        item->sceneMark = mark;
        if (!moved[i] && item->boxRect() != layout.rects[i]) moved[i] = 1;
        item->setNode(n, layout.rects[i]);
        item->setFlags(flags);
        // Every drawn node can be inspected, body nodes included; ghosts and
        // placeholders stand for no node of this graph.
        const bool selectable = n.kind == VNode::Kind::Op || n.kind == VNode::Kind::Chain || n.kind == VNode::Kind::Input ||
                                n.kind == VNode::Kind::Constant || n.kind == VNode::Kind::Output;
        item->setFlag(QGraphicsItem::ItemIsSelectable, selectable);
    }
    auto dropUnmarked = [mark](auto& items) {
        std::erase_if(items, [mark](const auto& kv) {
            if (kv.second->sceneMark == mark) return false;
            delete kv.second;
            return true;
        });
    };
    dropUnmarked(m_nodes);
    dropUnmarked(m_clusters);

    std::vector<char> changedEdge(g.edges.size(), 0);
    m_edgeOrder.assign(g.edges.size(), nullptr);
    for (int e = 0; e < static_cast<int>(g.edges.size()); ++e) {
        const VEdge& ve = g.edges[e];
        auto [it, fresh] = m_edges.try_emplace(edgeKeyId(ve), nullptr);
        // The same variable twice into one node (x + x): the second item keyed by
        // its rank among them (not by the edge's index, which every step shifts).
        if (!fresh && it->second->sceneMark == mark)
            for (int rank = 2;; ++rank) {
                const int ranked = edgeKeyIdOf(g.nodes[ve.from].keyId, g.nodes[ve.to].keyId, ve.var, rank);
                std::tie(it, fresh) = m_edges.try_emplace(ranked, nullptr);
                if (fresh || it->second->sceneMark != mark) break;
            }
        if (fresh) {
            it->second = new EdgeItem;
            addItem(it->second);
            changedEdge[e] = 1;
        }
        EdgeItem* item = it->second;
        item->sceneMark = mark;
        // Constants and inputs sit right above their reader: their label would repeat the node's.
        const VNode::Kind fromKind = g.nodes[ve.from].kind;
        const bool quiet = fromKind == VNode::Kind::Constant || fromKind == VNode::Kind::Input;
        if (item->setEdge(layout.paths[e], quiet ? QString() : QString::fromStdString(ve.label), QString::fromStdString(ve.link))) changedEdge[e] = 1;
        m_edgeOrder[e] = item;
        EdgeItem::Style style = EdgeItem::Normal;
        if (h.rewiredEdges.count(e)) style = EdgeItem::Rewired;
        else if (h.ghosts.count(ve.to) || h.ghosts.count(ve.from)) style = EdgeItem::ToGhost;
        item->setStyle(style);
    }
    dropUnmarked(m_edges);

    for (BadgeItem* b : m_badges) delete b;
    m_badges.clear();
    delete m_banner;
    m_banner = nullptr;
    RectGrid taken = boxObstacles();
    placeBadges(h, taken);
    // What the step touched: changed edges, nodes new or moved, and the edges
    // at the ends of either (their labels compete for the same room).
    std::vector<char> touchedNode = std::move(moved);
    for (size_t e = 0; e < g.edges.size(); ++e)
        if (changedEdge[e]) touchedNode[g.edges[e].from] = touchedNode[g.edges[e].to] = 1;
    std::vector<char> touched(g.edges.size(), 0);
    for (size_t e = 0; e < g.edges.size(); ++e) touched[e] = changedEdge[e] || touchedNode[g.edges[e].from] || touchedNode[g.edges[e].to];
    placeLabels(touched, taken);
    if (!h.banner.isEmpty()) {
        m_banner = new BannerItem(h.banner, true);
        addItem(m_banner);
        m_banner->setPos(layout.bounds.left(), layout.bounds.top() - m_banner->boundingRect().height() - 24);
        m_banner->setVisible(m_bannerShown);
    }
    QRectF all = layout.bounds;
    if (m_banner && m_bannerShown) all = all.united(m_banner->mapRectToScene(m_banner->boundingRect()));
    for (BadgeItem* b : m_badges) all = all.united(b->mapRectToScene(b->boundingRect()));
    for (const EdgeItem* e : m_edgeOrder) all = all.united(e->sceneBoundingRect());
    setSceneRect(all.adjusted(-40, -40, 40, 40));
    selectRefs(keepSelected);
    m_selecting = false;
    // Thousands of nodes' strings: freeing them took a tenth of a step.
    // (The pool's task gets the only reference: a copy left here could be the last.)
    if (replaced.use_count() == 1) {
        auto* last = new std::shared_ptr<const VisualGraph>(std::move(replaced));
        QThreadPool::globalInstance()->start([last] { delete last; });
    }
}

void GraphScene::setBannerShown(bool on) {
    if (on == m_bannerShown) return;
    m_bannerShown = on;
    if (!m_banner) return;
    m_banner->setVisible(on);
    QRectF all = m_layout.bounds;
    if (on) all = all.united(m_banner->mapRectToScene(m_banner->boundingRect()));
    for (BadgeItem* b : m_badges) all = all.united(b->mapRectToScene(b->boundingRect()));
    for (const auto& [k, e] : m_edges) all = all.united(e->sceneBoundingRect());
    setSceneRect(all.adjusted(-40, -40, 40, 40));
}

QRectF GraphScene::highlightedRect() const {
    QRectF r;
    if (!m_vg) return r;
    auto node = [&](int i) {
        if (i >= 0 && i < static_cast<int>(m_layout.rects.size())) r = r.united(m_layout.rects[i]);
    };
    for (int i : m_highlights.added) node(i);
    for (int i : m_highlights.ghosts) node(i);
    for (int i : m_highlights.opChanged) node(i);
    for (int e : m_highlights.rewiredEdges)
        if (e >= 0 && e < static_cast<int>(m_layout.paths.size())) r = r.united(m_layout.paths[e].boundingRect());
    for (BadgeItem* b : m_badges) r = r.united(b->sceneBoundingRect());
    return r;
}

NodeItem* GraphScene::nodeItem(const std::string& key) const {
    auto it = m_nodes.find(findKeyId(key));
    return it == m_nodes.end() ? nullptr : it->second;
}

QGraphicsItem* GraphScene::itemForNode(NodeId id) const {
    if (!m_vg) return nullptr;
    const int v = m_vg->indexOfNode(id);
    if (v < 0) return nullptr;
    const int key = m_vg->nodes[v].keyId;
    if (auto it = m_nodes.find(key); it != m_nodes.end()) return it->second;
    if (auto it = m_clusters.find(key); it != m_clusters.end()) return it->second;
    return nullptr;
}

QGraphicsItem* GraphScene::itemForRef(const NodeRef& ref) const {
    if (!m_vg || !ref.valid()) return nullptr;
    if (ref.isOuter()) return itemForNode(ref.leaf());
    const int v = m_vg->indexOfRefOrOwner(ref);
    if (v < 0) return nullptr;
    const int key = m_vg->nodes[v].keyId;
    if (auto it = m_nodes.find(key); it != m_nodes.end()) return it->second;
    if (auto it = m_clusters.find(key); it != m_clusters.end()) return it->second;
    return nullptr;
}

void GraphScene::selectNodes(const std::vector<NodeId>& ids) { selectRefs(outerRefs(ids)); }

void GraphScene::selectRefs(const std::vector<NodeRef>& refs) {
    const bool was = m_selecting;
    m_selecting = true;
    clearSelection();
    for (const NodeRef& r : refs)
        if (QGraphicsItem* it = itemForRef(r)) it->setSelected(true);
    m_selecting = was;
}

std::vector<NodeRef> GraphScene::selectedRefs() const {
    std::vector<NodeRef> out;
    for (QGraphicsItem* it : selectedItems()) {
        const VNode* v = nullptr;
        if (auto* n = dynamic_cast<NodeItem*>(it)) v = &n->node();
        else if (auto* c = dynamic_cast<ClusterItem*>(it)) v = &c->node();
        if (!v || !v->ref.valid()) continue;
        if (v->kind == VNode::Kind::Chain) {
            const NodeRef owner = v->ref.parent();
            for (NodeId m : v->members) out.push_back(owner.valid() ? owner.child(m) : NodeRef::outer(m));
        } else if (v->kind != VNode::Kind::Ghost) {
            out.push_back(v->ref);
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<NodeId> GraphScene::selectedNodes() const {
    std::vector<NodeId> out;
    for (const NodeRef& r : selectedRefs())
        if (r.isOuter()) out.push_back(r.leaf());  // body nodes have ids of their body
    return out;
}

std::vector<int> GraphScene::search(const QString& text) {
    for (int i : m_searchHits)
        if (auto* item = nodeItem(m_vg->nodes[i].key)) item->setFlags(item->highlightFlags() & ~NodeItem::SearchHit);
    m_searchHits.clear();
    std::vector<int> hits;
    if (!m_vg || text.trimmed().isEmpty()) return hits;
    const QString t = text.trimmed();
    // "#17" is outer node 17; "#4/#2" (or "4/2") node 2 of the body of node 4: a
    // body's own ids never match an outer id.
    std::vector<NodeId> path;
    bool isId = true;
    for (QString part : t.split('/', Qt::SkipEmptyParts)) {
        part = part.trimmed();
        if (part.startsWith('#')) part = part.mid(1);
        bool ok = false;
        const qlonglong v = part.toLongLong(&ok);
        if (!ok) {
            isId = false;
            break;
        }
        path.push_back(v);
    }
    isId = isId && !path.empty();
    const NodeRef wanted(path);
    for (int i = 0; i < static_cast<int>(m_vg->nodes.size()); ++i) {
        const VNode& n = m_vg->nodes[i];
        bool match = false;
        if (isId) {
            if (n.kind == VNode::Kind::Op || n.kind == VNode::Kind::Cluster) match = n.ref == wanted;
            if (n.kind == VNode::Kind::Chain) {
                const NodeRef owner = n.ref.parent();
                for (NodeId m : n.members) match = match || (owner.valid() ? owner.child(m) : NodeRef::outer(m)) == wanted;
            }
        } else {
            match = n.kind != VNode::Kind::Ghost && (QString::fromStdString(n.title).contains(t, Qt::CaseInsensitive) ||
                                                     QString::fromStdString(n.subtitle).contains(t, Qt::CaseInsensitive));
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
