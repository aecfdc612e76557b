#pragma once
// Runs layoutVisualGraph off the GUI thread (docs/conventions.md#graphviz-off-the-gui-thread): one job at
// a time, a new request cancels the one running, progress and results come
// back as queued signals. Graphviz itself is serialised by graphvizMutex().
#include "layout/GraphLayout.h"

#include <QFutureWatcher>
#include <QObject>

#include <atomic>
#include <memory>

namespace tl {

class LayoutEngine : public QObject {
    Q_OBJECT
public:
    explicit LayoutEngine(QObject* parent = nullptr);
    /// Cancels and waits for the running job (at most one small dot part).
    ~LayoutEngine() override;

    /// Starts laying out `graph`; cancels any running job. Returns the job id.
    quint64 start(std::shared_ptr<const VisualGraph> graph, LayoutSettings settings = {});
    /// Asks the running job to stop at the next part boundary.
    void cancel();
    bool isBusy() const;
    /// Blocks until the running job is done (tests, export).
    void wait();

signals:
    void progress(quint64 job, int done, int total);
    /// The layout of job `job` for `graph` is ready (never emitted for cancelled jobs).
    void finished(quint64 job, std::shared_ptr<const VisualGraph> graph, std::shared_ptr<const GraphLayout> layout);
    void cancelled(quint64 job);

private:
    struct Job;
    std::shared_ptr<Job> m_job;
    quint64 m_nextId = 1;
};

} // namespace tl
