#include "widgets/GraphCanvas.h"

#include "widgets/NoticeBar.h"
#include "widgets/StepHeader.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QVBoxLayout>

namespace tl {

GraphCanvas::GraphCanvas(RewriteSession* session, QWidget* parent)
    : QWidget(parent),
      m_session(session),
      m_scene(new GraphScene(this)),
      m_view(new GraphView(this)),
      m_notices(new NoticeBar(this)),
      m_header(new StepHeader(this)),
      m_engine(new LayoutEngine(this)) {
    m_view->setScene(m_scene);
    m_view->setObjectName("graphView");
    // The header strip says what the scene's banner says, always in view: the
    // scene keeps its banner for exports only.
    m_scene->setBannerShown(false);
    m_header->hide();

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
    layout->addWidget(m_notices);
    layout->addWidget(m_header);
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
        if (!m_keepPicture) m_expansion = ExpansionState{};
        m_firstView = !m_keepPicture;
        rebuild(Reason::Open);
        m_keepPicture = false;
    });
    connect(m_session, &RewriteSession::currentStepChanged, this, [this] { rebuild(Reason::Step); });
    connect(m_session, &RewriteSession::comparisonChanged, this, [this] { rebuild(Reason::Step); });
    connect(m_session, &RewriteSession::selectionChanged, this, [this] { m_scene->selectRefs(m_session->selectedRefs()); });
    // The session is the context: the window may delete it before the canvas.
    connect(m_scene, &GraphScene::selectionChangedByUser, m_session, [this](std::vector<NodeRef> refs) { m_session->setSelectedRefs(std::move(refs)); });
    connect(m_scene, &GraphScene::toggleExpansion, this, &GraphCanvas::toggleExpansion);
    connect(m_view, &GraphView::zoomChanged, this, [this] { m_view->updateMinimap(); });
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

int GraphCanvas::pictureKey() const {
    // Comparing two positions draws other ghosts than the step itself: its own pictures.
    const int k = m_session->currentStep(), base = m_session->comparisonBase();
    return base < 0 ? k : (base + 1) * (1 << 20) + k;
}

namespace {
// Up to this many boxes a fresh layout takes a few tens of milliseconds: a jump
// may lay out the steps it walks through that stepping would lay out afresh.
constexpr size_t kWalkLayoutNodes = 300;
constexpr int kWalkSteps = 64;
constexpr long long kWalkBoxSteps = 25000;
constexpr int kWalkFreshLayouts = 4;  // each a few tens of milliseconds on this thread
} // namespace

