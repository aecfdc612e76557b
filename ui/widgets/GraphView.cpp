#include "widgets/GraphView.h"

#include "scene/GraphScene.h"
#include "scene/Palette.h"

#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace tl {

// ---- Minimap --------------------------------------------------------------------

namespace {
constexpr double kMaxMinimapW = 240, kMaxMinimapH = 170, kMinThumbSide = 36;
}

// A child of the view, not of its viewport: viewport children scroll with the content.
Minimap::Minimap(GraphView* view) : QWidget(view), m_view(view) {
    resize(220, 150);
    setCursor(Qt::PointingHandCursor);
    setToolTip("Overview: click or drag to move the view (Ctrl+M hides it)");
    m_timer.setSingleShot(true);
    m_timer.setInterval(150);
    connect(&m_timer, &QTimer::timeout, this, &Minimap::render);
    hide();
}

void Minimap::sceneChanged() { m_timer.start(); }

QRectF Minimap::thumbRect() const { return QRectF(QPointF(2, 2), QSizeF(width() - 4, height() - 4)); }

double Minimap::scale() const {
    const QRectF t = thumbRect();
    if (m_shown.isEmpty()) return 1;
    return std::min(t.width() / m_shown.width(), t.height() / m_shown.height());
}

QPointF Minimap::offset() const {
    const QRectF t = thumbRect();
    const double s = scale();
    return QPointF(t.left() + (t.width() - m_shown.width() * s) / 2, t.top() + (t.height() - m_shown.height() * s) / 2);
}

void Minimap::render() {
    auto* s = dynamic_cast<GraphScene*>(m_view->scene());
    m_pixmap = QPixmap();
    if (!s || !s->visualGraph()) {
        update();
        return;
    }
    m_sceneRect = s->sceneRect();
    // The box takes the scene's shape within its limits; a scene too long for that
    // is shown as the strip of it around the view, at a scale where boxes still show.
    const double aspect = m_sceneRect.width() / std::max(1.0, m_sceneRect.height());
    double w = kMaxMinimapW, h = kMaxMinimapH;
    if (aspect > w / h) h = std::clamp(w / aspect, kMinThumbSide * 2, kMaxMinimapH);
    else w = std::clamp(h * aspect, kMinThumbSide * 2, kMaxMinimapW);
    resize(static_cast<int>(w), static_cast<int>(h));
    m_shown = m_sceneRect;
    const QRectF t = thumbRect();
    const double fitScale = std::min(t.width() / m_sceneRect.width(), t.height() / m_sceneRect.height());
    const double minScale = kMinThumbSide / std::max(1.0, std::min(m_sceneRect.width(), m_sceneRect.height()) * 4);
    if (fitScale < minScale) {
        const QPointF c = m_view->visibleSceneRect().center();
        const QSizeF part(t.width() / minScale, t.height() / minScale);
        QRectF strip(c - QPointF(part.width() / 2, part.height() / 2), part);
        // Kept inside the scene along its long side.
        if (strip.left() < m_sceneRect.left()) strip.moveLeft(m_sceneRect.left());
        if (strip.right() > m_sceneRect.right()) strip.moveRight(m_sceneRect.right());
        if (strip.top() < m_sceneRect.top()) strip.moveTop(m_sceneRect.top());
        if (strip.bottom() > m_sceneRect.bottom()) strip.moveBottom(m_sceneRect.bottom());
        m_shown = strip;
    }
    QPixmap pm(size() * devicePixelRatioF());
    pm.setDevicePixelRatio(devicePixelRatioF());
    pm.fill(Qt::white);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing, false);
    const double sc = scale();
    const QPointF off = offset();
    const VisualGraph& vg = *s->visualGraph();
    const GraphLayout& l = s->layout();
    // Boxes drawn from the layout: thousands of them cost far less than rendering the scene.
    for (size_t i = 0; i < vg.nodes.size() && i < l.rects.size(); ++i) {
        const QRectF r = l.rects[i];
        if (!r.intersects(m_shown)) continue;
        const QRectF m((r.left() - m_shown.left()) * sc + off.x(), (r.top() - m_shown.top()) * sc + off.y(), std::max(1.0, r.width() * sc),
                       std::max(1.0, r.height() * sc));
        QColor c = palette::familyFill(vg.nodes[i].family);
        if (vg.nodes[i].kind == VNode::Kind::Cluster) {
            c.setAlpha(80);
            p.setPen(c.darker(160));
        } else {
            c = c.darker(115);
            p.setPen(Qt::NoPen);
        }
        p.setBrush(c);
        p.drawRect(m);
    }
    m_pixmap = pm;
    update();
}

