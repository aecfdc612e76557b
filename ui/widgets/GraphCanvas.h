#pragma once
// The graph canvas: the scene of the session's current position, laid out off
// the GUI thread, the picture of every position kept so stepping either way or
// jumping shows each step as it was shown, Scan clusters and chains expanded on
// demand, the step's header and the notices above the view, search (Ctrl+F),
// and a minimap.
#include "layout/GraphLayout.h"
#include "layout/LayoutEngine.h"
#include "layout/LayoutHistory.h"
#include "scene/GraphScene.h"
#include "session/RewriteSession.h"
#include "widgets/GraphView.h"

#include <QElapsedTimer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QToolButton;

namespace tl {

class NoticeBar;
class StepHeader;

class GraphCanvas : public QWidget {
    Q_OBJECT
public:
    GraphCanvas(RewriteSession* session, QWidget* parent = nullptr);

    GraphScene* scene() const { return m_scene; }
    GraphView* view() const { return m_view; }
    NoticeBar* notices() const { return m_notices; }
    StepHeader* header() const { return m_header; }
    ExpansionState& expansion() { return m_expansion; }
    LayoutSettings& layoutSettings() { return m_settings; }
    /// True while a full layout runs in the background.
    bool isLayoutPending() const { return m_pending != nullptr; }
    /// How the last layout was made ("incremental: 2 placed, 417 kept" / "dot: 3 parts" ...), and its time.
    const QString& lastLayoutInfo() const { return m_lastInfo; }
    /// The pictures kept so far (one per position shown).
    const LayoutHistory& history() const { return m_history; }
    /// Text written on nodes of the graphs opened from now on (why a node is opaque).
    void setNodeNotes(NodeNotes notes) { m_notes = std::move(notes); }
    /// The next graph opened (the same program in another buffer mode) starts from
    /// the picture on screen, so the nodes both show stay where they are.
    void keepPictureOnNextOpen() { m_keepPicture = true; }

public slots:
    /// Lays the current position out again from scratch.
    void relayout();
    void cancelLayout();
    void showSearch();
    void findNext();
    void findPrevious();
    /// Expands or collapses the cluster / chain / Scan with this key.
    void toggleExpansion(const QString& key);
    void expandAll();
    void collapseAll();
    /// Scrolls to the selected nodes.
    void revealSelection();

signals:
    /// A new layout is on screen.
    void layoutReady();
    void layoutProgress(int done, int total);
    void layoutStarted();
    void statusMessage(const QString& text);

private:
    enum class Reason { Open, Step, Expansion, Relayout };
    void rebuild(Reason reason);
    /// Carries `picture`, the picture of step `from`, through the steps up to (not
    /// including) step `to`, either way, as stepping would have placed them; false
    /// when they would need fresh layouts of more than a few hundred boxes, or more
    /// than a few of them, or the walk is too long for pictures of `boxes` boxes.
    bool walkPicture(int from, int to, size_t boxes, PositionCache& picture);
    void display(std::shared_ptr<const VisualGraph> vg, GraphLayout layout, const Highlights& h, int key, int parent);
    void onLayoutFinished(quint64 job, std::shared_ptr<const VisualGraph> vg, std::shared_ptr<const GraphLayout> layout);
    void runSearch();
    int pictureKey() const;

    RewriteSession* m_session;
    GraphScene* m_scene;
    GraphView* m_view;
    NoticeBar* m_notices;
    StepHeader* m_header;
    LayoutEngine* m_engine;
    QWidget* m_searchBar;
    QLineEdit* m_searchEdit;
    QLabel* m_searchInfo;
    LayoutHistory m_history;
    PositionCache m_picture;  // what is on screen (with the keys of the pictures it came from)
    int m_pictureAt = -1;     // its pictureKey(), -1: nothing shown
    ExpansionState m_expansion;
    LayoutSettings m_settings;
    NodeNotes m_notes;
    bool m_keepPicture = false;
    std::shared_ptr<const VisualGraph> m_pending;
    quint64 m_pendingJob = 0;
    Highlights m_pendingHighlights;
    int m_pendingKey = -1;
    bool m_pendingAlign = false;
    bool m_firstView = true;
    std::vector<int> m_hits;
    int m_hitIndex = -1;
    QString m_lastInfo;
    QElapsedTimer m_layoutClock;
};

} // namespace tl
