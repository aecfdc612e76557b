#include "widgets/ExcludeDialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace tl {

ExcludeDialog::ExcludeDialog(const std::vector<RewriteDescription>& rewrites, const std::map<std::string, int>& fired,
                             const std::set<std::string>& excluded, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle("Exclude rewrites and re-run");
    setObjectName("excludeDialog");
    m_search = new QLineEdit(this);
    m_search->setObjectName("excludeSearch");
    m_search->setPlaceholderText("search rewrites, phases, tags");
    m_search->setClearButtonEnabled(true);
    m_onlyFired = new QCheckBox("only those that fired here", this);
    m_onlyFired->setObjectName("excludeOnlyFired");
    auto* reset = new QPushButton("Reset to defaults", this);
    reset->setObjectName("excludeReset");
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName("excludeTree");
    m_tree->setColumnCount(3);
    m_tree->setHeaderLabels({"rewrite", "fired here", "tags"});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->setUniformRowHeights(true);
    std::map<std::string, QTreeWidgetItem*> phases;
    for (const RewriteDescription& d : rewrites) {
        QTreeWidgetItem*& phase = phases[d.phase];
        if (!phase) {
            phase = new QTreeWidgetItem(m_tree, {QString::fromStdString(d.phase)});
            QFont f = phase->font(0);
            f.setBold(true);
            phase->setFont(0, f);
            phase->setFlags(Qt::ItemIsEnabled);
            phase->setExpanded(true);
        }
        QStringList tags;
        for (const std::string& t : d.tags) tags << QString::fromStdString(t);
        auto* item = new QTreeWidgetItem(phase, {QString::fromStdString(d.name), QString(), tags.join(", ")});
        item->setData(0, Qt::UserRole, QString::fromStdString(d.name));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(0, d.enabledByDefault && !excluded.count(d.name) ? Qt::Checked : Qt::Unchecked);
        m_defaults[d.name] = d.enabledByDefault;
        // What fired on this graph is what excluding changes: marked and counted.
        if (auto it = fired.find(d.name); it != fired.end() && it->second > 0) {
            item->setText(1, QString("\u2713 %1 step%2").arg(it->second).arg(it->second == 1 ? "" : "s"));
            QFont f = item->font(0);
            f.setBold(true);
            item->setFont(0, f);
            item->setForeground(1, QColor(0x1a, 0x9e, 0x3f));
        }
        item->setToolTip(0, QString("phase %1; tags: %2%3")
                                .arg(QString::fromStdString(d.phase), tags.join(", "))
                                .arg(d.enabledByDefault ? QString() : QString("; off by default")));
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText("Re-run");
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(reset, &QPushButton::clicked, this, &ExcludeDialog::resetToDefaults);
    connect(m_search, &QLineEdit::textChanged, this, &ExcludeDialog::applyFilter);
    connect(m_onlyFired, &QCheckBox::toggled, this, &ExcludeDialog::applyFilter);
    auto* top = new QHBoxLayout;
    top->addWidget(m_search, 1);
    top->addWidget(m_onlyFired);
    top->addWidget(reset);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel("Unchecked rewrites are excluded; the pipeline runs again on the original graph.", this));
    layout->addLayout(top);
    layout->addWidget(m_tree, 1);
    layout->addWidget(buttons);
    resize(620, 640);
}

void ExcludeDialog::applyFilter() {
    const QString t = m_search->text().trimmed();
    for (int p = 0; p < m_tree->topLevelItemCount(); ++p) {
        QTreeWidgetItem* phase = m_tree->topLevelItem(p);
        const bool phaseMatches = !t.isEmpty() && phase->text(0).contains(t, Qt::CaseInsensitive);
        bool any = false;
        for (int i = 0; i < phase->childCount(); ++i) {
            QTreeWidgetItem* item = phase->child(i);
            bool show = t.isEmpty() || phaseMatches || item->text(0).contains(t, Qt::CaseInsensitive) || item->text(2).contains(t, Qt::CaseInsensitive);
            if (m_onlyFired->isChecked() && item->text(1).isEmpty()) show = false;
            item->setHidden(!show);
            any = any || show;
        }
        phase->setHidden(!any);
    }
}

int ExcludeDialog::shownCount() const {
    int n = 0;
    for (int p = 0; p < m_tree->topLevelItemCount(); ++p)
        for (int i = 0; i < m_tree->topLevelItem(p)->childCount(); ++i) n += !m_tree->topLevelItem(p)->child(i)->isHidden();
    return n;
}

void ExcludeDialog::resetToDefaults() {
    for (int p = 0; p < m_tree->topLevelItemCount(); ++p)
        for (int i = 0; i < m_tree->topLevelItem(p)->childCount(); ++i) {
            QTreeWidgetItem* item = m_tree->topLevelItem(p)->child(i);
            const std::string name = item->data(0, Qt::UserRole).toString().toStdString();
            item->setCheckState(0, m_defaults[name] ? Qt::Checked : Qt::Unchecked);
        }
}

std::set<std::string> ExcludeDialog::excluded() const {
    std::set<std::string> out;
    for (int p = 0; p < m_tree->topLevelItemCount(); ++p)
        for (int i = 0; i < m_tree->topLevelItem(p)->childCount(); ++i) {
            QTreeWidgetItem* item = m_tree->topLevelItem(p)->child(i);
            if (item->checkState(0) == Qt::Unchecked) out.insert(item->data(0, Qt::UserRole).toString().toStdString());
        }
    return out;
}

} // namespace tl
