#pragma once
// Counts the bytes of array storage alive during a run, so a rewrite that
// shrinks a buffer shows up as a smaller peak.
#include <cstddef>
#include <cstdint>

namespace tl {

class MemoryTracker {
public:
    void allocated(size_t bytes) {
        m_current += bytes;
        if (m_current > m_peak) m_peak = m_current;
        m_total += bytes;
    }
    void released(size_t bytes) { m_current -= bytes; }
    size_t currentBytes() const { return m_current; }
    size_t peakBytes() const { return m_peak; }
    size_t totalAllocatedBytes() const { return m_total; }
    /// Starts a new peak measurement from what is alive now.
    void resetPeak() { m_peak = m_current; m_total = 0; }

    /// The tracker storage allocations of this thread report to (may be null).
    static MemoryTracker* current();

private:
    size_t m_current = 0;
    size_t m_peak = 0;
    size_t m_total = 0;
};

/// Makes `tracker` the current one for this thread for the scope's lifetime.
class MemoryTrackerScope {
public:
    explicit MemoryTrackerScope(MemoryTracker* tracker);
    ~MemoryTrackerScope();
    MemoryTrackerScope(const MemoryTrackerScope&) = delete;
    MemoryTrackerScope& operator=(const MemoryTrackerScope&) = delete;

private:
    MemoryTracker* m_previous;
};

} // namespace tl
