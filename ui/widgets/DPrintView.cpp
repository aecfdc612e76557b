#include "widgets/DPrintView.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QFontMetricsF>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>
#include <memory>
#include <cmath>

namespace tl {

namespace {
constexpr int kMargin = 4;
constexpr QRgb kHighlight = 0xffd6e4ff;
} // namespace

DPrintView::DPrintView(QWidget* parent) : QAbstractScrollArea(parent) {
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setCursor(Qt::IBeamCursor);
    viewport()->setAutoFillBackground(true);
    QPalette p = viewport()->palette();
    p.setColor(QPalette::Window, p.color(QPalette::Base));
    viewport()->setPalette(p);
    verticalScrollBar()->setSingleStep(1);
}

void DPrintView::setLines(std::vector<std::string> lines) {
    int widest = 0;
    for (const std::string& l : lines) widest = std::max(widest, static_cast<int>(QString::fromStdString(l).size()));
    const int count = static_cast<int>(lines.size());
    auto shared = std::make_shared<const std::vector<std::string>>(std::move(lines));
    setSource(count, [shared](int i) { return (*shared)[i]; }, widest);
}

void DPrintView::setSource(int count, std::function<std::string(int)> line, int widestColumns) {
    m_count = count;
    m_line = std::move(line);
    m_widestColumns = widestColumns;
    if (m_current >= lineCount()) m_current = -1;
    m_anchor = m_cursor = Pos{};
    std::vector<int> keep;
    for (int l : m_highlighted)
        if (l < lineCount()) keep.push_back(l);
    setHighlighted(std::move(keep));
    updateScrollBars();
    viewport()->update();
}

QString DPrintView::lineText(int line) const {
    return line >= 0 && line < lineCount() ? QString::fromStdString(m_line(line)) : QString();
}

QString DPrintView::text() const {
    std::string all;
    for (int i = 0; i < m_count; ++i) {
        if (i) all += '\n';
        all += m_line(i);
    }
    return QString::fromStdString(all);
}

void DPrintView::setHighlighted(std::vector<int> lines) {
    m_highlighted = std::move(lines);
    m_isHighlighted.assign(m_count, 0);
    for (int l : m_highlighted)
        if (l >= 0 && l < lineCount()) m_isHighlighted[l] = 1;
    viewport()->update();
}

int DPrintView::lineHeight() const { return std::max(1, static_cast<int>(std::ceil(QFontMetricsF(font()).lineSpacing()))); }

void DPrintView::updateScrollBars() {
    const int visible = std::max(1, viewport()->height() / lineHeight());
    verticalScrollBar()->setRange(0, std::max(0, lineCount() - visible));
    verticalScrollBar()->setPageStep(visible);
    const double cw = QFontMetricsF(font()).horizontalAdvance(QLatin1Char('M'));
    const int width = static_cast<int>(std::ceil(m_widestColumns * cw)) + 2 * kMargin;
    horizontalScrollBar()->setRange(0, std::max(0, width - viewport()->width()));
    horizontalScrollBar()->setPageStep(viewport()->width());
    horizontalScrollBar()->setSingleStep(static_cast<int>(cw * 4));
}

void DPrintView::setCurrentLine(int line) {
    line = std::clamp(line, -1, lineCount() - 1);
    if (line >= 0) {
        const int first = verticalScrollBar()->value(), visible = std::max(1, viewport()->height() / lineHeight());
        if (line < first) verticalScrollBar()->setValue(line);
        else if (line >= first + visible) verticalScrollBar()->setValue(line - visible + 1);
    }
    if (line == m_current) return;
    m_current = line;
    viewport()->update();
    emit currentLineChanged(line);
}

void DPrintView::centerOnLine(int line) {
    const int visible = std::max(1, viewport()->height() / lineHeight());
    verticalScrollBar()->setValue(line - visible / 2);
}

QString DPrintView::selectedText() const {
    if (!hasSelection()) return {};
    const Pos a = std::min(m_anchor, m_cursor), b = std::max(m_anchor, m_cursor);
    QString out;
    for (int l = a.line; l <= b.line; ++l) {
        const QString t = lineText(l);
        const int from = l == a.line ? a.column : 0, to = l == b.line ? b.column : static_cast<int>(t.size());
        out += t.mid(from, to - from);
        if (l != b.line) out += '\n';
    }
    return out;
}

void DPrintView::selectAll() {
    if (m_count == 0) return;
    m_anchor = Pos{0, 0};
    m_cursor = Pos{lineCount() - 1, static_cast<int>(lineText(lineCount() - 1).size())};
    viewport()->update();
}

DPrintView::Pos DPrintView::posAt(const QPoint& p) const {
    Pos pos;
    pos.line = std::clamp(verticalScrollBar()->value() + p.y() / lineHeight(), 0, std::max(0, lineCount() - 1));
    const double cw = QFontMetricsF(font()).horizontalAdvance(QLatin1Char('M'));
    const int col = static_cast<int>(std::lround((p.x() + horizontalScrollBar()->value() - kMargin) / cw));
    pos.column = std::clamp(col, 0, static_cast<int>(lineText(pos.line).size()));
    return pos;
}

void DPrintView::paintEvent(QPaintEvent*) {
    QPainter p(viewport());
    p.setFont(font());
    const QFontMetricsF fm(font());
    const int lh = lineHeight();
    const double cw = fm.horizontalAdvance(QLatin1Char('M'));
    const int first = verticalScrollBar()->value(), dx = horizontalScrollBar()->value();
    const int w = viewport()->width();
    const Pos a = std::min(m_anchor, m_cursor), b = std::max(m_anchor, m_cursor);
    const QPalette& pal = palette();
    int widest = m_widestColumns;
    for (int l = first, y = 0; l < lineCount() && y < viewport()->height(); ++l, y += lh) {
        const QRect row(0, y, w, lh);
        if (m_isHighlighted[l]) p.fillRect(row, QColor::fromRgba(kHighlight));
        const QString t = lineText(l);
        widest = std::max(widest, static_cast<int>(t.size()));
        const QPointF at(kMargin - dx, y + fm.ascent());
        p.setPen(pal.color(QPalette::Text));
        p.drawText(at, t);
        if (hasSelection() && l >= a.line && l <= b.line) {
            const int from = l == a.line ? a.column : 0, to = l == b.line ? b.column : static_cast<int>(t.size()) + 1;
            const QRectF sel(kMargin - dx + from * cw, y, (to - from) * cw, lh);
            p.save();
            p.setClipRect(sel);
            p.fillRect(sel, pal.color(QPalette::Highlight));
            p.setPen(pal.color(QPalette::HighlightedText));
            p.drawText(at, t);
            p.restore();
        }
        if (l == m_current && hasFocus()) {
            p.setPen(QPen(pal.color(QPalette::Mid), 1, Qt::DotLine));
            p.drawRect(row.adjusted(0, 0, -1, -1));
        }
    }
    // Lines made as they are shown may be wider than the source guessed.
    if (widest > m_widestColumns) {
        m_widestColumns = widest;
        QMetaObject::invokeMethod(this, &DPrintView::updateScrollBars, Qt::QueuedConnection);
    }
}

void DPrintView::resizeEvent(QResizeEvent* e) {
    QAbstractScrollArea::resizeEvent(e);
    updateScrollBars();
}

void DPrintView::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return QAbstractScrollArea::mousePressEvent(e);
    const Pos pos = posAt(e->position().toPoint());
    m_cursor = pos;
    if (!(e->modifiers() & Qt::ShiftModifier)) m_anchor = pos;
    viewport()->update();
    setCurrentLine(pos.line);
}

