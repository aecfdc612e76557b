#pragma once
// A read-only view of many lines of fixed-width text that draws only the lines
// in sight. The dprint listing of a 5,000-node graph has thousands of lines, and
// a step renames the [id X] labels of every line below the first change: a text
// document re-laid out that stretch on every step, this view swaps the lines.
// Lines are selected by clicking (the current line), text by dragging, and
// copied with Ctrl+C.
#include <QAbstractScrollArea>

#include <functional>
#include <string>
#include <vector>

namespace tl {

class DPrintView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit DPrintView(QWidget* parent = nullptr);

    /// Replaces the text (UTF-8, one string per line), keeping the scroll position
    /// and the current line where they still exist.
    void setLines(std::vector<std::string> lines);
    /// The same for `count` lines that `line(i)` builds when they are shown (a long
    /// listing need not be built whole); `widestColumns` sizes the scroll range
    /// until a wider line is shown.
    void setSource(int count, std::function<std::string(int)> line, int widestColumns);
    int lineCount() const { return m_count; }
    QString lineText(int line) const;
    /// Every line, joined by '\n'.
    QString text() const;

    /// Lines drawn with a highlight (the selected nodes' lines).
    void setHighlighted(std::vector<int> lines);
    const std::vector<int>& highlighted() const { return m_highlighted; }

    int currentLine() const { return m_current; }
    /// Moves the current line (clamped), scrolls it into view, emits currentLineChanged.
    void setCurrentLine(int line);
    /// Scrolls so `line` is in the middle of the view.
    void centerOnLine(int line);
    /// The dragged text selection (empty when none).
    QString selectedText() const;
    void selectAll();

signals:
    /// The user (or setCurrentLine) moved the current line.
    void currentLineChanged(int line);

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;

private:
    struct Pos {
        int line = 0, column = 0;  // column in QChars of lineText(line)
        bool operator<(const Pos& o) const { return line != o.line ? line < o.line : column < o.column; }
        bool operator==(const Pos& o) const { return line == o.line && column == o.column; }
    };
    Pos posAt(const QPoint& viewportPoint) const;
    int lineHeight() const;
    void updateScrollBars();
    bool hasSelection() const { return !(m_anchor == m_cursor); }

    int m_count = 0;
    std::function<std::string(int)> m_line;
    int m_widestColumns = 0;  // of the widest line, in characters
    std::vector<int> m_highlighted;
    std::vector<char> m_isHighlighted;  // per line
    int m_current = -1;
    Pos m_anchor, m_cursor;  // the text selection, anchor to cursor
};

} // namespace tl
