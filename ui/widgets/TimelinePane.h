#pragma once
// The timeline: steps grouped by phase (and long runs of one rewrite grouped
// again, expandable), a slider, first/previous/next/last, filters (rewrite
// name, steps touching the selection, hide steps that change nothing), and the
// steps whose outputs differ from the original marked after a verification.
// Next/previous skip the steps the filters hide.
#include "session/RewriteSession.h"

#include <QWidget>

#include <map>

class QCheckBox;
class QLabel;
class QLineEdit;
class QSlider;
class QTreeWidget;
class QTreeWidgetItem;
class QPushButton;

namespace tl {

/// What the change column says about a step ("+7 −9 ⇄2 (11, 7)→(1, 7) ×2"), and its tooltip in full.
QString stepChangeSummary(const TraceStep& s);
QString stepChangeDescription(const TraceStep& s);

class TimelinePane : public QWidget {
    Q_OBJECT
public:
    /// Runs of at least this many consecutive steps of one rewrite share a group row.
    static constexpr int kRunGroup = 4;

    TimelinePane(RewriteSession* session, QWidget* parent = nullptr);
    /// True when step k (1-based; 0 is always shown) passes the filters.
    bool isShown(int k) const;
    QTreeWidget* tree() const { return m_tree; }
    QLineEdit* filterEdit() const { return m_filter; }
    QCheckBox* onlySelectionBox() const { return m_onlySelection; }
    QCheckBox* hideNoOpBox() const { return m_hideNoOp; }
    QSlider* slider() const { return m_slider; }
    /// Number of step rows currently shown.
    int shownCount() const;
    /// The row of position k (0 = the original graph).
    QTreeWidgetItem* rowOf(int k) const;
    /// Marks the steps whose outputs differ from the original (step -> why); empty clears.
    void setFailedSteps(std::map<int, QString> failed);
    const std::map<int, QString>& failedSteps() const { return m_failed; }

public slots:
    void goFirst();
    void goPrevious();
    void goNext();
    void goLast();
    void rebuild();
    void applyFilters();

signals:
    /// "Exclude rewrites and re-run" was pressed.
    void rerunRequested();

private:
    void showCurrent();
    int neighbour(int from, int dir) const;

    RewriteSession* m_session;
    QTreeWidget* m_tree;
    QSlider* m_slider;
    QLabel* m_position;
    QLineEdit* m_filter;
    QCheckBox* m_onlySelection;
    QCheckBox* m_hideNoOp;
    QPushButton* m_rerun;
    std::vector<QTreeWidgetItem*> m_rows;  // per position (0 = original)
    std::vector<QTreeWidgetItem*> m_groups;  // phases and runs, outermost first
    std::vector<char> m_noOp;                // per position, cached when the trace opens
    std::map<int, QString> m_failed;
    bool m_updating = false;
};

} // namespace tl
