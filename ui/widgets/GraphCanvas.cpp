#include "widgets/GraphCanvas.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QVBoxLayout>

namespace tl {

GraphCanvas::GraphCanvas(RewriteSession* session, QWidget* parent)
    : QWidget(parent), m_session(session), m_scene(new GraphScene(this)), m_view(new GraphView(this)), m_engine(new LayoutEngine(this)) {
    m_view->setScene(m_scene);
    m_view->setObjectName("graphView");

    m_searchBar = new QWidget(this);
    auto* sl = new QHBoxLayout(m_searchBar);
    sl->setContentsMargins(4, 2, 4, 2);
    m_searchEdit = new QLineEdit(m_searchBar);
    m_searchEdit->setObjectName("searchEdit");
    m_searchEdit->setPlaceholderText("Find node by op name, name or id (#17)");
    m_searchEdit->setClearButtonEnabled(true);
    m_searchInfo = new QLabel(m_searchBar);
    auto* prev = new QToolButton(m_searchBar);
    prev->setText("\u25b2");
    prev->setToolTip("Previous match (Shift+F3)");
    auto* next = new QToolButton(m_searchBar);
    next->setText("\u25bc");
    next->setToolTip("Next match (F3, Enter)");
    auto* close = new QToolButton(m_searchBar);
    close->setText("\u2715");
    close->setToolTip("Close (Esc)");
    sl->addWidget(new QLabel("Find:", m_searchBar));
    sl->addWidget(m_searchEdit, 1);
    sl->addWidget(m_searchInfo);
    sl->addWidget(prev);
    sl->addWidget(next);
    sl->addWidget(close);
    m_searchBar->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_searchBar);
    layout->addWidget(m_view, 1);

    connect(m_searchEdit, &QLineEdit::textChanged, this, &GraphCanvas::runSearch);
    connect(m_searchEdit, &QLineEdit::returnPressed, this, &GraphCanvas::findNext);
    connect(next, &QToolButton::clicked, this, &GraphCanvas::findNext);
    connect(prev, &QToolButton::clicked, this, &GraphCanvas::findPrevious);
    connect(close, &QToolButton::clicked, this, [this] {
        m_searchEdit->clear();
        m_searchBar->hide();
        m_view->setFocus();
    });

    connect(m_session, &RewriteSession::opened, this, [this] {
        m_cache.clear();
        m_expansion = ExpansionState{};
        m_fitAfterLayout = true;
        rebuild(true);
    });
    connect(m_session, &RewriteSession::currentStepChanged, this, [this] { rebuild(false); });
    connect(m_session, &RewriteSession::selectionChanged, this, [this] { m_scene->selectNodes(m_session->selection()); });
    // The session is the context: the window may delete it before the canvas.
    connect(m_scene, &GraphScene::selectionChangedByUser, m_session, [this](std::vector<NodeId> nodes) { m_session->setSelection(std::move(nodes)); });
    connect(m_scene, &GraphScene::toggleExpansion, this, &GraphCanvas::toggleExpansion);
    connect(m_scene, &QGraphicsScene::changed, m_view->minimap(), &Minimap::sceneChanged);
    connect(m_engine, &LayoutEngine::finished, this, &GraphCanvas::onLayoutFinished);
    connect(m_engine, &LayoutEngine::progress, this, [this](quint64, int done, int total) { emit layoutProgress(done, total); });
    connect(m_engine, &LayoutEngine::cancelled, this, [this](quint64 job) {
        // Only the job the canvas waits for matters; superseded ones are expected.
        if (m_pending && job == m_pendingJob && !m_engine->isBusy()) {
            m_pending.reset();
            emit statusMessage("Layout cancelled");
            emit layoutReady();
        }
    });
}

void GraphCanvas::rebuild(bool forceFull) {
    if (!m_session->isOpen()) return;
    QElapsedTimer clock;
    clock.start();
    const StepDiff* diff = m_session->currentDiff();
    auto vg = std::make_shared<VisualGraph>(buildVisualGraph(m_session->currentGraph(), m_expansion, diff));
    Highlights h = computeHighlights(*vg, diff, m_session->stepCount(), m_session->source());
    if (!forceFull && m_cache.size() > 0) {
        // New nodes start where the node they replace was (placementHints).
        IncrementalLayout inc = layoutIncrementally(*vg, m_cache, placementHints(diff));
        const int n = static_cast<int>(vg->nodes.size());
        if (inc.keepsPositions(n)) {
            if (m_pending) {
                m_engine->cancel();
                m_pending.reset();
            }
            apply(vg, inc.layout, h);
            m_lastInfo = QString("incremental layout: %1 kept, %2 placed in %3 ms").arg(inc.reused).arg(inc.placed).arg(clock.elapsed());
            emit statusMessage(m_lastInfo);
            emit layoutReady();
            return;
        }
    }
    m_pending = vg;
    m_pendingHighlights = std::move(h);
    m_layoutClock.start();
    emit layoutStarted();
    m_pendingJob = m_engine->start(vg, m_settings);
}

