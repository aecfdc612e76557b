#pragma once
// "Exclude rewrites and re-run": the pipeline's rewrites by phase, each with a
// check box (unchecked: excluded), how often it fired on the open graph, a
// search field, "only those that fired", and a reset to the defaults.
#include "rewrite/Pipeline.h"

#include <QDialog>

#include <map>
#include <set>
#include <string>

class QCheckBox;
class QLineEdit;
class QTreeWidget;

namespace tl {

class ExcludeDialog : public QDialog {
    Q_OBJECT
public:
    /// `fired`: steps per rewrite name in the open trace; `excluded`: what the trace was run without.
    ExcludeDialog(const std::vector<RewriteDescription>& rewrites, const std::map<std::string, int>& fired,
                  const std::set<std::string>& excluded, QWidget* parent = nullptr);
    /// The rewrites left unchecked.
    std::set<std::string> excluded() const;
    QLineEdit* searchEdit() const { return m_search; }
    QTreeWidget* tree() const { return m_tree; }
    /// Checks every rewrite that runs by default and unchecks the others.
    void resetToDefaults();
    /// Number of rewrite rows the filters show.
    int shownCount() const;

private:
    void applyFilter();
    QLineEdit* m_search;
    QCheckBox* m_onlyFired;
    QTreeWidget* m_tree;
    std::map<std::string, bool> m_defaults;
};

} // namespace tl
