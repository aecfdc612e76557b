#include "widgets/DPrintPane.h"

#include "widgets/DPrintView.h"

#include <QCheckBox>
#include <QtConcurrent/QtConcurrentRun>
#include <QHBoxLayout>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>
#include <unordered_map>

namespace tl {

namespace {
// The scroll range starts at the widest drawing plus this; the view widens it as
// longer lines come into sight.
constexpr int kTypicalRestColumns = 60;
} // namespace

DPrintPane::DPrintPane(RewriteSession* session, QWidget* parent) : QWidget(parent), m_session(session) {
    m_walker.setMaxThreadCount(1);
    m_view = new DPrintView(this);
    m_view->setObjectName("dprintText");
    m_types = new QCheckBox("types", this);
    m_shapes = new QCheckBox("shapes", this);
    m_destroy = new QCheckBox("destroy/view maps", this);
    m_opInfo = new QCheckBox("scan op info", this);
    m_shapes->setChecked(true);
    m_destroy->setChecked(true);
    m_opInfo->setChecked(true);
    auto* opts = new QHBoxLayout;
    opts->setContentsMargins(4, 2, 4, 2);
    for (QCheckBox* c : {m_types, m_shapes, m_destroy, m_opInfo}) {
        opts->addWidget(c);
        connect(c, &QCheckBox::toggled, this, &DPrintPane::refresh);
    }
    opts->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(opts);
    layout->addWidget(m_view, 1);

    connect(m_session, &RewriteSession::opened, this, &DPrintPane::refresh);
    connect(m_session, &RewriteSession::currentStepStarting, this, &DPrintPane::startWalk);
    connect(m_session, &RewriteSession::currentStepChanged, this, &DPrintPane::refresh);
    connect(m_session, &RewriteSession::selectionChanged, this, &DPrintPane::showSelection);
    connect(m_view, &DPrintView::currentLineChanged, this, &DPrintPane::onCursorMoved);
}

DPrintOptions DPrintPane::options() const {
    DPrintOptions o;
    o.printType = m_types->isChecked();
    o.printShape = m_shapes->isChecked();
    o.printDestroyMap = m_destroy->isChecked();
    o.printViewMap = m_destroy->isChecked();
    o.printOpInfo = m_opInfo->isChecked();
    return o;
}

QString DPrintPane::text() const { return m_view->text(); }

NodeRef DPrintPane::refOfLine(int line) const {
    return line >= 0 && line < static_cast<int>(m_lineRef.size()) ? m_lineRef[line] : NodeRef();
}

NodeId DPrintPane::nodeOfLine(int line) const { return refOfLine(line).outerNode(); }

DPrintPane::Walk DPrintPane::walk(const Graph& g, const DPrintOptions& opts) {
    Walk w;
    auto listing = std::make_shared<DPrintListing>();
    try {
        // Only walked now: a line's text is made when the view shows it.
        *listing = dprintListing(g, opts, true);
    } catch (const std::exception& e) {
        w.error = std::string("dprint failed: ") + e.what();
        return w;
    }
    // Which node holds each body: a line of the `Inner graphs:` section names a node
    // of that body, whose id means nothing outside it.
    std::unordered_map<const Graph*, NodeRef> owners;
    std::unordered_map<const Node*, NodeRef> withBody;
    {
        std::vector<std::pair<const Graph*, NodeRef>> stack{{&g, NodeRef()}};
        while (!stack.empty()) {
            auto [graph, owner] = stack.back();
            stack.pop_back();
            for (const Node* n : graph->nodes()) {
                auto body = n->op().innerGraph();
                if (!body || owners.count(body.get())) continue;
                const NodeRef ref = owner.valid() ? owner.child(n->id()) : NodeRef::outer(n->id());
                owners[body.get()] = ref;
                withBody[n] = ref;
                stack.emplace_back(body.get(), ref);
            }
        }
    }
    auto refOf = [&](const Graph* graph, const Node* n) -> NodeRef {
        if (!n) return {};
        if (!graph || graph == &g) return NodeRef::outer(n->id());
        auto it = owners.find(graph);
        return it == owners.end() ? NodeRef() : it->second.child(n->id());
    };
    const std::vector<DPrintLine>& lines = listing->lines;
    w.refs.resize(lines.size());
    for (size_t i = 0; i < lines.size(); ++i) {
        const DPrintLine& l = lines[i];
        w.widest = std::max(w.widest, listing->prefixColumns(i));
        if (l.node) w.refs[i] = refOf(l.graph, l.node);
        // A body's placeholders and constants: the node whose body it is.
        if (!w.refs[i].valid() && l.innerGraphOf)
            if (auto it = withBody.find(l.innerGraphOf); it != withBody.end()) w.refs[i] = it->second;
    }
    w.listing = std::move(listing);
    return w;
}

void DPrintPane::startWalk() {
    if (!m_session->isOpen()) return;
    // On this thread: bringing the graph to the new position edits it.
    const Graph& g = m_session->currentGraph();
    const DPrintOptions opts = options();
    m_walk = QtConcurrent::run(&m_walker, [&g, opts] { return walk(g, opts); });
    m_walkStep = m_session->currentStep();
    m_walkOpen = m_session->openCount();
    m_session->addCurrentGraphReader(QFuture<void>(m_walk));
}

void DPrintPane::refresh() {
    if (!m_session->isOpen()) return;
    const int step = m_session->currentStep(), opened = m_session->openCount();
    Walk w;
    if (m_walk.isValid() && m_walkStep == step && m_walkOpen == opened) w = m_walk.result();
    else w = walk(m_session->currentGraph(), options());
    m_walk = QFuture<Walk>();
    m_walkStep = m_walkOpen = -1;
    if (!w.error.empty()) {
        m_updating = true;
        m_lineRef.clear();
        m_view->setLines({w.error});
        m_updating = false;
        return;
    }
    m_lineRef = std::move(w.refs);
    m_updating = true;
    // Only the lines in sight are made. The listing reads the session's graph,
    // which changes in place at the next step: once the step (or the file) has
    // changed it gives nothing, until this pane shows the new listing.
    const int count = static_cast<int>(w.listing->lines.size());
    m_view->setSource(
        count,
        [listing = std::move(w.listing), session = m_session, step, opened](int i) {
            if (session->currentStep() != step || session->openCount() != opened) return std::string();
            return listing->text(i);
        },
        w.widest + kTypicalRestColumns);
    m_updating = false;
    showSelection();
}

void DPrintPane::onCursorMoved(int line) {
    if (m_updating) return;
    const NodeRef ref = refOfLine(line);
    if (ref.valid()) {
        m_updating = true;
        m_session->setSelectedRefs({ref});
        m_updating = false;
    }
}

void DPrintPane::showSelection() {
    m_highlighted.clear();
    const auto& sel = m_session->selectedRefs();
    for (int i = 0; i < static_cast<int>(m_lineRef.size()); ++i)
        if (m_lineRef[i].valid() && std::find(sel.begin(), sel.end(), m_lineRef[i]) != sel.end()) m_highlighted.push_back(i);
    m_view->setHighlighted(m_highlighted);
    // Scroll to the first line when the selection came from elsewhere.
    if (!m_updating && !m_highlighted.empty()) m_view->centerOnLine(m_highlighted.front());
}

} // namespace tl
