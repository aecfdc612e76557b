#include "widgets/TimelinePane.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <set>

namespace tl {

namespace {
struct EditCounts {
    int created = 0, erased = 0, rewired = 0, ops = 0;
};
EditCounts countEdits(const TraceStep& s) {
    EditCounts c;
    for (const GraphEdit& e : s.edits) {
        switch (e.kind) {
        case GraphEdit::Kind::CreateNode: ++c.created; break;
        case GraphEdit::Kind::EraseNode: ++c.erased; break;
        case GraphEdit::Kind::ReplaceVariable:
        case GraphEdit::Kind::SetInput:
        case GraphEdit::Kind::SetOutput: ++c.rewired; break;
        case GraphEdit::Kind::SetOp: ++c.ops; break;
        default: break;
        }
    }
    return c;
}
} // namespace

QString stepChangeSummary(const TraceStep& s) {
    const EditCounts c = countEdits(s);
    QStringList parts;
    if (c.created) parts << QString("+%1").arg(c.created);
    if (c.erased) parts << QString("\u2212%1").arg(c.erased);
    if (c.rewired) parts << QString("\u21c4%1").arg(c.rewired);
    if (c.ops) parts << QString("op\u00d7%1").arg(c.ops);
    // The same shape change on several buffers is said once, with a count.
    std::map<QString, int> shapes;
    std::vector<QString> order;
    bool merged = false, body = false;
    for (const AttributeChange& a : s.attributes) {
        if (a.key == "buffer_shape") {
            const QString t = QString::fromStdString(a.before + "\u2192" + a.after);
            if (!shapes[t]++) order.push_back(t);
        } else if (a.key == "merged_state") merged = true;
        else if (a.key == "inner_graph") body = true;
    }
    // The first change is spelled out and the others counted (the tooltip lists each):
    // a loop with several states would otherwise widen the column until the rewrite's
    // name, which gives way, had no room left.
    if (!order.empty()) {
        const QString& first = order.front();
        parts << (shapes[first] > 1 ? QString("%1 \u00d7%2").arg(first).arg(shapes[first]) : first);
        int others = 0;
        for (const auto& [t, n] : shapes) others += t == first ? 0 : n;
        if (others) parts << QString("+%1 more").arg(others);
    }
    if (merged) parts << "merged";
    if (body) parts << "body";
    return parts.join(" ");
}

QString stepChangeDescription(const TraceStep& s) {
    const EditCounts c = countEdits(s);
    QStringList lines;
    lines << QString("step %1: %2 (phase %3)%4")
                 .arg(s.index + 1)
                 .arg(QString::fromStdString(s.rewrite), QString::fromStdString(s.phase.empty() ? "-" : s.phase))
                 .arg(s.root ? QString(" at node %1").arg(*s.root) : QString());
    QStringList counts;
    if (c.created) counts << QString("%1 nodes created").arg(c.created);
    if (c.erased) counts << QString("%1 erased").arg(c.erased);
    if (c.rewired) counts << QString("%1 inputs rewired").arg(c.rewired);
    if (c.ops) counts << QString("%1 ops replaced").arg(c.ops);
    if (!counts.isEmpty()) lines << counts.join(", ");
    for (const AttributeChange& a : s.attributes) {
        QString t = QString::fromStdString(a.key + ": " + a.before + " \u2192 " + a.after);
        if (t.size() > 160) t = t.left(157) + "\u2026";
        lines << t;
    }
    return lines.join("\n");
}

TimelinePane::TimelinePane(RewriteSession* session, QWidget* parent) : QWidget(parent), m_session(session) {
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName("timelineTree");
    m_tree->setColumnCount(4);
    m_tree->setHeaderLabels({"step", "rewrite", "node", "change"});
    m_tree->setUniformRowHeights(true);
    m_tree->setRootIsDecorated(true);
    // The rewrite's name gives way when the dock is narrow; the change column never does.
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(3, QHeaderView::ResizeToContents);
    m_tree->setTextElideMode(Qt::ElideMiddle);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);

    auto button = [this](QStyle::StandardPixmap icon, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setIcon(style()->standardIcon(icon));
        b->setToolTip(tip);
        b->setAutoRaise(true);
        return b;
    };
    QToolButton* first = button(QStyle::SP_MediaSkipBackward, "First step (Home)");
    QToolButton* prev = button(QStyle::SP_MediaSeekBackward, "Previous step (Left, P)");
    QToolButton* next = button(QStyle::SP_MediaSeekForward, "Next step (Right, N)");
    QToolButton* last = button(QStyle::SP_MediaSkipForward, "Last step (End)");
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName("timelineSlider");
    m_position = new QLabel(this);
    m_position->setMinimumWidth(90);
    auto* nav = new QHBoxLayout;
    nav->setContentsMargins(4, 2, 4, 2);
    for (QToolButton* b : {first, prev, next, last}) nav->addWidget(b);
    nav->addWidget(m_slider, 1);
    nav->addWidget(m_position);

