#include "compare/CompareTimeline.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace tl {

namespace {

constexpr double kLabelWidth = 150.0;
constexpr double kLaneHeight = 26.0;
constexpr double kLaneGap = 10.0;
constexpr double kMargin = 8.0;

const QColor kPlain(150, 150, 150);
const QColor kScan(40, 110, 200);
const QColor kMissed(200, 40, 40);
const QColor kFollowOn(230, 150, 150);

} // namespace

CompareTimeline::CompareTimeline(CompareSession* session, QWidget* parent) : QWidget(parent), m_session(session) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setObjectName("compareTimeline");
    connect(session, &CompareSession::opened, this, qOverload<>(&QWidget::update));
    connect(session, &CompareSession::positionChanged, this, qOverload<>(&QWidget::update));
}

QSize CompareTimeline::sizeHint() const { return {800, static_cast<int>(2 * kMargin + 2 * kLaneHeight + kLaneGap + 14)}; }

QRectF CompareTimeline::laneRect(CompareSession::Lane lane) const {
    const double top = kMargin + (lane == CompareSession::PyTensorLane ? 0.0 : kLaneHeight + kLaneGap);
    return QRectF(kLabelWidth, top, std::max(40.0, width() - kLabelWidth - 2 * kMargin), kLaneHeight);
}

double CompareTimeline::yOf(CompareSession::Lane lane) const { return laneRect(lane).center().y(); }

double CompareTimeline::xOf(CompareSession::Lane lane, int k) const {
    const QRectF r = laneRect(lane);
    const int n = m_session->stepCount(lane);
    return n == 0 ? r.left() : r.left() + r.width() * k / n;
}

int CompareTimeline::positionAt(CompareSession::Lane lane, double x) const {
    const QRectF r = laneRect(lane);
    const int n = m_session->stepCount(lane);
    if (n == 0) return 0;
    return std::clamp(static_cast<int>(std::lround((x - r.left()) / r.width() * n)), 0, n);
}

void CompareTimeline::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    if (!m_session->isOpen()) return;
    for (auto lane : {CompareSession::PyTensorLane, CompareSession::TensorlensLane}) {
        const QRectF r = laneRect(lane);
        const int n = m_session->stepCount(lane);
        QFont f = font();
        f.setBold(lane == m_active && hasFocus());
        p.setFont(f);
        p.setPen(palette().text().color());
        const QString name = lane == CompareSession::PyTensorLane ? "PyTensor" : "tensorlens";
        p.drawText(QRectF(kMargin, r.top(), kLabelWidth - 2 * kMargin, r.height()), Qt::AlignVCenter | Qt::AlignLeft,
                   QString("%1  %2/%3").arg(name).arg(m_session->position(lane)).arg(n));
        p.setPen(QPen(palette().mid().color(), 1));
        p.drawLine(QPointF(r.left(), r.center().y()), QPointF(r.right(), r.center().y()));
        for (int k = 1; k <= n; ++k) {
            const CompareSession::StepInfo s = m_session->stepInfo(lane, k);
            const QColor c = s.missed ? (s.followOn ? kFollowOn : kMissed) : s.scan ? kScan : kPlain;
            const double x = xOf(lane, k);
            const double h = s.missed || s.scan ? r.height() * 0.8 : r.height() * 0.4;
            p.setPen(QPen(c, s.missed || s.scan ? 2.0 : 1.0));
            p.drawLine(QPointF(x, r.center().y() - h / 2), QPointF(x, r.center().y() + h / 2));
        }
        if (lane == CompareSession::PyTensorLane && m_session->pytensorSteps() > 0 &&
            m_session->pytensorSteps() < n) {
            const double x = xOf(lane, m_session->pytensorSteps());
            p.setPen(QPen(palette().text().color(), 1, Qt::DashLine));
            p.drawLine(QPointF(x, r.top() - 2), QPointF(x, r.bottom() + 2));
        }
        // The lane's position.
        const double x = xOf(lane, m_session->position(lane));
        p.setPen(QPen(palette().highlight().color(), 2));
        p.setBrush(palette().highlight());
        p.drawPolygon(QPolygonF({QPointF(x - 5, r.top()), QPointF(x + 5, r.top()), QPointF(x, r.top() + 7)}));
    }
    p.setPen(palette().text().color());
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    const double y = laneRect(CompareSession::TensorlensLane).bottom() + 2;
    p.drawText(QRectF(kLabelWidth, y, width() - kLabelWidth, 14), Qt::AlignLeft,
               "blue: loop rewrites   red: rewrites PyTensor missed (tensorlens on its compiled graph)   "
               "dashed: PyTensor's compiled graph");
}

void CompareTimeline::mousePressEvent(QMouseEvent* e) {
    for (auto lane : {CompareSession::PyTensorLane, CompareSession::TensorlensLane}) {
        if (!laneRect(lane).adjusted(-kLabelWidth, -kLaneGap / 2, 10, kLaneGap / 2).contains(e->position())) continue;
        m_active = lane;
        m_session->setPosition(lane, positionAt(lane, e->position().x()));
        update();
        return;
    }
}

void CompareTimeline::keyPressEvent(QKeyEvent* e) {
    const int k = m_session->position(m_active);
    switch (e->key()) {
    case Qt::Key_Left: m_session->setPosition(m_active, k - 1); break;
    case Qt::Key_Right: m_session->setPosition(m_active, k + 1); break;
    case Qt::Key_Home: m_session->setPosition(m_active, 0); break;
    case Qt::Key_End: m_session->setPosition(m_active, m_session->finalPosition(m_active)); break;
    case Qt::Key_Up: m_active = CompareSession::PyTensorLane; update(); break;
    case Qt::Key_Down: m_active = CompareSession::TensorlensLane; update(); break;
    default: QWidget::keyPressEvent(e); return;
    }
}

bool CompareTimeline::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip && m_session->isOpen()) {
        auto* h = static_cast<QHelpEvent*>(e);
        for (auto lane : {CompareSession::PyTensorLane, CompareSession::TensorlensLane}) {
            if (!laneRect(lane).contains(h->pos())) continue;
            const int k = positionAt(lane, h->pos().x());
            if (k < 1) break;
            const CompareSession::StepInfo s = m_session->stepInfo(lane, k);
            QToolTip::showText(h->globalPos(), QString("step %1: %2%3").arg(k).arg(s.rewrite).arg(s.missed ? " (missed by PyTensor)" : ""), this);
            return true;
        }
        QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

} // namespace tl
