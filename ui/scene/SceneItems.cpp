#include "scene/SceneItems.h"

#include "scene/Palette.h"

#include <QFontMetricsF>
#include <QPaintEngine>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <cmath>
#include <vector>

namespace tl {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

// Below this zoom text is unreadable anyway; skipping it keeps big graphs fluid.
constexpr double kTextLod = 0.35;

double lodOf(const QStyleOptionGraphicsItem* option, QPainter* p) {
    return option ? option->levelOfDetailFromTransform(p->worldTransform()) : 1.0;
}
} // namespace

// ---- NodeItem ------------------------------------------------------------------

NodeItem::NodeItem(const VNode& node) : m_node(node) {
    setFlag(ItemIsSelectable, node.kind != VNode::Kind::Ghost);
    setAcceptHoverEvents(false);
    setZValue(node.kind == VNode::Kind::Ghost ? 1 : 2);
}

void NodeItem::setNode(const VNode& node, const QRectF& rect) {
    const bool textChanged = node.title != m_node.title || node.subtitle != m_node.subtitle || node.kind != m_node.kind;
    if (rect.size() != m_size) {
        prepareGeometryChange();
        m_size = rect.size();
    }
    if (pos() != rect.topLeft()) setPos(rect.topLeft());
    if (textChanged || m_node.key != node.key || m_node.tooltip != node.tooltip) {
        m_node = node;
        setToolTip(qs(node.tooltip.empty() ? node.title : node.tooltip) + (node.subtitle.empty() ? QString() : "\n" + qs(node.subtitle)));
        update();
    }
}

void NodeItem::setFlags(uint8_t flags) {
    if (flags == m_flags) return;
    m_flags = flags;
    setZValue((flags & Ghost) ? 1 : (flags ? 3 : 2));
    update();
}

bool NodeItem::isRound() const {
    switch (m_node.kind) {
    case VNode::Kind::Input:
    case VNode::Kind::Constant:
    case VNode::Kind::Output:
    case VNode::Kind::InnerInput:
    case VNode::Kind::InnerOutput: return true;
    default: return false;
    }
}

QRectF NodeItem::boundingRect() const { return QRectF(QPointF(0, 0), m_size).adjusted(-5, -5, 5, 5); }

QPainterPath NodeItem::shape() const {
    QPainterPath p;
    p.addRect(QRectF(QPointF(0, 0), m_size));
    return p;
}

void NodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
    const QRectF r(QPointF(0, 0), m_size);
    const bool ghost = m_flags & Ghost || m_node.kind == VNode::Kind::Ghost;
    QColor fill = palette::familyFill(m_node.family);
    if (m_flags & Added) fill = palette::addedFill();
    if (ghost) fill.setAlpha(90);
    QPen pen(palette::edge(), 1.0);
    if (m_flags & SearchHit) {
        // A soft halo behind the box, so a hit stays visible next to other highlights.
        p->setPen(Qt::NoPen);
        p->setBrush(palette::searchHit());
        p->drawRoundedRect(r.adjusted(-5, -5, 5, 5), 8, 8);
    }
    if (m_flags & Added) pen = QPen(palette::added(), 3.0);
    else if (m_flags & OpChanged) pen = QPen(palette::opChanged(), 2.5);
    if (ghost) pen = QPen(palette::ghost(), 1.6, Qt::DashLine);
    if (isSelected()) pen = QPen(palette::selection(), 3.0);
    p->setPen(pen);
    p->setBrush(fill);
    if (isRound()) p->drawEllipse(r);
    else if (m_node.kind == VNode::Kind::Chain) {
        // A stack of boxes: several ops drawn as one.
        p->drawRoundedRect(r.adjusted(4, -3, 4, -3), 5, 5);
        p->drawRoundedRect(r, 5, 5);
    } else p->drawRoundedRect(r, 5, 5);

    if (lodOf(option, p) < kTextLod) return;
    p->setPen(ghost ? palette::ghost() : palette::text());
    p->setFont(canvasTitleFont());
    const QFontMetricsF big(canvasTitleFont());
    const bool two = !m_node.subtitle.empty();
    const double h1 = big.height();
    const double top = two ? (r.height() - h1 - QFontMetricsF(canvasSmallFont()).height()) / 2 : (r.height() - h1) / 2;
    p->drawText(QRectF(0, top, r.width(), h1), Qt::AlignCenter, qs(m_node.title));
    if (two) {
        p->setFont(canvasSmallFont());
        p->setPen(ghost ? palette::ghost() : palette::subtleText());
        p->drawText(QRectF(0, top + h1, r.width(), QFontMetricsF(canvasSmallFont()).height()), Qt::AlignCenter, qs(m_node.subtitle));
    }
}