void GraphCanvas::rebuild(Reason reason) {
    if (!m_session->isOpen()) return;
    QElapsedTimer clock;
    clock.start();
    const int k = m_session->currentStep();
    const int key = pictureKey();
    const StepDiff* diff = m_session->shownDiff();
    const StepChanges* changes = m_session->shownChanges();
    auto vg = std::make_shared<VisualGraph>(buildVisualGraph(m_session->currentGraph(), m_expansion, diff, changes, &m_notes));
    Highlights h = computeHighlights(*vg, diff, m_session->stepCount(), m_session->source(), changes, m_session->comparisonBase());
    if (reason == Reason::Open) {
        m_history.clear();
        if (!m_keepPicture) {
            m_picture.clear();
            m_pictureAt = -1;
        } else {
            m_pictureAt = -1;  // another trace: the picture is a reference, not a position of it
        }
    }
    if (reason == Reason::Expansion || reason == Reason::Relayout) m_history.clear();
    auto cancelPending = [this] {
        if (m_pending) {
            m_engine->cancel();
            m_pending.reset();
        }
    };
    // A position shown before is shown as it was.
    if (reason == Reason::Step && m_history.has(key)) {
        // A neighbour of the picture on screen is that picture with one step's
        // changes applied or undone: no need to rebuild it from all its records.
        if (key != m_pictureAt && m_history.stepPicture(key, m_pictureAt, m_picture)) m_pictureAt = key;
        const bool onScreen = key == m_pictureAt;
        PositionCache looked;
        if (!onScreen) looked = m_history.picture(key);
        const PositionCache& pic = onScreen ? m_picture : looked;
        if (pictureCovers(*vg, pic)) {
            cancelPending();
            GraphLayout layout = layoutFromPicture(*vg, pic);
            if (!onScreen) m_picture = std::move(looked);
            display(vg, std::move(layout), h, key, -2);
            m_lastInfo = QString("step %1 as shown before (%2 ms)").arg(k).arg(clock.elapsed());
            emit statusMessage(m_lastInfo);
            return;
        }
    }
    // Else from the picture on screen: kept nodes stay, new ones start where what
    // they replace was (or, going back, where their replacement or ghost is).
    const bool derive = m_picture.size() > 0 && (reason == Reason::Step || (reason == Reason::Open && m_keepPicture));
    if (derive) {
        PlacementHints hints;
        // A jump of a few steps walks through the steps between, so it draws what
        // stepping would have drawn.
        PositionCache walked;
        const PositionCache* from = &m_picture;
        if (m_session->comparisonBase() < 0 && m_pictureAt >= 0 && m_pictureAt < (1 << 20) && key != m_pictureAt) {
            const int at = m_pictureAt, step = key > at ? 1 : -1;
            if (key != at + step) {
                walked = m_picture;
                if (walkPicture(at, key, vg->nodes.size(), walked)) from = &walked;
            }
            if (from == &walked || key == at + step) {
                if (step > 0) hints = placementHints(diff, changes);
                else hints = placementHintsBack(&m_session->diff(k + 1), &m_session->changes(k + 1));
            }
        }
        IncrementalLayout inc = layoutIncrementally(*vg, *from, hints);
        if (inc.keepsPositions(static_cast<int>(vg->nodes.size()))) {
            cancelPending();
            const int parent = m_pictureAt;
            display(vg, std::move(inc.layout), h, key, parent);
            m_lastInfo = QString("incremental layout: %1 kept, %2 placed in %3 ms").arg(inc.reused).arg(inc.placed).arg(clock.elapsed());
            emit statusMessage(m_lastInfo);
            return;
        }
        // The end of a walk that stepping would lay out afresh: the same, turned to
        // match the walked picture rather than the one on screen.
        if (from == &walked && vg->nodes.size() <= kWalkLayoutNodes)
            if (GraphLayout fresh = layoutVisualGraph(*vg, m_settings); fresh.ok) {
                const int mirrored = alignToPicture(*vg, fresh, walked);
                cancelPending();
                display(vg, std::move(fresh), h, key, m_pictureAt);
                m_lastInfo = QString("layout after walking the steps between: %1 nodes, %2 mirrored in %3 ms").arg(vg->nodes.size()).arg(mirrored).arg(clock.elapsed());
                emit statusMessage(m_lastInfo);
                return;
            }
    }
    // A fresh layout; unless the user asked for one from scratch, turned to match
    // the picture on screen (no mirrored graph after a small step).
    m_pending = vg;
    m_pendingHighlights = std::move(h);
    m_pendingKey = key;
    m_pendingAlign = reason != Reason::Relayout && m_picture.size() > 0 && !(reason == Reason::Open && !m_keepPicture);
    m_layoutClock.start();
    emit layoutStarted();
    m_pendingJob = m_engine->start(vg, m_settings);
}

bool GraphCanvas::walkPicture(int from, int to, size_t boxes, PositionCache& picture) {
    // Each step between costs about what stepping costs (some 5 µs a box, on this
    // thread): at most 64 steps and about 25,000 box-steps, a tenth of a second.
    const int steps = std::abs(to - from) - 1;
    if (steps > kWalkSteps || static_cast<long long>(steps) * static_cast<long long>(boxes) > kWalkBoxSteps) return false;
    const int dir = to > from ? 1 : -1;
    int freshLayouts = 0;
    for (int j = from + dir; j != to; j += dir) {
        // Forward, step j's own changes; back, the changes of the step undone (j + 1).
        const int made = dir > 0 ? j : j + 1;
        const StepDiff& d = m_session->diff(made);
        const StepChanges& c = m_session->changes(made);
        // Drawn as showing step j draws it: with its own step's ghosts.
        const StepDiff* own = j > 0 ? &m_session->diff(j) : nullptr;
        const StepChanges* ownChanges = j > 0 ? &m_session->changes(j) : nullptr;
        const VisualGraph vg = buildVisualGraph(m_session->graphAt(j), m_expansion, own, ownChanges);
        const PlacementHints hints = dir > 0 ? placementHints(&d, &c) : placementHintsBack(&d, &c);
        IncrementalLayout inc = layoutIncrementally(vg, picture, hints);
        if (inc.keepsPositions(static_cast<int>(vg.nodes.size()))) {
            picture.remember(vg, inc.layout);
            continue;
        }
        // Stepping lays this one out afresh, turned to match: so does the walk, here
        // and now while that is quick (small graphs, a few times; else the end of
        // the jump is laid out afresh in the background).
        if (vg.nodes.size() > kWalkLayoutNodes || ++freshLayouts > kWalkFreshLayouts) return false;
        GraphLayout fresh = layoutVisualGraph(vg, m_settings);
        if (!fresh.ok) return false;
        alignToPicture(vg, fresh, picture);
        picture.remember(vg, fresh);
    }
    return true;
}

