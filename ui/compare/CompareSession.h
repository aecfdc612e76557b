#pragma once
// The model of the comparison window (docs/missed.md#in-the-window): the
// engine's Comparison (compare/Comparison.h) and two lanes of steps, each with a
// position. Lane PyTensor holds PyTensor's own steps, then the steps tensorlens
// still makes on PyTensor's compiled graph (the missed rewrites); lane tensorlens
// holds tensorlens's pipeline on PyTensor's original graph. No widgets: tests
// drive it headless, as RewriteSession.
#include "compare/Comparison.h"
#include "trace/TraceReplayer.h"

#include <QObject>
#include <QString>

#include <memory>

namespace tl {

class CompareSession : public QObject {
    Q_OBJECT
public:
    enum Lane : int { PyTensorLane = 0, TensorlensLane = 1 };

    explicit CompareSession(QObject* parent = nullptr);
    ~CompareSession() override;

    /// Shows a comparison; `pytensorTrace` (may be null) is the trace it was made from.
    /// Positions start at the two final graphs: PyTensor's compiled graph and
    /// tensorlens's result (on the original graph with a trace, else on PyTensor's graph).
    void open(std::shared_ptr<const Comparison> comparison, std::shared_ptr<const Trace> pytensorTrace);
    bool isOpen() const { return m_comparison != nullptr; }
    const Comparison& comparison() const { return *m_comparison; }

    /// Positions 0..stepCount(lane); 0 is the lane's original graph.
    int stepCount(Lane lane) const;
    /// PyTensor's own steps in lane PyTensor (0 without a trace); later positions are missed rewrites.
    int pytensorSteps() const;
    /// Step k (1-based) of the lane: its rewrite, and whether it is a rewrite PyTensor missed.
    struct StepInfo {
        QString rewrite;
        QString phase;
        bool missed = false;     ///< tensorlens's step on PyTensor's compiled graph
        bool followOn = false;   ///< ... that only follows from the ones before it
        bool scan = false;       ///< a rewrite of loops (shown in colour)
    };
    StepInfo stepInfo(Lane lane, int k) const;

    int position(Lane lane) const { return m_position[lane]; }
    /// Moves a lane (clamped); emits positionChanged.
    void setPosition(Lane lane, int k);
    /// The graph of the lane at its position; valid until the lane moves.
    const Graph& graph(Lane lane);
    /// "PyTensor's compiled graph (step 93 of 93)", "tensorlens, step 12 of 30" ...
    QString positionText(Lane lane) const;
    /// The lane's position is its final graph (the comparison's badges apply there).
    bool atEnd(Lane lane) const { return m_position[lane] == stepCount(lane); }
    /// The final graph of the lane (PyTensor's compiled graph stays the end of lane PyTensor's own steps).
    int finalPosition(Lane lane) const;

signals:
    void opened();
    void positionChanged(int lane);

private:
    std::shared_ptr<const Comparison> m_comparison;
    std::shared_ptr<const Trace> m_pytensorTrace;
    std::unique_ptr<TraceReplayer> m_pytensor, m_missed, m_tensorlens;
    int m_position[2] = {0, 0};
};

} // namespace tl
