#pragma once
// The dprint text of the current position, byte for byte what PyTensor's
// debugprint prints. Clicking a line selects its node on the canvas; selecting
// on the canvas highlights and scrolls to the node's lines.
#include "io/DPrint.h"
#include "session/RewriteSession.h"

#include <QWidget>

class QCheckBox;

namespace tl {

class DPrintView;

class DPrintPane : public QWidget {
    Q_OBJECT
public:
    DPrintPane(RewriteSession* session, QWidget* parent = nullptr);
    DPrintView* view() const { return m_view; }
    /// The text shown (for export and tests).
    QString text() const;
    DPrintOptions options() const;
    /// Outer node shown on `line` (0-based): the line's node, or the Scan whose body the line is in.
    NodeId nodeOfLine(int line) const;
    /// The node `line` shows by path (a body node in the `Inner graphs:` section;
    /// a placeholder line stands for the node whose body it is); invalid for none.
    NodeRef refOfLine(int line) const;
    /// Lines highlighted for the current selection.
    const std::vector<int>& highlightedLines() const { return m_highlighted; }

public slots:
    void refresh();

private:
    void onCursorMoved(int line);
    void showSelection();

    RewriteSession* m_session;
    DPrintView* m_view;
    QCheckBox* m_types;
    QCheckBox* m_shapes;
    QCheckBox* m_destroy;
    QCheckBox* m_opInfo;
    std::vector<NodeRef> m_lineRef;  // per line: the node it shows, by path
    std::vector<int> m_highlighted;
    bool m_updating = false;
};

} // namespace tl
