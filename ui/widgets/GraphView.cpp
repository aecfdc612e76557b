#include "widgets/GraphView.h"

#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>

namespace tl {

// ---- Minimap --------------------------------------------------------------------

// A child of the view, not of its viewport: viewport children scroll with the content.
Minimap::Minimap(GraphView* view) : QWidget(view), m_view(view) {
    setFixedSize(220, 150);
    setCursor(Qt::PointingHandCursor);
    setToolTip("Overview: click or drag to move the view");
    m_timer.setSingleShot(true);
    m_timer.setInterval(150);
    connect(&m_timer, &QTimer::timeout, this, &Minimap::render);
}

void Minimap::sceneChanged() { m_timer.start(); }

void Minimap::render() {
    QGraphicsScene* s = m_view->scene();
    m_pixmap = QPixmap();
    if (!s || s->items().isEmpty()) {
        update();
        return;
    }
    m_sceneRect = s->sceneRect();
    QPixmap pm(size() * devicePixelRatioF());
    pm.setDevicePixelRatio(devicePixelRatioF());
    pm.fill(Qt::white);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing, false);
    s->render(&p, thumbRect(), m_sceneRect, Qt::KeepAspectRatio);
    m_pixmap = pm;
    update();
}

QRectF Minimap::thumbRect() const { return QRectF(QPointF(2, 2), QSizeF(width() - 4, height() - 4)); }

void Minimap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), QColor(255, 255, 255, 235));
    p.setPen(QColor(0xa0, 0xa6, 0xae));
    p.drawRect(rect().adjusted(0, 0, -1, -1));
    if (m_pixmap.isNull() || m_sceneRect.isEmpty()) return;
    p.drawPixmap(0, 0, m_pixmap);
    // Map the visible scene area into the thumbnail (KeepAspectRatio, centered).
    const QRectF t = thumbRect();
    const double s = std::min(t.width() / m_sceneRect.width(), t.height() / m_sceneRect.height());
    const QPointF off(t.left() + (t.width() - m_sceneRect.width() * s) / 2, t.top() + (t.height() - m_sceneRect.height() * s) / 2);
    const QRectF vis = m_view->mapToScene(m_view->viewport()->rect()).boundingRect();
    const QRectF frame((vis.left() - m_sceneRect.left()) * s + off.x(), (vis.top() - m_sceneRect.top()) * s + off.y(), vis.width() * s,
                       vis.height() * s);
    p.setPen(QPen(QColor(0x1e, 0x64, 0xdc), 1.5));
    p.setBrush(QColor(0x1e, 0x64, 0xdc, 30));
    p.drawRect(frame.intersected(t));
}

void Minimap::centerAt(QPointF w) {
    if (m_sceneRect.isEmpty()) return;
    const QRectF t = thumbRect();
    const double s = std::min(t.width() / m_sceneRect.width(), t.height() / m_sceneRect.height());
    const QPointF off(t.left() + (t.width() - m_sceneRect.width() * s) / 2, t.top() + (t.height() - m_sceneRect.height() * s) / 2);
    m_view->centerOn(QPointF((w.x() - off.x()) / s + m_sceneRect.left(), (w.y() - off.y()) / s + m_sceneRect.top()));
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
    placeMinimap();
}

void GraphView::setMinimapVisible(bool on) { m_minimap->setVisible(on); }

void GraphView::zoomBy(double f) {
    const double z = zoom() * f;
    if (z < 0.01 || z > 8) return;
    scale(f, f);
    emit zoomChanged(zoom());
    m_minimap->update();
}

void GraphView::resetZoom() {
    setTransform(QTransform());
    emit zoomChanged(1.0);
    m_minimap->update();
}

void GraphView::fit() {
    if (!scene()) return;
    fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
    if (zoom() > 1.0) setTransform(QTransform());
    // A graph too big to read at any fit starts readable at its top (banner and
    // inputs); the minimap shows the whole.
    if (zoom() < kMinFitZoom) {
        setTransform(QTransform::fromScale(kMinFitZoom, kMinFitZoom));
        const QRectF r = scene()->sceneRect();
        const QRectF vis = mapToScene(viewport()->rect()).boundingRect();
        centerOn(r.center().x(), r.top() + vis.height() / 2);
    }
    emit zoomChanged(zoom());
    m_minimap->update();
}

void GraphView::reveal(const QRectF& r) {
    const QRectF vis = mapToScene(viewport()->rect()).boundingRect();
    if (r.width() > vis.width() || r.height() > vis.height()) {
        const double f = std::min(vis.width() / r.width(), vis.height() / r.height()) * 0.9;
        zoomBy(f);
    }
    centerOn(r.center());
}

void GraphView::wheelEvent(QWheelEvent* e) {
    // The wheel zooms (graphs are panned by dragging); Shift+wheel scrolls sideways.
    if (e->modifiers() & Qt::ShiftModifier) {
        QGraphicsView::wheelEvent(e);
        return;
    }
    const double steps = e->angleDelta().y() / 120.0;
    if (steps == 0) return;
    zoomBy(std::pow(1.15, steps));
    e->accept();
}

void GraphView::resizeEvent(QResizeEvent* e) {
    QGraphicsView::resizeEvent(e);
    placeMinimap();
}

void GraphView::scrollContentsBy(int dx, int dy) {
    QGraphicsView::scrollContentsBy(dx, dy);
    m_minimap->update();
    emit viewportMoved();
}

void GraphView::placeMinimap() {
    const QRect vp = viewport()->geometry();
    m_minimap->move(std::max(0, vp.right() - m_minimap->width() - 10), std::max(0, vp.bottom() - m_minimap->height() - 10));
    m_minimap->raise();
}

} // namespace tl
