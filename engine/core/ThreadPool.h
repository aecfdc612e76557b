#pragma once
// The worker threads of large elementwise and reduction kernels
// (docs/performance.md#vectorised-math-and-threads). One thread per core by
// default (std::thread::hardware_concurrency), TL_THREADS=N to use fewer,
// TL_THREADS=1 to run everything on the calling thread. Kernels split only work
// above a size threshold, so small arrays (a Scan step's rows) never pay for it,
// and reductions split at boundaries that do not depend on the thread count, so
// results are bit-identical for any setting.
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tl {

class ThreadPool {
public:
    /// The process's pool, sized from TL_THREADS (clamped to [1, cores]) or the core count.
    static ThreadPool& instance();

    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    /// Threads a parallelFor runs on, the caller included (at least 1).
    int threads() const { return m_threads; }
    /// Changes that count (tests compare 1, 2, 3 threads on any machine, so more
    /// threads than cores are allowed here, up to kMaxThreads). Waits for a
    /// running parallelFor; returns the previous count.
    int setThreads(int n);
    static constexpr int kMaxThreads = 64;

    /// The count TL_THREADS asks for (clamped to [1, cores]); the core count when unset or invalid.
    static int defaultThreads();

    /// Runs body(k) for every k in [0, count) on up to threads() threads and
    /// returns when all are done; the first exception a body throws is rethrown
    /// here. Runs on the calling thread alone, in order, when count is 1, when
    /// called from inside a body, or while another thread's parallelFor holds the pool.
    /// Bodies must not touch shared mutable state (memory trackers, counters).
    void parallelFor(int64_t count, const std::function<void(int64_t)>& body);

private:
    explicit ThreadPool(int threads);
    void startWorkers(int n);
    void stopWorkers();
    void workerLoop();
    void runChunks();

    std::mutex m_callerMutex;  // one parallelFor at a time; the others run inline
    std::mutex m_mutex;        // guards the job fields below
    std::condition_variable m_wake, m_done;
    std::vector<std::thread> m_workers;
    int m_threads = 1;
    bool m_stop = false;
    uint64_t m_generation = 0;  // bumped per job, so a worker joins each job once
    int m_busyWorkers = 0;
    const std::function<void(int64_t)>* m_body = nullptr;
    int64_t m_count = 0;
    int64_t m_next = 0;  // next chunk to hand out (under m_mutex)
    std::exception_ptr m_error;
};

} // namespace tl