    m_filter = new QLineEdit(this);
    m_filter->setObjectName("timelineFilter");
    m_filter->setPlaceholderText("filter by rewrite or phase");
    m_filter->setClearButtonEnabled(true);
    m_onlySelection = new QCheckBox("touching selection", this);
    m_onlySelection->setToolTip("Show only steps that created, erased, rewired or changed the selected nodes");
    m_hideNoOp = new QCheckBox("hide no-op steps", this);
    m_hideNoOp->setToolTip("Hide steps that change nothing (merging equal constants, an op replaced by an identical one)");
    m_rerun = new QPushButton("Exclude && re-run\u2026", this);
    m_rerun->setToolTip("Choose rewrites to exclude and run the pipeline again on the original graph");
    auto* filterRow = new QHBoxLayout;
    filterRow->setContentsMargins(4, 2, 4, 2);
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_rerun);
    auto* checks = new QHBoxLayout;
    checks->setContentsMargins(4, 0, 4, 2);
    checks->addWidget(m_onlySelection);
    checks->addWidget(m_hideNoOp);
    checks->addStretch(1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(nav);
    layout->addLayout(filterRow);
    layout->addLayout(checks);
    layout->addWidget(m_tree, 1);

    connect(first, &QToolButton::clicked, this, &TimelinePane::goFirst);
    connect(prev, &QToolButton::clicked, this, &TimelinePane::goPrevious);
    connect(next, &QToolButton::clicked, this, &TimelinePane::goNext);
    connect(last, &QToolButton::clicked, this, &TimelinePane::goLast);
    connect(m_rerun, &QPushButton::clicked, this, &TimelinePane::rerunRequested);
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) {
        if (!m_updating) m_session->setCurrentStep(v);
    });
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (m_updating || !item) return;
        const QVariant k = item->data(0, Qt::UserRole);
        if (k.isValid()) m_session->setCurrentStep(k.toInt());
    });
    connect(m_filter, &QLineEdit::textChanged, this, &TimelinePane::applyFilters);
    connect(m_onlySelection, &QCheckBox::toggled, this, &TimelinePane::applyFilters);
    connect(m_hideNoOp, &QCheckBox::toggled, this, &TimelinePane::applyFilters);
    connect(m_session, &RewriteSession::opened, this, &TimelinePane::rebuild);
    connect(m_session, &RewriteSession::currentStepChanged, this, &TimelinePane::showCurrent);
    connect(m_session, &RewriteSession::selectionChanged, this, [this] {
        if (m_onlySelection->isChecked()) applyFilters();
    });
}

void TimelinePane::rebuild() {
    m_updating = true;
    m_tree->clear();
    m_rows.clear();
    m_groups.clear();
    m_failed.clear();
    m_noOp.assign(static_cast<size_t>(m_session->stepCount()) + 1, 0);
    for (int k = 1; k <= m_session->stepCount(); ++k) m_noOp[k] = m_session->isNoOpStep(k);
    auto* original = new QTreeWidgetItem(m_tree, {"0", "original graph", "", ""});
    original->setData(0, Qt::UserRole, 0);
    m_rows.push_back(original);
    auto bold = [](QTreeWidgetItem* item) {
        QFont f = item->font(1);
        f.setBold(true);
        item->setFont(1, f);
    };
    for (const PhaseGroup& g : m_session->phases()) {
        auto* group = new QTreeWidgetItem(m_tree, {"", QString("%1 (%2)").arg(QString::fromStdString(g.phase.empty() ? "(no phase)" : g.phase)).arg(g.steps.size())});
        bold(group);
        group->setFlags(Qt::ItemIsEnabled);
        m_groups.push_back(group);
        // Runs of one rewrite (277 merges in a row) under a row of their own.
        for (size_t i = 0; i < g.steps.size();) {
            size_t j = i + 1;
            const std::string& rewrite = m_session->step(g.steps[i]).rewrite;
            while (j < g.steps.size() && m_session->step(g.steps[j]).rewrite == rewrite) ++j;
            QTreeWidgetItem* parent = group;
            if (static_cast<int>(j - i) >= kRunGroup) {
                const int first = g.steps[i], last = g.steps[j - 1];
                auto* run = new QTreeWidgetItem(group, {QString("%1\u2013%2").arg(first).arg(last), QString("%1 \u00d7%2").arg(QString::fromStdString(rewrite)).arg(j - i)});
                run->setFlags(Qt::ItemIsEnabled);
                run->setToolTip(1, QString("%1 consecutive steps of %2; expand to see each").arg(j - i).arg(QString::fromStdString(rewrite)));
                m_groups.push_back(run);
                parent = run;
            }
            for (size_t k = i; k < j; ++k) {
                const int step = g.steps[k];
                const TraceStep& s = m_session->step(step);
                auto* row = new QTreeWidgetItem(parent, {QString::number(step), QString::fromStdString(s.rewrite),
                                                         s.root ? QString::number(*s.root) : QString(), stepChangeSummary(s)});
                row->setData(0, Qt::UserRole, step);
                const QString tip = stepChangeDescription(s);
                for (int c = 0; c < 4; ++c) row->setToolTip(c, tip);
                if (m_noOp[step]) row->setForeground(3, QColor(0x90, 0x96, 0x9e));
                m_rows.push_back(row);
            }
            if (parent != group) parent->setExpanded(j - i < 12);
            i = j;
        }
        group->setExpanded(true);
    }
    m_slider->setRange(0, m_session->stepCount());
    m_updating = false;
    applyFilters();
    showCurrent();
}

