#include "layout/LayoutEngine.h"

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace tl {

struct LayoutEngine::Job {
    quint64 id = 0;
    std::shared_ptr<const VisualGraph> graph;
    LayoutSettings settings;
    std::atomic<bool> cancel{false};
    std::shared_ptr<GraphLayout> result;
    QFuture<void> future;
};

LayoutEngine::LayoutEngine(QObject* parent) : QObject(parent) {}

LayoutEngine::~LayoutEngine() {
    if (m_job) {
        m_job->cancel = true;
        m_job->future.waitForFinished();
    }
}

quint64 LayoutEngine::start(std::shared_ptr<const VisualGraph> graph, LayoutSettings settings) {
    quint64 superseded = 0;
    if (m_job) {
        // The old job finishes in the background; its result is dropped because
        // m_job no longer points at it.
        m_job->cancel = true;
        superseded = m_job->id;
        m_job.reset();
    }
    auto job = std::make_shared<Job>();
    job->id = m_nextId++;
    job->graph = std::move(graph);
    job->settings = settings;
    m_job = job;
    QPointer<LayoutEngine> self(this);
    job->future = QtConcurrent::run([job, self] {
        auto report = [job, self](int done, int total) {
            // Queued to the engine's thread; dropped if the engine is gone.
            QMetaObject::invokeMethod(
                self.data(),
                [job, self, done, total] {
                    if (self && self->m_job == job) emit self->progress(job->id, done, total);
                },
                Qt::QueuedConnection);
        };
        GraphLayout layout = layoutVisualGraph(*job->graph, job->settings, &job->cancel, report);
        if (job->cancel.load() || !layout.ok) return;
        job->result = std::make_shared<GraphLayout>(std::move(layout));
    });
    auto* watcher = new QFutureWatcher<void>(this);
    connect(watcher, &QFutureWatcher<void>::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        if (m_job != job) return;  // superseded
        m_job.reset();
        if (job->result) emit finished(job->id, job->graph, job->result);
        else emit cancelled(job->id);
    });
    watcher->setFuture(job->future);
    // Announced once the new job is in place, so listeners see the engine busy with it.
    if (superseded) emit cancelled(superseded);
    return job->id;
}

void LayoutEngine::cancel() {
    if (!m_job) return;
    m_job->cancel = true;
}

bool LayoutEngine::isBusy() const { return m_job != nullptr; }

void LayoutEngine::wait() {
    if (!m_job) return;
    auto job = m_job;
    job->future.waitForFinished();
}

} // namespace tl
