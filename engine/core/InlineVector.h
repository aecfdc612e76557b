#pragma once
// A vector of trivially copyable values whose first N live inside the object.
// The graph's per-node lists (a node's inputs and outputs, a variable's readers)
// hold one to three entries almost always: kept inline they cost no allocation
// and no cache line of their own, which is what a walk over 50,000 nodes pays
// for once the graph no longer fits in the caches.
#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <new>
#include <type_traits>
#include <vector>

namespace tl {

template <typename T, uint32_t N>
class InlineVector {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
    static_assert(N > 0);

public:
    InlineVector() = default;
    InlineVector(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
    template <typename It>
    InlineVector(It first, It last) {
        assign(first, last);
    }
    explicit InlineVector(const std::vector<T>& values) { assign(values.begin(), values.end()); }
    InlineVector(const InlineVector& other) { assign(other.begin(), other.end()); }
    InlineVector(InlineVector&& other) noexcept { take(other); }
    InlineVector& operator=(const InlineVector& other) {
        if (this != &other) assign(other.begin(), other.end());
        return *this;
    }
    InlineVector& operator=(InlineVector&& other) noexcept {
        if (this != &other) {
            release();
            take(other);
        }
        return *this;
    }
    ~InlineVector() { release(); }

    T* data() { return m_data; }
    const T* data() const { return m_data; }
    T* begin() { return m_data; }
    T* end() { return m_data + m_size; }
    const T* begin() const { return m_data; }
    const T* end() const { return m_data + m_size; }
    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    T& operator[](size_t i) {
        assert(i < m_size);
        return m_data[i];
    }
    const T& operator[](size_t i) const {
        assert(i < m_size);
        return m_data[i];
    }
    T& front() { return m_data[0]; }
    T& back() { return m_data[m_size - 1]; }
    const T& front() const { return m_data[0]; }
    const T& back() const { return m_data[m_size - 1]; }
    std::vector<T> toVector() const { return std::vector<T>(begin(), end()); }
    // Explicit: a copy to a vector is an allocation, never made without being asked for.
    explicit operator std::vector<T>() const { return toVector(); }

    void push_back(const T& value) {
        if (m_size == m_capacity) {
            const T copy = value;  // `value` may live in the storage about to move
            grow(m_size + 1);
            m_data[m_size++] = copy;
            return;
        }
        m_data[m_size++] = value;
    }
    void pop_back() { --m_size; }
    void clear() { m_size = 0; }
    /// Appends [first, last), which must not point into this vector.
    void append(const T* first, const T* last) {
        const size_t n = static_cast<size_t>(last - first);
        if (m_size + n > m_capacity) grow(m_size + n);
        if (n) std::memcpy(m_data + m_size, first, n * sizeof(T));
        m_size += static_cast<uint32_t>(n);
    }
    /// Removes [first, last), moving the entries after it down.
    void erase(T* first, T* last) {
        std::memmove(first, last, static_cast<size_t>(end() - last) * sizeof(T));
        m_size -= static_cast<uint32_t>(last - first);
    }

    friend bool operator==(const InlineVector& a, const InlineVector& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }
    friend bool operator==(const InlineVector& a, const std::vector<T>& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }

private:
    template <typename It>
    void assign(It first, It last) {
        clear();
        for (; first != last; ++first) push_back(*first);
    }
    bool onHeap() const { return m_data != m_inline; }
    void grow(size_t need) {
        if (need > std::numeric_limits<uint32_t>::max() / 2) throw std::bad_alloc();
        const uint32_t capacity = std::max<uint32_t>(static_cast<uint32_t>(need), 2 * m_capacity);
        T* fresh = static_cast<T*>(std::malloc(capacity * sizeof(T)));
        if (!fresh) throw std::bad_alloc();
        if (m_size) std::memcpy(fresh, m_data, m_size * sizeof(T));
        release();
        m_data = fresh;
        m_capacity = capacity;
    }
    void release() {
        if (onHeap()) std::free(m_data);
        m_data = m_inline;
        m_capacity = N;
    }
    // Leaves `other` empty.
    void take(InlineVector& other) {
        if (other.onHeap()) {
            m_data = other.m_data;
            m_capacity = other.m_capacity;
        } else {
            m_data = m_inline;
            m_capacity = N;
            if (other.m_size) std::memcpy(m_inline, other.m_inline, other.m_size * sizeof(T));
        }
        m_size = other.m_size;
        other.m_data = other.m_inline;
        other.m_capacity = N;
        other.m_size = 0;
    }

    T* m_data = m_inline;
    uint32_t m_size = 0;
    uint32_t m_capacity = N;
    T m_inline[N];
};

} // namespace tl