// ---- EdgeItem ------------------------------------------------------------------

// QPainterPath's length-based queries (pointAtPercent, length) walk every Bezier
// segment to measure it; over thousands of edges that was most of a first view.
// Edges only need the direction at the tip and a point near the middle.
namespace {

// Unit direction in which the path arrives at its end: from the last control or
// on-curve point that differs from the end (the last segment may be tiny).
QPointF endDirection(const QPainterPath& path) {
    const QPointF tip = path.currentPosition();
    for (int i = path.elementCount() - 2; i >= 0; --i) {
        const QPointF d = tip - QPointF(path.elementAt(i));
        const double len = std::hypot(d.x(), d.y());
        if (len > 1e-6) return d / len;
    }
    return QPointF(0, 1);
}

// The point halfway along the middle segment (exact for one cubic or line, the
// usual edge; near the middle for Graphviz's multi-segment splines).
QPointF middlePoint(const QPainterPath& path) {
    const int n = path.elementCount();
    if (n < 2) return path.currentPosition();
    // Segments start at on-curve elements: MoveTo/LineTo, or a CurveTo followed by two CurveToData.
    std::vector<int> starts;
    for (int i = 0; i < n - 1;) {
        starts.push_back(i);
        i += path.elementAt(i + 1).isCurveTo() ? 3 : 1;
    }
    const int i = starts[starts.size() / 2];
    const QPointF p0 = path.elementAt(i);
    if (i + 3 < n && path.elementAt(i + 1).isCurveTo()) {
        const QPointF c1 = path.elementAt(i + 1), c2 = path.elementAt(i + 2), p3 = path.elementAt(i + 3);
        return (p0 + 3 * c1 + 3 * c2 + p3) / 8;
    }
    return (p0 + QPointF(path.elementAt(std::min(i + 1, n - 1)))) / 2;
}

} // namespace

EdgeItem::EdgeItem() { setZValue(0); }

bool EdgeItem::setEdge(const QPainterPath& path, const QString& label, const QString& link) {
    if (path == m_path && label == m_label && link == m_link) return false;
    prepareGeometryChange();
    m_path = path;
    if (label != m_label || m_labelBox.isNull()) m_labelBox = labelRectAt(label, QPointF(), false);
    if (link != m_link || m_linkBox.isNull()) m_linkBox = labelRectAt(link, QPointF(), true);
    m_label = label;
    m_link = link;
    recomputeBounds();
    update();
    return true;
}

void EdgeItem::setStyle(Style s) {
    if (s == m_style) return;
    m_style = s;
    setZValue(s == Rewired ? 1.5 : 0);
    update();
}

QRectF EdgeItem::labelRectAt(const QString& text, QPointF baseline, bool bold) {
    QFont f = canvasSmallFont();
    f.setBold(bold);
    const QFontMetricsF fm(f);
    return QRectF(baseline + QPointF(-2, -fm.ascent() - 1), QSizeF(fm.horizontalAdvance(text) + 4, fm.height() + 1));
}

std::optional<QRectF> EdgeItem::labelRect() const {
    if (m_label.isEmpty() || !m_showLabel) return std::nullopt;
    return ownLabelRectAt(m_labelPos);
}

std::optional<QRectF> EdgeItem::linkRect() const {
    if (m_link.isEmpty() || !m_showLink) return std::nullopt;
    return ownLinkRectAt(m_linkPos);
}

void EdgeItem::placeLabels(std::optional<QPointF> label, std::optional<QPointF> link) {
    // Most edges keep their labels from one step to the next: telling the scene
    // of a geometry change re-indexes the item, thousands of times per step.
    if (label.has_value() == m_showLabel && link.has_value() == m_showLink && (!label || *label == m_labelPos) && (!link || *link == m_linkPos)) return;
    prepareGeometryChange();
    m_showLabel = label.has_value();
    if (label) m_labelPos = *label;
    m_showLink = link.has_value();
    if (link) m_linkPos = *link;
    QRectF b = m_path.boundingRect().united(m_arrow.boundingRect());
    if (auto r = labelRect()) b = b.united(*r);
    if (auto r = linkRect()) b = b.united(*r);
    m_bounds = b.adjusted(-4, -4, 4, 4);
    update();
}