void Minimap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), QColor(255, 255, 255, 235));
    p.setPen(QColor(0xa0, 0xa6, 0xae));
    p.drawRect(rect().adjusted(0, 0, -1, -1));
    if (m_pixmap.isNull() || m_shown.isEmpty()) return;
    p.drawPixmap(0, 0, m_pixmap);
    const double s = scale();
    const QPointF off = offset();
    const QRectF vis = m_view->visibleSceneRect();
    const QRectF frame((vis.left() - m_shown.left()) * s + off.x(), (vis.top() - m_shown.top()) * s + off.y(), vis.width() * s,
                       vis.height() * s);
    p.setPen(QPen(QColor(0x1e, 0x64, 0xdc), 1.5));
    p.setBrush(QColor(0x1e, 0x64, 0xdc, 30));
    p.drawRect(frame.intersected(thumbRect()));
}

void Minimap::centerAt(QPointF w) {
    if (m_shown.isEmpty()) return;
    const double s = scale();
    const QPointF off = offset();
    m_view->centerOn(QPointF((w.x() - off.x()) / s + m_shown.left(), (w.y() - off.y()) / s + m_shown.top()));
}

void Minimap::mousePressEvent(QMouseEvent* e) { centerAt(e->position()); }
void Minimap::mouseMoveEvent(QMouseEvent* e) {
    if (e->buttons() & Qt::LeftButton) centerAt(e->position());
}

// ---- GraphView -----------------------------------------------------------------------

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent) {
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setOptimizationFlag(QGraphicsView::DontSavePainterState, true);
    setBackgroundBrush(Qt::white);
    m_minimap = new Minimap(this);
}

QRectF GraphView::visibleSceneRect() const { return mapToScene(viewport()->rect()).boundingRect(); }

void GraphView::setMinimapVisible(bool on) {
    m_minimapEnabled = on;
    updateMinimap();
}

void GraphView::updateMinimap() {
    auto* s = dynamic_cast<GraphScene*>(scene());
    const bool open = s && s->visualGraph() && !s->visualGraph()->nodes.empty();
    // Nothing to find when everything is in view (or nothing is open).
    const bool needed = open && !visibleSceneRect().adjusted(-2, -2, 2, 2).contains(s->sceneRect());
    if (!m_minimapEnabled || !needed) {
        m_minimap->hide();
        return;
    }
    if (m_minimap->isHidden()) {
        m_minimap->show();
        m_minimap->render();
    }
    placeMinimap();
    m_minimap->update();
}

void GraphView::zoomBy(double f) {
    const double z = zoom() * f;
    if (z < 0.01 || z > 8) return;
    scale(f, f);
    emit zoomChanged(zoom());
    updateMinimap();
}

void GraphView::setZoom(double z) {
    setTransform(QTransform::fromScale(z, z));
    emit zoomChanged(zoom());
}

void GraphView::resetZoom() {
    setTransform(QTransform());
    emit zoomChanged(1.0);
    updateMinimap();
}

void GraphView::fit() {
    if (!scene()) return;
    m_followed = QRectF();
    fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
    if (zoom() > 1.0) setTransform(QTransform());
    // A graph too big to read at any fit starts readable at its top (banner and
    // inputs); the minimap shows the whole.
    if (zoom() < kMinFitZoom) {
        setTransform(QTransform::fromScale(kMinFitZoom, kMinFitZoom));
        const QRectF r = scene()->sceneRect();
        const QRectF vis = visibleSceneRect();
        centerOn(r.center().x(), r.top() + vis.height() / 2);
    }
    emit zoomChanged(zoom());
    updateMinimap();
}

void GraphView::firstView(const QRectF& focus, bool wholeFocus) {
    if (!scene()) return;
    m_followed = wholeFocus ? focus : QRectF();
    const QRectF all = scene()->sceneRect();
    const QSizeF vp = viewport()->size();
    const double fitAll = std::min(vp.width() / all.width(), vp.height() / all.height());
    if (fitAll >= kReadableZoom || focus.isEmpty()) {
        fit();
        return;
    }
    // The whole would be unreadable: the region that matters, legibly when it
    // can be; a step's changes are shown whole even when that takes a smaller zoom.
    const QRectF r = focus.adjusted(-30, -30, 30, 30);
    const double fitFocus = std::min(vp.width() / r.width(), vp.height() / r.height());
    setZoom(std::clamp(fitFocus, wholeFocus ? kMinFitZoom : kReadableZoom, 1.0));
    const QRectF vis = visibleSceneRect();
    // Larger than the view even so: its top, where a reader starts.
    if (r.height() > vis.height()) centerOn(r.center().x(), r.top() + vis.height() / 2);
    else centerOn(r.center());
    updateMinimap();
}

void GraphView::reveal(const QRectF& r) {
    const QRectF vis = visibleSceneRect();
    if (r.width() > vis.width() || r.height() > vis.height()) {
        const double f = std::min(vis.width() / r.width(), vis.height() / r.height()) * 0.9;
        zoomBy(f);
    }
    centerOn(r.center());
}

