#pragma once
// The canvas view: wheel and Ctrl+± zoom around the cursor, fit, drag to pan,
// following what a step changed, and a minimap in a corner that shows where
// the view is.
#include <QGraphicsView>
#include <QPixmap>
#include <QTimer>

namespace tl {

class GraphView;

/// A thumbnail of the whole scene (its boxes, drawn from the layout) with the
/// visible area framed; click or drag to move the view there. Shown only while
/// the view does not show the whole scene, in the corner where it covers the
/// least; a scene far wider (or taller) than the box is shown as a strip around
/// the view rather than shrunk to a line.
class Minimap : public QWidget {
    Q_OBJECT
public:
    explicit Minimap(GraphView* view);
    /// Re-renders the thumbnail soon (debounced: scenes change in bursts).
    void sceneChanged();
    /// The scene rect the thumbnail shows (all of it, or the strip around the view).
    QRectF shownSceneRect() const { return m_shown; }

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;

private:
    friend class GraphView;
    void render();
    QRectF thumbRect() const;
    double scale() const;
    QPointF offset() const;
    void centerAt(QPointF widgetPos);
    GraphView* m_view;
    QPixmap m_pixmap;
    QRectF m_sceneRect, m_shown;
    QTimer m_timer;
};

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    /// Below this the canvas font is unreadable (about 2 px).
    static constexpr double kMinFitZoom = 0.2;
    /// How far follow() zooms out so a step's changes are all in view.
    static constexpr double kMinFollowZoom = 0.05;
    /// From here up ids and edge labels are legible (8 pt at 75% is 8 px).
    static constexpr double kReadableZoom = 0.75;

    explicit GraphView(QWidget* parent = nullptr);
    double zoom() const { return transform().m11(); }
    Minimap* minimap() const { return m_minimap; }
    /// The user's minimap setting; it is still hidden while the whole scene is in view.
    void setMinimapVisible(bool on);
    bool minimapEnabled() const { return m_minimapEnabled; }
    /// The scene area visible in the viewport.
    QRectF visibleSceneRect() const;

public slots:
    void zoomIn() { zoomBy(1.25); }
    void zoomOut() { zoomBy(1 / 1.25); }
    void resetZoom();
    /// Fits the whole scene, never zooming in past 100% nor out past kMinFitZoom
    /// (then shows the top of the scene).
    void fit();
    /// The first view of a graph: the whole scene when it is legible so, else
    /// `focus` (what changed, or the top of the graph): legibly, or all of it when
    /// `wholeFocus` (a step's changes), at a smaller zoom if need be.
    void firstView(const QRectF& focus, bool wholeFocus = false);
    /// Scrolls so `r` is visible, zooming out if it does not fit.
    void reveal(const QRectF& r);
    /// Moves the view as little as it can so `r` is inside it: a pan when it fits
    /// at this zoom, else zooming out (to kMinFollowZoom at most: what a step
    /// changed is never off-screen, even in a narrow canvas); nothing when it is
    /// in view already.
    /// The view keeps following `r` when the viewport is resized (a dock opening
    /// beside it) until the user pans or zooms.
    void follow(const QRectF& r);
    /// Places and shows (or hides) the minimap for the current scene and view.
    void updateMinimap();

signals:
    void zoomChanged(double zoom);
    void viewportMoved();

protected:
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void zoomBy(double f);
    void setZoom(double z);
    void placeMinimap();
    Minimap* m_minimap = nullptr;
    bool m_minimapEnabled = true;
    QRectF m_followed;  ///< what follow() keeps in view; null once the user moves the view
};

} // namespace tl
