#include "compare/ComparePane.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace tl {

ComparePane::ComparePane(const QString& title, QWidget* parent)
    : QWidget(parent), m_title(new QLabel(title, this)), m_header(new QWidget(this)), m_scene(new GraphScene(this)),
      m_view(new GraphView(this)), m_engine(new LayoutEngine(this)) {
    m_view->setScene(m_scene);
    QFont f = m_title->font();
    f.setBold(true);
    m_title->setFont(f);
    auto* header = new QHBoxLayout(m_header);
    header->setContentsMargins(6, 2, 6, 2);
    header->addWidget(m_title, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_header);
    layout->addWidget(m_view, 1);
    connect(m_engine, &LayoutEngine::finished, this,
            [this](quint64 job, std::shared_ptr<const VisualGraph> vg, std::shared_ptr<const GraphLayout> layout) {
                if (job != m_pendingJob) return;  // superseded by a later graph
                m_pendingJob = 0;
                m_placement = "laid out";
                apply(std::move(vg), *layout);
            });
}

void ComparePane::addTitleWidget(QWidget* w) { m_header->layout()->addWidget(w); }

void ComparePane::showGraph(const Graph& g, HighlightsFn highlights, const PositionCache* start, PlacementHints hints) {
    ExpansionState expansion;
    auto vg = std::make_shared<VisualGraph>(buildVisualGraph(g, expansion));
    m_pendingHighlights = highlights(*vg);
    if (start && start->size() > 0) {
        // The other side's picture has no place for body nodes only this side has (a
        // merged loop's step): beside their neighbours, as a step's added body nodes.
        for (const VNode& n : vg->nodes)
            if (n.parent >= 0 && !start->rect(n.key)) hints.near.emplace(n.key, true);
        IncrementalLayout inc = layoutIncrementally(*vg, *start, hints);
        if (!inc.needsFullLayout && inc.reused > 0) {
            m_engine->cancel();
            m_pendingJob = 0;
            m_placement = QString("shared positions kept (%1 of %2 nodes)").arg(inc.reused).arg(vg->nodes.size());
            apply(vg, inc.layout);
            return;
        }
    }
    m_pendingJob = m_engine->start(vg);
}

void ComparePane::apply(std::shared_ptr<const VisualGraph> vg, const GraphLayout& layout) {
    m_scene->setContent(std::move(vg), layout, m_pendingHighlights);
    if (m_fitNext) {
        m_view->fit();
        m_fitNext = false;
    }
    emit shown();
}

} // namespace tl