void GraphView::follow(const QRectF& target) {
    if (target.isEmpty() && target.isNull()) return;
    m_followed = target;
    const QRectF r = target.adjusted(-12, -12, 12, 12);
    if (visibleSceneRect().contains(r)) return;
    const QSizeF vp = viewport()->size();
    // A margin for the scroll bars a new zoom may show (they narrow the viewport).
    double z = std::min(zoom(), 0.95 * std::min(vp.width() / r.width(), vp.height() / r.height()));
    // Scrolling moves by whole pixels and a scene barely wider than the view is
    // aligned, not scrolled: when the pan still leaves part out, a little further out.
    for (int attempt = 0; attempt < 6; ++attempt) {
        z = std::max(kMinFollowZoom, z);
        if (z < zoom()) setZoom(z);
        const QRectF vis = visibleSceneRect();
        if (r.width() > vis.width() || r.height() > vis.height()) {
            // Too big even so: its top-left part, where a reader starts.
            centerOn(QPointF(r.left() + vis.width() / 2 - 1, r.top() + vis.height() / 2 - 1));
            break;
        }
        // The smallest pan that brings it in.
        QPointF c = vis.center();
        if (r.left() < vis.left()) c.rx() -= vis.left() - r.left();
        else if (r.right() > vis.right()) c.rx() += r.right() - vis.right();
        if (r.top() < vis.top()) c.ry() -= vis.top() - r.top();
        else if (r.bottom() > vis.bottom()) c.ry() += r.bottom() - vis.bottom();
        centerOn(c);
        if (visibleSceneRect().contains(target) || z <= kMinFollowZoom) break;
        z = zoom() * 0.9;
    }
    updateMinimap();
}

void GraphView::wheelEvent(QWheelEvent* e) {
    // The wheel zooms (graphs are panned by dragging); Shift+wheel scrolls sideways.
    if (e->modifiers() & Qt::ShiftModifier) {
        QGraphicsView::wheelEvent(e);
        return;
    }
    const double steps = e->angleDelta().y() / 120.0;
    if (steps == 0) return;
    m_followed = QRectF();
    zoomBy(std::pow(1.15, steps));
    e->accept();
}

void GraphView::mousePressEvent(QMouseEvent* e) {
    m_followed = QRectF();  // a drag pans: the user decides what is in view now
    QGraphicsView::mousePressEvent(e);
}

void GraphView::resizeEvent(QResizeEvent* e) {
    QGraphicsView::resizeEvent(e);
    // A narrower viewport (a dock laid out after the step was shown) must not push
    // what the step changed out of sight.
    if (!m_followed.isNull()) follow(m_followed);
    updateMinimap();
}

void GraphView::scrollContentsBy(int dx, int dy) {
    QGraphicsView::scrollContentsBy(dx, dy);
    if (m_minimapEnabled) {
        updateMinimap();
        // A strip of a long scene follows the view.
        if (m_minimap->isVisible() && m_minimap->shownSceneRect() != m_minimap->m_sceneRect) m_minimap->sceneChanged();
    }
    emit viewportMoved();
}

void GraphView::placeMinimap() {
    const QRect vp = viewport()->geometry();
    const int w = m_minimap->width(), h = m_minimap->height();
    // The corner where it covers the fewest boxes and badges (bottom-right first).
    const QPoint corners[] = {{vp.right() - w - 10, vp.bottom() - h - 10},
                              {vp.left() + 10, vp.bottom() - h - 10},
                              {vp.right() - w - 10, vp.top() + 10},
                              {vp.left() + 10, vp.top() + 10}};
    // Counted on the layout's boxes: asking the scene for its items there would
    // first re-index every item a step moved.
    auto* s = dynamic_cast<GraphScene*>(scene());
    const std::vector<QRectF> none;
    const std::vector<QRectF>& boxes = s ? s->layout().rects : none;
    QPoint best = corners[0];
    int fewest = -1;
    for (const QPoint& c : corners) {
        const QRectF inScene = mapToScene(QRect(viewport()->mapFrom(this, c), QSize(w, h))).boundingRect();
        int covered = 0;
        for (const QRectF& b : boxes) covered += b.intersects(inScene);
        // Badges say what the step changed: hiding one costs more than hiding a box.
        if (s)
            for (const BadgeItem* b : s->badges()) covered += 4 * (b->isVisible() && b->sceneBoundingRect().intersects(inScene));
        if (fewest < 0 || covered < fewest) {
            fewest = covered;
            best = c;
        }
        if (covered == 0) break;
    }
    m_minimap->move(std::max(0, best.x()), std::max(0, best.y()));
    m_minimap->raise();
}

} // namespace tl
