#pragma once
// The timeline: steps grouped by phase, a slider, first/previous/next/last,
// and filters (rewrite name, steps touching the selection, hide no-op steps).
// Next/previous skip the steps the filters hide.
#include "session/RewriteSession.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QSlider;
class QTreeWidget;
class QTreeWidgetItem;
class QPushButton;

namespace tl {

class TimelinePane : public QWidget {
    Q_OBJECT
public:
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
    std::vector<QTreeWidgetItem*> m_groups;
    bool m_updating = false;
};

} // namespace tl