void EdgeItem::recomputeBounds() {
    m_arrow.clear();
    if (m_path.isEmpty()) {
        m_bounds = QRectF();
        return;
    }
    const QPointF tip = m_path.currentPosition();
    const QPointF d = endDirection(m_path);
    const QPointF n(-d.y(), d.x());
    m_arrow << tip << tip - d * 9 + n * 4 << tip - d * 9 - n * 4;
    // Defaults until the scene places the labels: beside the middle, and for a
    // link just before the arrow (the gap under a frame's header).
    m_labelPos = middlePoint(m_path) + QPointF(5, 0);
    m_linkPos = tip - d * 7 + QPointF(5, 0);
    m_showLabel = m_showLink = true;
    QRectF b = m_path.boundingRect().united(m_arrow.boundingRect());
    if (auto r = labelRect()) b = b.united(*r);
    if (auto r = linkRect()) b = b.united(*r);
    m_bounds = b.adjusted(-4, -4, 4, 4);
}

void EdgeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
    QColor c = palette::edge();
    double w = 1.1;
    Qt::PenStyle style = Qt::SolidLine;
    if (m_style == Rewired) c = palette::rewired(), w = 2.8;
    if (m_style == ToGhost) c = palette::ghost(), style = Qt::DashLine;
    if (!m_link.isEmpty() && m_style == Normal) c = palette::link();
    QPen pen(c, w, style, Qt::RoundCap, Qt::RoundJoin);
    // A line at most two pixels wide on screen is drawn with the same width in
    // pixels as a cosmetic pen: it looks the same, and the raster engine strokes
    // it directly instead of outlining the curve first (most of a repaint on a
    // big graph). Dashes keep the geometric pen, whose dash lengths scale, and so
    // do exports (an SVG's lines scale when it is zoomed).
    const bool raster = p->paintEngine() && p->paintEngine()->type() == QPaintEngine::Raster;
    if (const double onScreen = w * lodOf(option, p); raster && style == Qt::SolidLine && onScreen <= 2.0) {
        pen.setWidthF(onScreen);
        pen.setCosmetic(true);
    }
    p->setPen(pen);
    p->setBrush(Qt::NoBrush);
    p->drawPath(m_path);
    p->setPen(Qt::NoPen);
    p->setBrush(c);
    p->drawPolygon(m_arrow);
    if (lodOf(option, p) < kTextLod) return;
    p->setFont(canvasSmallFont());
    if (!m_label.isEmpty() && m_showLabel) {
        p->setPen(m_style == Rewired ? palette::rewired() : palette::subtleText());
        p->drawText(m_labelPos, m_label);
    }
    if (!m_link.isEmpty() && m_showLink) {
        QFont f = canvasSmallFont();
        f.setBold(true);
        p->setFont(f);
        // A light plate keeps the category readable where it crosses a frame or an edge.
        p->setPen(Qt::NoPen);
        p->setBrush(QColor(255, 255, 255, 220));
        p->drawRoundedRect(ownLinkRectAt(m_linkPos), 2, 2);
        p->setPen(palette::link());
        p->drawText(m_linkPos, m_link);
    }
}

// ---- ClusterItem ------------------------------------------------------------------

ClusterItem::ClusterItem(const VNode& node) : m_node(node) {
    setZValue(-1);
    setFlag(ItemIsSelectable, true);
}

void ClusterItem::setNode(const VNode& node, const QRectF& rect) {
    if (rect.size() != m_size) {
        prepareGeometryChange();
        m_size = rect.size();
    }
    if (pos() != rect.topLeft()) setPos(rect.topLeft());
    m_node = node;
    setToolTip(qs(node.tooltip.empty() ? node.title : node.tooltip) + "\n" + qs(node.subtitle) + "\n(double-click to collapse)");
    update();
}

void ClusterItem::setFlags(uint8_t f) {
    if (f == m_flags) return;
    m_flags = f;
    update();
}

QRectF ClusterItem::boundingRect() const { return QRectF(QPointF(0, 0), m_size).adjusted(-3, -3, 3, 3); }

void ClusterItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
    const QRectF r(QPointF(0, 0), m_size);
    QColor fill = palette::familyFill(m_node.family);
    fill.setAlpha(70);
    QPen pen(palette::familyFill(m_node.family).darker(150), 1.4);
    if (m_flags & NodeItem::Added) pen = QPen(palette::added(), 3.0);
    else if (m_flags & NodeItem::OpChanged) pen = QPen(palette::opChanged(), 2.5);
    if (isSelected()) pen = QPen(palette::selection(), 3.0);
    p->setPen(pen);
    p->setBrush(fill);
    p->drawRoundedRect(r, 8, 8);
    if (lodOf(option, p) < kTextLod) return;
    QFont f = canvasTitleFont();
    f.setBold(true);
    p->setFont(f);
    p->setPen(palette::text());
    const QFontMetricsF fm(f);
    double y = 4;
    for (const std::string& line : m_node.headerLines) {
        p->drawText(QRectF(8, y, r.width() - 16, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, qs(line));
        y += fm.height();
    }
}

