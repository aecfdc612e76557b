#pragma once
// One side of the comparison window: a title and a graph view whose scene shows
// a graph with the comparison's highlights, laid out off the GUI thread (or
// placed from the other side's positions, so shared nodes line up).
#include "layout/GraphLayout.h"
#include "layout/LayoutEngine.h"
#include "scene/GraphScene.h"
#include "widgets/GraphView.h"

#include <QWidget>

#include <functional>
#include <memory>

class QLabel;

namespace tl {

class ComparePane : public QWidget {
    Q_OBJECT
public:
    explicit ComparePane(const QString& title, QWidget* parent = nullptr);

    GraphScene* scene() const { return m_scene; }
    GraphView* view() const { return m_view; }
    QLabel* titleLabel() const { return m_title; }
    /// A widget shown right of the title (the tensorlens side's choice of graph).
    void addTitleWidget(QWidget* w);
    bool isLayoutPending() const { return m_pendingJob != 0; }
    /// How the last picture was placed: "laid out", "shared positions kept (12 of 14 nodes)".
    const QString& placement() const { return m_placement; }

    /// The highlights for a visual graph (computed once its nodes are known).
    using HighlightsFn = std::function<Highlights(const VisualGraph&)>;
    /// Shows `g`. With `start`, nodes it remembers keep their positions, nodes `hints`
    /// name start where the node they stand for is, and new ones (body nodes included)
    /// are placed beside their neighbours; otherwise (or when that would mislead) the
    /// graph is laid out from scratch on the worker thread.
    void showGraph(const Graph& g, HighlightsFn highlights, const PositionCache* start = nullptr,
                   PlacementHints hints = {});

signals:
    /// A new picture is on screen.
    void shown();

private:
    void apply(std::shared_ptr<const VisualGraph> vg, const GraphLayout& layout);

    QLabel* m_title;
    QWidget* m_header;
    GraphScene* m_scene;
    GraphView* m_view;
    LayoutEngine* m_engine;
    quint64 m_pendingJob = 0;
    Highlights m_pendingHighlights;
    QString m_placement;
    bool m_fitNext = true;
};

} // namespace tl
