#pragma once
// The dprint text of the current position, byte for byte what PyTensor's
// debugprint prints. Clicking a line selects its node on the canvas; selecting
// on the canvas highlights and scrolls to the node's lines.
#include "io/DPrint.h"
#include "session/RewriteSession.h"

#include <QFuture>
#include <QThreadPool>
#include <QWidget>

#include <memory>

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
    /// What refresh shows: the walked listing (texts made when shown) and each
    /// line's node by path. Made from the graph alone, on any thread.
    struct Walk {
        std::shared_ptr<const DPrintListing> listing;
        std::vector<NodeRef> refs;
        int widest = 0;
        std::string error;  // the printer failed: nothing else is set
    };
    static Walk walk(const Graph& g, const DPrintOptions& options);
    /// Starts walking the new position's graph on the pane's own thread, while
    /// the canvas and the other panes update; refresh() takes the result.
    void startWalk();
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
    QThreadPool m_walker;  // one thread: a walk never waits behind a layout
    QFuture<Walk> m_walk;
    int m_walkStep = -1, m_walkOpen = -1;  // the position m_walk reads
};

} // namespace tl
