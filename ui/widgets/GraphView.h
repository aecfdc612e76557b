#pragma once
// The canvas view: wheel and Ctrl+± zoom around the cursor, fit, drag to pan,
// and a minimap in the corner that shows where the view is.
#include <QGraphicsView>
#include <QPixmap>
#include <QTimer>

namespace tl {

class GraphView;

/// A cached thumbnail of the whole scene with the visible area framed; click or
/// drag to move the view there.
class Minimap : public QWidget {
    Q_OBJECT
public:
    explicit Minimap(GraphView* view);
    /// Re-renders the thumbnail soon (debounced: scenes change in bursts).
    void sceneChanged();

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;

private:
    void render();
    QRectF thumbRect() const;
    void centerAt(QPointF widgetPos);
    GraphView* m_view;
    QPixmap m_pixmap;
    QRectF m_sceneRect;
    QTimer m_timer;
};

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    /// Below this the canvas font is unreadable (about 2 px).
    static constexpr double kMinFitZoom = 0.2;

    explicit GraphView(QWidget* parent = nullptr);
    double zoom() const { return transform().m11(); }
    Minimap* minimap() const { return m_minimap; }
    void setMinimapVisible(bool on);

public slots:
    void zoomIn() { zoomBy(1.25); }
    void zoomOut() { zoomBy(1 / 1.25); }
    void resetZoom();
    /// Fits the whole scene, never zooming in past 100% nor out past kMinFitZoom
    /// (then shows the top of the scene).
    void fit();
    /// Scrolls so `r` is visible, zooming out if it does not fit.
    void reveal(const QRectF& r);

signals:
    void zoomChanged(double zoom);
    void viewportMoved();

protected:
    void wheelEvent(QWheelEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void zoomBy(double f);
    void placeMinimap();
    Minimap* m_minimap = nullptr;
};

} // namespace tl
