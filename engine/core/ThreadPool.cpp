#include "core/ThreadPool.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace tl {

namespace {

thread_local bool t_insideBody = false;

int coreCount() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

} // namespace

int ThreadPool::defaultThreads() {
    const int cores = coreCount();
    if (const char* env = std::getenv("TL_THREADS")) {
        char* end = nullptr;
        const long n = std::strtol(env, &end, 10);
        if (end != env && *end == '\0' && n >= 1) return static_cast<int>(std::min<long>(n, cores));
    }
    return cores;
}

ThreadPool& ThreadPool::instance() {
    static ThreadPool pool(defaultThreads());
    return pool;
}

ThreadPool::ThreadPool(int threads) { startWorkers(threads); }

ThreadPool::~ThreadPool() { stopWorkers(); }

void ThreadPool::startWorkers(int n) {
    m_threads = std::clamp(n, 1, kMaxThreads);
    m_stop = false;
    for (int i = 1; i < m_threads; ++i) m_workers.emplace_back([this] { workerLoop(); });
}

void ThreadPool::stopWorkers() {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (std::thread& t : m_workers) t.join();
    m_workers.clear();
}

int ThreadPool::setThreads(int n) {
    std::lock_guard<std::mutex> caller(m_callerMutex);
    const int previous = m_threads;
    if (std::clamp(n, 1, kMaxThreads) == m_threads) return previous;
    stopWorkers();
    startWorkers(n);
    return previous;
}

// Takes chunks until none are left; called with m_mutex unlocked.
void ThreadPool::runChunks() {
    t_insideBody = true;
    while (true) {
        int64_t k;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (m_next >= m_count || m_error) break;
            k = m_next++;
        }
        try {
            (*m_body)(k);
        } catch (...) {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (!m_error) m_error = std::current_exception();
        }
    }
    t_insideBody = false;
}

void ThreadPool::workerLoop() {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(m_mutex);
    while (true) {
        m_wake.wait(lock, [&] { return m_stop || m_generation != seen; });
        if (m_stop) return;
        seen = m_generation;
        ++m_busyWorkers;
        lock.unlock();
        runChunks();
        lock.lock();
        if (--m_busyWorkers == 0) m_done.notify_all();
    }
}

void ThreadPool::parallelFor(int64_t count, const std::function<void(int64_t)>& body) {
    if (count <= 0) return;
    std::unique_lock<std::mutex> caller(m_callerMutex, std::defer_lock);
    if (count == 1 || m_threads == 1 || t_insideBody || !caller.try_lock()) {
        for (int64_t k = 0; k < count; ++k) body(k);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_body = &body;
        m_count = count;
        m_next = 0;
        m_error = nullptr;
        ++m_generation;
    }
    m_wake.notify_all();
    runChunks();
    std::exception_ptr error;
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        // Every chunk is handed out; wait for the workers still running one. A
        // worker that wakes after this saw the job finished (m_next == m_count).
        m_done.wait(lock, [&] { return m_busyWorkers == 0; });
        m_body = nullptr;
        m_count = 0;
        error = m_error;
        m_error = nullptr;
    }
    if (error) std::rethrow_exception(error);
}

} // namespace tl
