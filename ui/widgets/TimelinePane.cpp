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
QString summaryOf(const TraceStep& s) {
    int created = 0, erased = 0, rewired = 0, ops = 0;
    for (const GraphEdit& e : s.edits) {
        switch (e.kind) {
        case GraphEdit::Kind::CreateNode: ++created; break;
        case GraphEdit::Kind::EraseNode: ++erased; break;
        case GraphEdit::Kind::ReplaceVariable:
        case GraphEdit::Kind::SetInput:
        case GraphEdit::Kind::SetOutput: ++rewired; break;
        case GraphEdit::Kind::SetOp: ++ops; break;
        default: break;
        }
    }
    QStringList parts;
    if (created) parts << QString("+%1").arg(created);
    if (erased) parts << QString("\u2212%1").arg(erased);
    if (rewired) parts << QString("\u21c4%1").arg(rewired);
    if (ops) parts << QString("op\u00d7%1").arg(ops);
    for (const AttributeChange& a : s.attributes) {
        if (a.key == "buffer_shape") parts << QString::fromStdString(a.before + "\u2192" + a.after);
        else if (a.key == "merged_state") parts << "merged";
    }
    return parts.join(" ");
}
} // namespace

TimelinePane::TimelinePane(RewriteSession* session, QWidget* parent) : QWidget(parent), m_session(session) {
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName("timelineTree");
    m_tree->setColumnCount(4);
    m_tree->setHeaderLabels({"step", "rewrite", "node", "change"});
    m_tree->setUniformRowHeights(true);
    m_tree->setRootIsDecorated(true);
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
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
    m_hideNoOp->setToolTip("Hide steps that changed nothing visible");
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
    auto* original = new QTreeWidgetItem(m_tree, {"0", "original graph", "", ""});
    original->setData(0, Qt::UserRole, 0);
    m_rows.push_back(original);
    for (const PhaseGroup& g : m_session->phases()) {
        auto* group = new QTreeWidgetItem(m_tree, {"", QString("%1 (%2)").arg(QString::fromStdString(g.phase.empty() ? "(no phase)" : g.phase)).arg(g.steps.size())});
        QFont f = group->font(1);
        f.setBold(true);
        group->setFont(1, f);
        group->setFlags(Qt::ItemIsEnabled);
        m_groups.push_back(group);
        for (int k : g.steps) {
            const TraceStep& s = m_session->step(k);
            auto* row = new QTreeWidgetItem(group, {QString::number(k), QString::fromStdString(s.rewrite),
                                                    s.root ? QString::number(*s.root) : QString(), summaryOf(s)});
            row->setData(0, Qt::UserRole, k);
            row->setToolTip(1, QString::fromStdString(s.phase + " / " + s.rewrite));
            m_rows.push_back(row);
        }
        group->setExpanded(true);
    }
    m_slider->setRange(0, m_session->stepCount());
    m_updating = false;
    applyFilters();
    showCurrent();
}

bool TimelinePane::isShown(int k) const {
    if (k <= 0) return true;
    const TraceStep& s = m_session->step(k);
    const QString f = m_filter->text().trimmed();
    if (!f.isEmpty() && !QString::fromStdString(s.rewrite).contains(f, Qt::CaseInsensitive) &&
        !QString::fromStdString(s.phase).contains(f, Qt::CaseInsensitive))
        return false;
    if (m_hideNoOp->isChecked() && m_session->isNoOpStep(k)) return false;
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
    for (QTreeWidgetItem* g : m_groups) {
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
        m_tree->setCurrentItem(m_rows[k]);
        m_tree->scrollToItem(m_rows[k]);
    }
    m_position->setText(QString("step %1 / %2").arg(k).arg(m_session->stepCount()));
    m_updating = false;
}

} // namespace tl