QTreeWidgetItem* TimelinePane::rowOf(int k) const { return k >= 0 && k < static_cast<int>(m_rows.size()) ? m_rows[k] : nullptr; }

void TimelinePane::setFailedSteps(std::map<int, QString> failed) {
    // Back to normal first: a new verification replaces the old marks.
    for (const auto& [k, why] : m_failed)
        if (QTreeWidgetItem* row = rowOf(k)) {
            for (int c = 0; c < 4; ++c) row->setBackground(c, QBrush());
            row->setIcon(0, QIcon());
            const QString tip = stepChangeDescription(m_session->step(k));
            for (int c = 0; c < 4; ++c) row->setToolTip(c, tip);
        }
    m_failed = std::move(failed);
    for (const auto& [k, why] : m_failed)
        if (QTreeWidgetItem* row = rowOf(k)) {
            for (int c = 0; c < 4; ++c) row->setBackground(c, QColor(0xfd, 0xe1, 0xe3));
            row->setIcon(0, style()->standardIcon(QStyle::SP_MessageBoxWarning));
            const QString tip = stepChangeDescription(m_session->step(k)) + "\n\nOutputs differ from the original: " + why;
            for (int c = 0; c < 4; ++c) row->setToolTip(c, tip);
            // A group row holding it is opened, so the mark is seen.
            for (QTreeWidgetItem* p = row->parent(); p; p = p->parent()) p->setExpanded(true);
        }
}

bool TimelinePane::isShown(int k) const {
    if (k <= 0) return true;
    const TraceStep& s = m_session->step(k);
    const QString f = m_filter->text().trimmed();
    if (!f.isEmpty() && !QString::fromStdString(s.rewrite).contains(f, Qt::CaseInsensitive) &&
        !QString::fromStdString(s.phase).contains(f, Qt::CaseInsensitive))
        return false;
    if (m_hideNoOp->isChecked() && k < static_cast<int>(m_noOp.size()) && m_noOp[k]) return false;
    if (m_onlySelection->isChecked()) {
        const auto& sel = m_session->selection();
        if (sel.empty() || !m_session->stepTouches(k, std::set<NodeId>(sel.begin(), sel.end()))) return false;
    }
    return true;
}

int TimelinePane::shownCount() const {
    int n = 0;
    for (size_t k = 1; k < m_rows.size(); ++k) n += !m_rows[k]->isHidden();
    return n;
}

void TimelinePane::applyFilters() {
    for (size_t k = 1; k < m_rows.size(); ++k) m_rows[k]->setHidden(!isShown(static_cast<int>(k)));
    // Innermost groups first (runs are listed after their phase), so a phase sees its runs' state.
    for (auto it = m_groups.rbegin(); it != m_groups.rend(); ++it) {
        QTreeWidgetItem* g = *it;
        bool any = false;
        for (int i = 0; i < g->childCount() && !any; ++i) any = !g->child(i)->isHidden();
        g->setHidden(!any);
    }
}

int TimelinePane::neighbour(int from, int dir) const {
    for (int k = from + dir; k >= 0 && k <= m_session->stepCount(); k += dir)
        if (isShown(k)) return k;
    return from;
}

void TimelinePane::goFirst() { m_session->first(); }
void TimelinePane::goLast() {
    // The last step the filters show (the position after it).
    m_session->setCurrentStep(neighbour(m_session->stepCount() + 1, -1));
}
void TimelinePane::goPrevious() { m_session->setCurrentStep(neighbour(m_session->currentStep(), -1)); }
void TimelinePane::goNext() { m_session->setCurrentStep(neighbour(m_session->currentStep(), +1)); }

void TimelinePane::showCurrent() {
    const int k = m_session->currentStep();
    m_updating = true;
    m_slider->setValue(k);
    if (k >= 0 && k < static_cast<int>(m_rows.size())) {
        // The current step is always visible, inside a closed run too.
        for (QTreeWidgetItem* p = m_rows[k]->parent(); p; p = p->parent()) p->setExpanded(true);
        m_tree->setCurrentItem(m_rows[k]);
        m_tree->scrollToItem(m_rows[k]);
    }
    m_position->setText(QString("step %1 / %2").arg(k).arg(m_session->stepCount()));
    m_updating = false;
}

} // namespace tl
