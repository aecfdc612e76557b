#pragma once
// The strip above the canvas saying which step is shown and what it changed
// (the scene's banner, which exports draw in the picture): always in view,
// never over a node, never cut by the window's edge; lines wrap, and the colour
// key sits under them.
#include <QWidget>

class QLabel;

namespace tl {

class StepHeader : public QWidget {
    Q_OBJECT
public:
    explicit StepHeader(QWidget* parent = nullptr);
    /// The banner's lines; the first is the title.
    void setLines(const QStringList& lines);
    const QStringList& lines() const { return m_lines; }

private:
    QLabel* m_text;
    QWidget* m_legend;
    QStringList m_lines;
};

} // namespace tl
