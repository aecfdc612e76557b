#include "compare/CompareSession.h"

#include <algorithm>

namespace tl {

namespace {

bool isScanRewrite(const std::string& name) { return name.find("scan") != std::string::npos; }

} // namespace

CompareSession::CompareSession(QObject* parent) : QObject(parent) {}
CompareSession::~CompareSession() = default;

void CompareSession::open(std::shared_ptr<const Comparison> comparison, std::shared_ptr<const Trace> pytensorTrace) {
    m_comparison = std::move(comparison);
    m_pytensorTrace = std::move(pytensorTrace);
    m_pytensor.reset();
    m_missed.reset();
    m_tensorlens.reset();
    if (m_pytensorTrace && m_pytensorTrace->hasOriginal()) m_pytensor = std::make_unique<TraceReplayer>(*m_pytensorTrace);
    if (m_comparison->missedTrace) m_missed = std::make_unique<TraceReplayer>(*m_comparison->missedTrace);
    if (m_comparison->tensorlensTrace) m_tensorlens = std::make_unique<TraceReplayer>(*m_comparison->tensorlensTrace);
    m_position[PyTensorLane] = finalPosition(PyTensorLane);
    m_position[TensorlensLane] = finalPosition(TensorlensLane);
    emit opened();
}

int CompareSession::pytensorSteps() const { return m_pytensor ? static_cast<int>(m_pytensorTrace->size()) : 0; }

int CompareSession::stepCount(Lane lane) const {
    if (!m_comparison) return 0;
    if (lane == PyTensorLane) return pytensorSteps() + (m_missed ? static_cast<int>(m_comparison->missedTrace->size()) : 0);
    return m_tensorlens ? static_cast<int>(m_comparison->tensorlensTrace->size()) : 0;
}

int CompareSession::finalPosition(Lane lane) const {
    return lane == PyTensorLane ? pytensorSteps() : stepCount(TensorlensLane);
}

CompareSession::StepInfo CompareSession::stepInfo(Lane lane, int k) const {
    StepInfo s;
    if (k < 1 || k > stepCount(lane)) return s;
    const TraceStep* step = nullptr;
    if (lane == PyTensorLane && k <= pytensorSteps()) {
        step = &m_pytensorTrace->steps()[static_cast<size_t>(k - 1)];
    } else if (lane == PyTensorLane) {
        const int m = k - pytensorSteps();
        step = &m_comparison->missedTrace->steps()[static_cast<size_t>(m - 1)];
        s.missed = true;
        s.followOn = true;
        for (const MissedRewrite& r : m_comparison->missed)
            if (r.step == m && !r.consequence) s.followOn = false;
    } else {
        step = &m_comparison->tensorlensTrace->steps()[static_cast<size_t>(k - 1)];
    }
    s.rewrite = QString::fromStdString(step->rewrite);
    s.phase = QString::fromStdString(step->phase);
    s.scan = isScanRewrite(step->rewrite);
    return s;
}

void CompareSession::setPosition(Lane lane, int k) {
    k = std::clamp(k, 0, stepCount(lane));
    if (k == m_position[lane]) return;
    m_position[lane] = k;
    emit positionChanged(lane);
}

const Graph& CompareSession::graph(Lane lane) {
    const int k = m_position[lane];
    if (lane == PyTensorLane) {
        if (m_pytensor && k <= pytensorSteps()) return m_pytensor->graphAt(k);
        if (m_missed) return m_missed->graphAt(k - pytensorSteps());
        return *m_comparison->pytensorFinal;
    }
    if (m_tensorlens) return m_tensorlens->graphAt(k);
    // No trace: the lane shows what tensorlens makes of PyTensor's graph.
    if (m_comparison->pytensorFinalRewritten) return *m_comparison->pytensorFinalRewritten;
    return *m_comparison->pytensorFinal;
}

QString CompareSession::positionText(Lane lane) const {
    const int k = m_position[lane], n = stepCount(lane);
    if (lane == PyTensorLane) {
        const int p = pytensorSteps();
        if (k == p) return p ? QString("PyTensor's compiled graph (after its %1 steps)").arg(p) : QString("PyTensor's compiled graph");
        if (k < p) return QString("PyTensor, step %1 of %2").arg(k).arg(p);
        return QString("PyTensor's graph + tensorlens, missed step %1 of %2").arg(k - p).arg(n - p);
    }
    if (!m_tensorlens) return "tensorlens on PyTensor's graph";
    if (k == n) return QString("tensorlens's result (after its %1 steps on PyTensor's original graph)").arg(n);
    return QString("tensorlens, step %1 of %2").arg(k).arg(n);
}

} // namespace tl