// ---- BadgeItem --------------------------------------------------------------------

BadgeItem::BadgeItem(Kind kind, const QString& text, const QString& tooltip) : m_kind(kind), m_text(text) {
    QFont f = canvasTitleFont();
    f.setBold(true);
    const QFontMetricsF fm(f);
    m_rect = QRectF(0, 0, fm.horizontalAdvance(text) + 14, fm.height() + 6);
    setToolTip(tooltip);
    setZValue(5);
}

void BadgeItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
    QColor border = m_kind == Shape ? palette::badgeText() : m_kind == Merged ? palette::merged() : palette::added();
    QColor fill = m_kind == Shape ? palette::badgeFill() : QColor(0xf1, 0xe6, 0xfb);
    if (m_kind == Fused) fill = palette::addedFill();
    if (m_kind == Fact) {
        border = palette::opChanged().darker(115);
        fill = QColor(0xff, 0xef, 0xdc);
    }
    p->setPen(QPen(border, 1.5));
    p->setBrush(fill);
    p->drawRoundedRect(m_rect, 6, 6);
    QFont f = canvasTitleFont();
    f.setBold(true);
    p->setFont(f);
    p->setPen(border);
    p->drawText(m_rect, Qt::AlignCenter, m_text);
}

// ---- BannerItem -------------------------------------------------------------------

namespace {
QFont bannerFont() {
    QFont f = canvasTitleFont();
    f.setPointSizeF(10);
    return f;
}
} // namespace

QSizeF bannerSize(const QStringList& lines, bool legend) {
    const QFontMetricsF fm(bannerFont());
    double w = 0;
    for (const QString& l : lines) w = std::max(w, fm.horizontalAdvance(l));
    double h = lines.size() * fm.height();
    if (legend) {
        w = std::max(w, 640.0);
        h += fm.height() + 4;
    }
    return QSizeF(w + 20, h + 12);
}

void paintBanner(QPainter* p, const QRectF& rect, const QStringList& lines, bool legend) {
    p->save();
    p->setPen(QPen(QColor(0xc8, 0xcc, 0xd2), 1));
    p->setBrush(QColor(0xfb, 0xfb, 0xfc));
    p->drawRoundedRect(rect, 6, 6);
    const QFont f = bannerFont();
    const QFontMetricsF fm(f);
    double y = rect.top() + 6;
    for (int i = 0; i < lines.size(); ++i) {
        QFont lf = f;
        lf.setBold(i == 0);
        p->setFont(lf);
        p->setPen(palette::text());
        p->drawText(QRectF(rect.left() + 10, y, rect.width() - 20, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, lines[i]);
        y += fm.height();
    }
    if (legend) {
        y += 4;
        struct Entry {
            QColor color;
            const char* text;
            bool dashed;
        };
        const Entry entries[] = {{palette::added(), "added", false},
                                 {palette::ghost(), "erased", true},
                                 {palette::rewired(), "rewired", false},
                                 {palette::opChanged().darker(115), "op changed", false},
                                 {palette::badgeText(), "buffer shape", false},
                                 {palette::merged(), "merged state", false},
                                 {palette::link(), "scan link", false}};
        double x = rect.left() + 10;
        p->setFont(canvasSmallFont());
        for (const Entry& e : entries) {
            p->setPen(QPen(e.color, 2.5, e.dashed ? Qt::DashLine : Qt::SolidLine));
            p->setBrush(Qt::NoBrush);
            p->drawRoundedRect(QRectF(x, y + 2, 18, fm.height() - 6), 3, 3);
            p->setPen(palette::text());
            const double tw = QFontMetricsF(canvasSmallFont()).horizontalAdvance(e.text);
            p->drawText(QPointF(x + 24, y + fm.height() - 6), e.text);
            x += 24 + tw + 16;
        }
    }
    p->restore();
}

BannerItem::BannerItem(const QStringList& lines, bool legend) : m_lines(lines), m_legend(legend) {
    m_rect = QRectF(QPointF(0, 0), bannerSize(lines, legend));
    setZValue(6);
}

void BannerItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) { paintBanner(p, m_rect, m_lines, m_legend); }

} // namespace tl