void GraphCanvas::onLayoutFinished(quint64, std::shared_ptr<const VisualGraph> vg, std::shared_ptr<const GraphLayout> result) {
    if (vg != m_pending) return;  // a newer request superseded it
    m_pending.reset();
    GraphLayout layout = *result;
    int parent = -1;
    int mirrored = 0;
    if (m_pendingAlign && m_picture.size() > 0) {
        mirrored = alignToPicture(*vg, layout, m_picture);
        parent = m_pictureAt;
    } else {
        m_picture.clear();
        m_pictureAt = -1;
    }
    display(vg, std::move(layout), m_pendingHighlights, m_pendingKey, parent);
    m_lastInfo = QString("layout: %1 nodes, %2 dot parts, %3 layered parts%4 in %5 ms")
                     .arg(vg->nodes.size())
                     .arg(result->dotParts)
                     .arg(result->layeredParts)
                     .arg(mirrored ? QString(", %1 mirrored to match the last picture").arg(mirrored) : QString())
                     .arg(m_layoutClock.elapsed());
    emit statusMessage(m_lastInfo);
}

void GraphCanvas::display(std::shared_ptr<const VisualGraph> vg, GraphLayout layout, const Highlights& h, int key, int parent) {
    // parent -2: a stored picture shown again (m_picture already holds it).
    if (parent != -2) {
        const bool fromScreen = parent >= 0 && parent == m_pictureAt;
        m_history.store(key, parent, *vg, layout, fromScreen ? &m_picture : nullptr);
        // Derived from the picture on screen, the record holds what differs from
        // it: only that is written.
        if (!fromScreen || !m_history.stepPicture(key, parent, m_picture)) m_picture.remember(*vg, layout);
    }
    m_pictureAt = key;
    m_scene->setContent(std::move(vg), layout, h);
    m_scene->selectRefs(m_session->selectedRefs());
    m_header->setLines(h.banner);
    m_header->setVisible(!h.banner.isEmpty());
    if (!m_searchEdit->text().isEmpty()) runSearch();
    if (m_firstView) {
        m_firstView = false;
        QRectF focus = m_scene->highlightedRect();
        const bool changes = !focus.isNull();
        if (!changes) {
            // Nothing changed here: the top of the graph, where its inputs are.
            const QRectF b = m_scene->layout().bounds;
            focus = QRectF(b.left(), b.top(), b.width(), std::min(b.height(), m_view->viewport()->height() / GraphView::kReadableZoom));
        }
        m_view->firstView(focus, changes);
    } else {
        m_view->follow(m_scene->highlightedRect());
    }
    m_view->minimap()->sceneChanged();
    m_view->updateMinimap();
    emit layoutReady();
}

void GraphCanvas::relayout() {
    m_firstView = true;
    rebuild(Reason::Relayout);
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
    rebuild(Reason::Expansion);
}

void GraphCanvas::expandAll() {
    m_expansion.collapsed.clear();
    // Every Scan and chain at top level; bodies expand their own children on demand.
    if (const VisualGraph* vg = m_scene->visualGraph())
        for (const VNode& n : vg->nodes)
            if (n.kind == VNode::Kind::Chain || (n.kind == VNode::Kind::Op && n.family == OpFamily::Scan)) m_expansion.expanded.insert(n.key);
    rebuild(Reason::Expansion);
}

void GraphCanvas::collapseAll() {
    m_expansion.expanded.clear();
    if (const VisualGraph* vg = m_scene->visualGraph())
        for (const VNode& n : vg->nodes)
            if (n.kind == VNode::Kind::Cluster) m_expansion.collapsed.insert(n.key);
    rebuild(Reason::Expansion);
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
    // Body nodes are selected by path: never confused with an outer node of the same id.
    if (n.ref.valid()) {
        if (n.kind == VNode::Kind::Chain) {
            std::vector<NodeRef> refs;
            const NodeRef owner = n.ref.parent();
            for (NodeId m : n.members) refs.push_back(owner.valid() ? owner.child(m) : NodeRef::outer(m));
            m_session->setSelectedRefs(std::move(refs));
        } else {
            m_session->setSelectedRefs({n.ref});
        }
    }
    m_view->reveal(m_scene->layout().rects[m_hits[m_hitIndex]]);
}

void GraphCanvas::findPrevious() {
    if (m_hits.empty()) return;
    m_hitIndex = (m_hitIndex - 1 + static_cast<int>(m_hits.size())) % static_cast<int>(m_hits.size());
    m_hitIndex = (m_hitIndex - 1 + static_cast<int>(m_hits.size())) % static_cast<int>(m_hits.size());
    findNext();
}

} // namespace tl
