#pragma once
// Values built once per input dtype signature and kept (a plain Elemwise's compiled
// program, a reduction's plan). Kernels look them up on every call, often with the
// signature of the previous call, so that lookup takes no lock.
#include "core/DType.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace tl {

template <typename T>
class DTypeSignatureCache {
public:
    /// The value for `key`; on first use build() makes it (a std::shared_ptr<const T>).
    /// What build() throws reaches the caller and nothing is kept.
    template <typename Build>
    const T& get(std::span<const DType> key, Build&& build) const {
        const Entry* last = m_last.load(std::memory_order_acquire);
        if (last && std::equal(last->key.begin(), last->key.end(), key.begin(), key.end())) return *last->value;
        std::lock_guard<std::mutex> lock(m_mutex);
        for (const auto& e : m_entries)
            if (std::equal(e->key.begin(), e->key.end(), key.begin(), key.end())) {
                m_last.store(e.get(), std::memory_order_release);
                return *e->value;
            }
        auto e = std::make_unique<Entry>();
        e->key.assign(key.begin(), key.end());
        e->value = build();
        m_entries.push_back(std::move(e));
        m_last.store(m_entries.back().get(), std::memory_order_release);
        return *m_entries.back()->value;
    }

private:
    struct Entry {
        std::vector<DType> key;
        std::shared_ptr<const T> value;
    };
    mutable std::mutex m_mutex;
    mutable std::vector<std::unique_ptr<Entry>> m_entries;  // never shrinks: m_last stays valid
    mutable std::atomic<const Entry*> m_last{nullptr};
};

} // namespace tl