void GraphCanvas::onLayoutFinished(quint64, std::shared_ptr<const VisualGraph> vg, std::shared_ptr<const GraphLayout> layout) {
    if (vg != m_pending) return;  // a newer request superseded it
    m_pending.reset();
    apply(vg, *layout, m_pendingHighlights);
    m_lastInfo = QString("layout: %1 nodes, %2 dot parts, %3 layered parts in %4 ms")
                     .arg(vg->nodes.size())
                     .arg(layout->dotParts)
                     .arg(layout->layeredParts)
                     .arg(m_layoutClock.elapsed());
    emit statusMessage(m_lastInfo);
    if (m_fitAfterLayout) {
        m_fitAfterLayout = false;
        m_view->fit();
    }
    emit layoutReady();
}

void GraphCanvas::apply(std::shared_ptr<const VisualGraph> vg, const GraphLayout& layout, const Highlights& h) {
    m_cache.remember(*vg, layout);
    m_scene->setContent(std::move(vg), layout, h);
    m_scene->selectNodes(m_session->selection());
    if (!m_searchEdit->text().isEmpty()) runSearch();
    m_view->minimap()->sceneChanged();
}

void GraphCanvas::relayout() {
    m_cache.clear();
    rebuild(true);
}

void GraphCanvas::cancelLayout() { m_engine->cancel(); }

void GraphCanvas::toggleExpansion(const QString& qkey) {
    const std::string key = qkey.toStdString();
    const VisualGraph* vg = m_scene->visualGraph();
    const int i = vg ? vg->indexOf(key) : -1;
    const bool expanded = i >= 0 && vg->nodes[i].kind == VNode::Kind::Cluster;
    if (expanded) {
        m_expansion.expanded.erase(key);
        m_expansion.collapsed.insert(key);
    } else {
        m_expansion.collapsed.erase(key);
        m_expansion.expanded.insert(key);
    }
    rebuild(true);
}

void GraphCanvas::expandAll() {
    m_expansion.collapsed.clear();
    // Every Scan and chain at top level; bodies expand their own children on demand.
    if (const VisualGraph* vg = m_scene->visualGraph())
        for (const VNode& n : vg->nodes)
            if (n.kind == VNode::Kind::Chain || (n.kind == VNode::Kind::Op && n.family == OpFamily::Scan)) m_expansion.expanded.insert(n.key);
    rebuild(true);
}

void GraphCanvas::collapseAll() {
    m_expansion.expanded.clear();
    if (const VisualGraph* vg = m_scene->visualGraph())
        for (const VNode& n : vg->nodes)
            if (n.kind == VNode::Kind::Cluster) m_expansion.collapsed.insert(n.key);
    rebuild(true);
}

void GraphCanvas::revealSelection() {
    QRectF r;
    for (QGraphicsItem* it : m_scene->selectedItems()) r = r.united(it->sceneBoundingRect());
    if (!r.isNull()) m_view->reveal(r);
}

void GraphCanvas::showSearch() {
    m_searchBar->show();
    m_searchEdit->setFocus();
    m_searchEdit->selectAll();
}

void GraphCanvas::runSearch() {
    m_hits = m_scene->search(m_searchEdit->text());
    m_hitIndex = -1;
    m_searchInfo->setText(m_searchEdit->text().isEmpty() ? QString() : QString("%1 found").arg(m_hits.size()));
}

void GraphCanvas::findNext() {
    if (m_hits.empty()) return;
    m_hitIndex = (m_hitIndex + 1) % static_cast<int>(m_hits.size());
    const VNode& n = m_scene->visualGraph()->nodes[m_hits[m_hitIndex]];
    m_searchInfo->setText(QString("%1 of %2").arg(m_hitIndex + 1).arg(m_hits.size()));
    if (n.node >= 0 && n.parent == -1) m_session->setSelection(n.kind == VNode::Kind::Chain ? n.members : std::vector<NodeId>{n.node});
    m_view->reveal(m_scene->layout().rects[m_hits[m_hitIndex]]);
}

void GraphCanvas::findPrevious() {
    if (m_hits.empty()) return;
    m_hitIndex = (m_hitIndex - 1 + static_cast<int>(m_hits.size())) % static_cast<int>(m_hits.size());
    m_hitIndex = (m_hitIndex - 1 + static_cast<int>(m_hits.size())) % static_cast<int>(m_hits.size());
    findNext();
}

} // namespace tl