void DPrintView::mouseMoveEvent(QMouseEvent* e) {
    if (!(e->buttons() & Qt::LeftButton)) return;
    const QPoint p = e->position().toPoint();
    // Dragging past the edge scrolls on.
    if (p.y() < 0) verticalScrollBar()->setValue(verticalScrollBar()->value() - 1);
    else if (p.y() > viewport()->height()) verticalScrollBar()->setValue(verticalScrollBar()->value() + 1);
    m_cursor = posAt(p);
    viewport()->update();
}

void DPrintView::keyPressEvent(QKeyEvent* e) {
    if (e->matches(QKeySequence::Copy)) {
        const QString s = hasSelection() ? selectedText() : lineText(m_current);
        if (!s.isEmpty()) QApplication::clipboard()->setText(s);
        return;
    }
    if (e->matches(QKeySequence::SelectAll)) {
        selectAll();
        return;
    }
    const int page = std::max(1, viewport()->height() / lineHeight());
    int line = m_current;
    switch (e->key()) {
    case Qt::Key_Up: line = std::max(0, m_current - 1); break;
    case Qt::Key_Down: line = m_current + 1; break;
    case Qt::Key_PageUp: line = std::max(0, m_current - page); break;
    case Qt::Key_PageDown: line = m_current + page; break;
    case Qt::Key_Home: line = 0; break;
    case Qt::Key_End: line = lineCount() - 1; break;
    default: QAbstractScrollArea::keyPressEvent(e); return;
    }
    m_anchor = m_cursor = Pos{};
    setCurrentLine(std::min(line, lineCount() - 1));
}

} // namespace tl
