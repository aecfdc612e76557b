#pragma once
// The QGraphicsScene of one position of the session: items for the visual
// graph at its layout, with the step's highlights. Items are kept by key and
// updated in place, so stepping touches only what changed.
#include "layout/GraphLayout.h"
#include "scene/Highlights.h"
#include "scene/SceneItems.h"

#include <QGraphicsScene>

#include <memory>
#include <unordered_map>

namespace tl {

class RectGrid;

class GraphScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit GraphScene(QObject* parent = nullptr);
    /// Removes the items quietly: ~QGraphicsScene would announce selection changes
    /// after this class is gone.
    ~GraphScene() override;

    /// Shows `vg` at `layout` with `highlights`; items of unchanged keys are reused.
    void setContent(std::shared_ptr<const VisualGraph> vg, const GraphLayout& layout, const Highlights& highlights);
    void clearContent();
    const VisualGraph* visualGraph() const { return m_vg.get(); }
    const GraphLayout& layout() const { return m_layout; }

    NodeItem* nodeItem(const std::string& key) const;
    /// The item showing engine node `id` (top level, or the chain / cluster holding it).
    QGraphicsItem* itemForNode(NodeId id) const;
    /// The item showing `ref` at any depth, or the nearest drawn node holding it
    /// (a collapsed Scan for a node of its body); null when none is drawn.
    QGraphicsItem* itemForRef(const NodeRef& ref) const;
    const std::vector<BadgeItem*>& badges() const { return m_badges; }
    BannerItem* banner() const { return m_banner; }
    /// The items by interned key (VNode::keyId, VEdge::keyId and its ranks).
    const std::unordered_map<int, EdgeItem*>& edgeItems() const { return m_edges; }
    const std::unordered_map<int, NodeItem*>& nodeItems() const { return m_nodes; }

    /// Selects the items of these engine nodes (no selectionChangedByUser signal).
    void selectNodes(const std::vector<NodeId>& ids);
    /// Selects the items of these nodes, body nodes included (no signal).
    void selectRefs(const std::vector<NodeRef>& refs);
    /// Outer engine nodes of the selected items.
    std::vector<NodeId> selectedNodes() const;
    /// Every node of the selected items by path (a chain: its members), body nodes included.
    std::vector<NodeRef> selectedRefs() const;
    /// Whether the banner is drawn in the scene (the window shows it above the canvas;
    /// exports draw it in the picture). On by default.
    void setBannerShown(bool on);
    bool bannerShown() const { return m_bannerShown; }
    /// The scene rect of everything the highlights mark: added, erased, changed, rewired, badges.
    QRectF highlightedRect() const;

    /// Marks nodes whose title, key or id matches `text` (case-insensitive; "#17" or "17" for ids);
    /// returns their visual indices in reading order. Empty text clears.
    std::vector<int> search(const QString& text);
    /// The rect of the graph (without the banner).
    QRectF graphRect() const { return m_layout.bounds; }

signals:
    /// The user (not selectNodes / selectRefs) changed the selection.
    void selectionChangedByUser(std::vector<NodeRef> nodes);
    /// A cluster or collapsible node was double-clicked.
    void toggleExpansion(QString key);

protected:
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

private:
    /// Places the step's badges where they cover nothing in `taken` (the boxes and
    /// frame titles to begin with), adding each.
    void placeBadges(const Highlights& h, RectGrid& taken);
    /// Places the labels of `touched` edges (and of kept edges whose label a
    /// change now covers) around the labels kept where they were, and what is in
    /// `taken` (the boxes, titles and badges).
    void placeLabels(const std::vector<char>& touched, RectGrid& taken);
    /// The boxes and frame titles every badge and label avoids, on a grid.
    RectGrid boxObstacles() const;
    std::shared_ptr<const VisualGraph> m_vg;
    GraphLayout m_layout;
    std::unordered_map<int, NodeItem*> m_nodes;
    std::unordered_map<int, ClusterItem*> m_clusters;
    std::unordered_map<int, EdgeItem*> m_edges;
    std::vector<EdgeItem*> m_edgeOrder;  // the item of each edge of m_vg, by index
    std::vector<BadgeItem*> m_badges;
    BannerItem* m_banner = nullptr;
    bool m_bannerShown = true;
    Highlights m_highlights;
    std::unordered_set<int> m_searchHits;
    bool m_selecting = false;
    unsigned m_mark = 0;  // the picture on screen (SceneItems' sceneMark)
};

} // namespace tl
