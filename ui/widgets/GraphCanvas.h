#pragma once
// The graph canvas: the scene of the session's current position, laid out off
// the GUI thread, positions kept stable while stepping, Scan clusters and
// chains expanded on demand, search (Ctrl+F) and a minimap.
#include "layout/GraphLayout.h"
#include "layout/LayoutEngine.h"
#include "scene/GraphScene.h"
#include "session/RewriteSession.h"
#include "widgets/GraphView.h"

#include <QElapsedTimer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QToolButton;

namespace tl {

class GraphCanvas : public QWidget {
    Q_OBJECT
public:
    GraphCanvas(RewriteSession* session, QWidget* parent = nullptr);

    GraphScene* scene() const { return m_scene; }
    GraphView* view() const { return m_view; }
    ExpansionState& expansion() { return m_expansion; }
    LayoutSettings& layoutSettings() { return m_settings; }
    /// True while a full layout runs in the background.
    bool isLayoutPending() const { return m_pending != nullptr; }
    /// How the last layout was made ("incremental: 2 placed, 417 kept" / "dot: 3 parts" ...), and its time.
    const QString& lastLayoutInfo() const { return m_lastInfo; }

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
    void rebuild(bool forceFull);
    void apply(std::shared_ptr<const VisualGraph> vg, const GraphLayout& layout, const Highlights& h);
    void onLayoutFinished(quint64 job, std::shared_ptr<const VisualGraph> vg, std::shared_ptr<const GraphLayout> layout);
    void runSearch();

    RewriteSession* m_session;
    GraphScene* m_scene;
    GraphView* m_view;
    LayoutEngine* m_engine;
    QWidget* m_searchBar;
    QLineEdit* m_searchEdit;
    QLabel* m_searchInfo;
    PositionCache m_cache;
    ExpansionState m_expansion;
    LayoutSettings m_settings;
    std::shared_ptr<const VisualGraph> m_pending;
    quint64 m_pendingJob = 0;
    Highlights m_pendingHighlights;
    bool m_fitAfterLayout = true;
    std::vector<int> m_hits;
    int m_hitIndex = -1;
    QString m_lastInfo;
    QElapsedTimer m_layoutClock;
};

} // namespace tl
