#pragma once
// The items of the canvas. Each paints itself from a few flags so the same
// scene renders on screen, into PNG and through QSvgGenerator into SVG: the
// export is what the user sees.
#include "layout/VisualGraph.h"

#include <QGraphicsItem>
#include <QPainterPath>

#include <optional>

namespace tl {

enum SceneItemType { kNodeItemType = QGraphicsItem::UserType + 1, kEdgeItemType, kClusterItemType, kBadgeItemType, kBannerItemType };

/// One op, input, constant, output marker, chain or ghost.
class NodeItem : public QGraphicsItem {
public:
    /// GraphScene's: the picture that last drew this item (the others are dropped).
    unsigned sceneMark = 0;
    explicit NodeItem(const VNode& node);
    int type() const override { return kNodeItemType; }
    /// New text/kind and a rect in scene coordinates.
    void setNode(const VNode& node, const QRectF& rect);
    const VNode& node() const { return m_node; }
    QRectF boxRect() const { return QRectF(pos(), m_size); }

    enum Flag : uint8_t { Added = 1, Ghost = 2, OpChanged = 4, SearchHit = 8, Fused = 16 };
    void setFlags(uint8_t flags);
    uint8_t highlightFlags() const { return m_flags; }

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    bool isRound() const;
    VNode m_node;
    QSizeF m_size;
    uint8_t m_flags = 0;
};

/// An edge with its arrowhead, "dtype shape" label and inner<->outer category.
class EdgeItem : public QGraphicsItem {
public:
    /// GraphScene's: the picture that last drew this item (the others are dropped).
    unsigned sceneMark = 0;
    EdgeItem();
    int type() const override { return kEdgeItemType; }
    /// Returns whether anything changed (the route or a text).
    bool setEdge(const QPainterPath& path, const QString& label, const QString& link);
    enum Style : uint8_t { Normal, Rewired, ToGhost };
    void setStyle(Style s);
    Style style() const { return m_style; }
    const QPainterPath& path() const { return m_path; }
    const QString& label() const { return m_label; }
    const QString& link() const { return m_link; }
    /// Where the labels go (scene coordinates of the text's baseline start); a
    /// label left without room is not drawn (placed by GraphScene so none collide).
    void placeLabels(std::optional<QPointF> label, std::optional<QPointF> link);
    /// The rects the labels take when drawn at these baseline positions.
    static QRectF labelRectAt(const QString& text, QPointF baseline, bool bold);
    /// labelRectAt of this edge's own label / link text, from sizes measured once
    /// when the text was set (measuring text is most of placing thousands of labels).
    QRectF ownLabelRectAt(QPointF baseline) const { return m_labelBox.translated(baseline); }
    QRectF ownLinkRectAt(QPointF baseline) const { return m_linkBox.translated(baseline); }
    double labelWidth() const { return m_labelBox.width() - 4; }
    double linkWidth() const { return m_linkBox.width() - 4; }
    std::optional<QRectF> labelRect() const;
    std::optional<QRectF> linkRect() const;

    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    void recomputeBounds();
    QPainterPath m_path;
    QString m_label, m_link;
    QPointF m_labelPos, m_linkPos;
    QRectF m_labelBox, m_linkBox;  // labelRectAt(text, origin) of each text
    bool m_showLabel = true, m_showLink = true;
    QPolygonF m_arrow;
    QRectF m_bounds;
    Style m_style = Normal;
};

/// The frame of an expanded Scan / Composite body; double-click collapses it.
class ClusterItem : public QGraphicsItem {
public:
    /// GraphScene's: the picture that last drew this item (the others are dropped).
    unsigned sceneMark = 0;
    explicit ClusterItem(const VNode& node);
    int type() const override { return kClusterItemType; }
    void setNode(const VNode& node, const QRectF& rect);
    const VNode& node() const { return m_node; }
    QRectF frameRect() const { return QRectF(pos(), m_size); }
    void setFlags(uint8_t nodeItemFlags);
    QRectF boundingRect() const override;
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    VNode m_node;
    QSizeF m_size;
    uint8_t m_flags = 0;
};

/// A label stuck to a node: the buffer badge "sit_sot-0: (11, 7) → (1, 7)" or
/// "sit_sot-1 merged into sit_sot-0".
class BadgeItem : public QGraphicsItem {
public:
    enum Kind : uint8_t { Shape, Merged, Fused, Fact };
    BadgeItem(Kind kind, const QString& text, const QString& tooltip);
    int type() const override { return kBadgeItemType; }
    Kind kind() const { return m_kind; }
    const QString& text() const { return m_text; }
    QRectF boundingRect() const override { return m_rect; }
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    Kind m_kind;
    QString m_text;
    QRectF m_rect;
};

/// Paints the banner: `lines` (the first bold) and, with `legend`, the colour key
/// under them; the window's header strip and the exported banner look alike.
void paintBanner(QPainter* p, const QRectF& rect, const QStringList& lines, bool legend);
/// The size paintBanner needs.
QSizeF bannerSize(const QStringList& lines, bool legend);

/// The step title, buffer bytes before -> after and a colour legend, above the graph.
class BannerItem : public QGraphicsItem {
public:
    BannerItem(const QStringList& lines, bool legend);
    int type() const override { return kBannerItemType; }
    QRectF boundingRect() const override { return m_rect; }
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    const QStringList& lines() const { return m_lines; }

private:
    QStringList m_lines;
    bool m_legend;
    QRectF m_rect;
};

} // namespace tl
