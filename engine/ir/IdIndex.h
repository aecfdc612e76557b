#pragma once
// Finds a graph's nodes and variables by id. Ids are handed out in increasing
// order and never reused, so they are dense: an array indexed by id - base finds
// one with a single load, where a hash map costs a hash and a cache miss in its
// bucket array on every lookup (the rewrite drivers look up every node they
// queue). A graph read from a file may use ids far apart; an id that would make
// the array more than a few times larger than the number of entries goes to a
// hash map instead, so no input makes the index large. Every id inside the array's
// range is in the array: when it grows over ids the map holds, they move into it.
#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace tl {

template <typename T>
class IdIndex {
public:
    /// The entry for `id`, or null.
    T* find(int64_t id) const {
        if (id >= m_base && offset(id) < m_dense.size()) return m_dense[offset(id)];
        if (m_sparse.empty()) return nullptr;
        auto it = m_sparse.find(id);
        return it == m_sparse.end() ? nullptr : it->second;
    }
    bool contains(int64_t id) const { return find(id) != nullptr; }

    /// Adds `id` -> `value` (non-null); false when `id` is taken.
    bool insert(int64_t id, T* value) {
        if (find(id)) return false;
        // Ids usually start near 0; a first id far from it starts the array there instead.
        if (m_dense.empty() && m_count == 0 && (id < 0 || id > 4096)) m_base = id;
        if (id >= m_base && fitsDense(offset(id))) {
            const size_t k = static_cast<size_t>(offset(id));
            if (k >= m_dense.size()) grow(std::max(k + 1, m_dense.size() * 3 / 2));
            m_dense[k] = value;
        } else {
            m_sparse.emplace(id, value);
        }
        ++m_count;
        return true;
    }

    void erase(int64_t id) {
        if (id >= m_base && offset(id) < m_dense.size()) {
            const size_t k = static_cast<size_t>(offset(id));
            if (m_dense[k]) --m_count;
            m_dense[k] = nullptr;
        } else if (m_sparse.erase(id)) {
            --m_count;
        }
    }

    size_t size() const { return m_count; }

private:
    // id - m_base for id >= m_base, in unsigned arithmetic: any two int64 ids (a file
    // may hold both extremes) differ by less than 2^64, where the signed difference overflows.
    uint64_t offset(int64_t id) const { return static_cast<uint64_t>(id) - static_cast<uint64_t>(m_base); }
    void grow(size_t size) {
        m_dense.resize(size, nullptr);
        for (auto it = m_sparse.begin(); it != m_sparse.end();) {
            if (it->first >= m_base && offset(it->first) < m_dense.size()) {
                m_dense[static_cast<size_t>(offset(it->first))] = it->second;
                it = m_sparse.erase(it);
            } else {
                ++it;
            }
        }
    }
    // Dense while the array stays within a small multiple of the entries it holds.
    bool fitsDense(uint64_t k) const { return k < m_dense.size() || k <= 4 * m_count + 4096; }

    int64_t m_base = 0;
    std::vector<T*> m_dense;  // m_dense[id - m_base]
    std::unordered_map<int64_t, T*> m_sparse;
    size_t m_count = 0;
};

} // namespace tl
