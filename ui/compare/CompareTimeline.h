#pragma once
// The comparison's timeline: two lanes on one axis, PyTensor's steps (then, in red,
// the rewrites it missed, which tensorlens makes on its compiled graph) and
// tensorlens's steps on PyTensor's original graph. Each lane runs from its original
// graph (left) to its final one (right); loop rewrites are drawn in colour, a click
// moves that lane there, the arrow keys move the lane last clicked.
#include "compare/CompareSession.h"

#include <QWidget>

namespace tl {

class CompareTimeline : public QWidget {
    Q_OBJECT
public:
    explicit CompareTimeline(CompareSession* session, QWidget* parent = nullptr);

    QSize sizeHint() const override;
    /// The lane the keys move (the one clicked last).
    CompareSession::Lane activeLane() const { return m_active; }
    /// The x coordinate of position k of a lane, and the position nearest x (tests, clicks).
    double xOf(CompareSession::Lane lane, int k) const;
    int positionAt(CompareSession::Lane lane, double x) const;
    /// The y coordinate of a lane's middle.
    double yOf(CompareSession::Lane lane) const;

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    bool event(QEvent* e) override;

private:
    QRectF laneRect(CompareSession::Lane lane) const;
    CompareSession* m_session;
    CompareSession::Lane m_active = CompareSession::PyTensorLane;
};

} // namespace tl
