#pragma once
// A variable's readers (ir/Graph.h), in the order they became readers.
//
// Rewrites remove readers one at a time, and a real graph has values read by
// thousands of nodes: a shared constant (the 1 of every `x[1:]`, a loop's step
// count) or an input. Removing from such a list must not cost its length, or a pass
// that rewrites every reader in turn is quadratic. So a removal at either end
// just moves that end (a gap at the front, a shorter back); one in between leaves
// a hole that walks skip, found through a table of positions the list builds once
// it is long and a reader is not near either end, and the holes are closed all at
// once when they outnumber the readers.
// Holes never sit at either end, so front() and back() are the first and last reader.
#include "core/InlineVector.h"

#include <cstddef>
#include <cstdint>
#include <iterator>

namespace tl {

class Node;
class Graph;

/// A use of a variable: input `index` of `node`, or graph output `index` when node is null.
struct Client {
    Node* node = nullptr;
    int index = 0;
    bool isGraphOutput() const { return node == nullptr; }
    friend bool operator==(const Client&, const Client&) = default;
};

class ClientList {
public:
    /// Walks the readers, stepping over holes.
    class Iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Client;
        using difference_type = std::ptrdiff_t;
        using pointer = const Client*;
        using reference = const Client&;
        Iterator() = default;
        Iterator(const Client* at, const Client* end) : m_at(at), m_end(end) {}
        const Client& operator*() const { return *m_at; }
        const Client* operator->() const { return m_at; }
        Iterator& operator++() {
            ++m_at;
            while (m_at != m_end && isHole(*m_at)) ++m_at;
            return *this;
        }
        Iterator operator++(int) {
            Iterator before = *this;
            ++*this;
            return before;
        }
        friend bool operator==(const Iterator& a, const Iterator& b) { return a.m_at == b.m_at; }

    private:
        const Client* m_at = nullptr;
        const Client* m_end = nullptr;
    };

    ClientList() = default;
    /// A copy has no holes and builds its own table when it needs one.
    ClientList(const ClientList& other) { append(other); }
    ClientList& operator=(const ClientList& other) {
        if (this != &other) {
            clear();
            append(other);
        }
        return *this;
    }
    // Moving leaves the source empty.
    ClientList(ClientList&& other) noexcept
        : m_items(std::move(other.m_items)), m_front(other.m_front), m_holes(other.m_holes), m_positions(other.m_positions) {
        other.m_front = other.m_holes = 0;
        other.m_positions = nullptr;
    }
    ClientList& operator=(ClientList&& other) noexcept {
        if (this != &other) {
            dropPositions();
            m_items = std::move(other.m_items);
            m_front = other.m_front;
            m_holes = other.m_holes;
            m_positions = other.m_positions;
            other.m_front = other.m_holes = 0;
            other.m_positions = nullptr;
        }
        return *this;
    }
    ~ClientList() { dropPositions(); }

    Iterator begin() const { return Iterator(m_items.data() + m_front, m_items.end()); }
    Iterator end() const { return Iterator(m_items.end(), m_items.end()); }
    size_t size() const { return m_items.size() - m_front - m_holes; }
    bool empty() const { return m_items.size() == m_front; }
    /// The i-th reader: direct without holes, otherwise a walk.
    const Client& operator[](size_t i) const;
    const Client& front() const { return m_items[m_front]; }
    const Client& back() const { return m_items.back(); }

    /// From this many entries on, a removal not near either end looks its reader up in a table.
    static constexpr size_t kTableFrom = 32;

private:
    friend class Graph;
    struct Positions;

    static bool isHole(const Client& c) { return c.node == nullptr && c.index < 0; }

    void push_back(const Client& c) {
        m_items.push_back(c);
        if (m_positions) notePosition(c);
    }
    void clear() {
        m_items.clear();
        m_front = m_holes = 0;
        dropPositions();
    }
    /// Removes `c` (each client appears once; it must be here).
    void remove(const Client& c) {
        // The common case inline: the newest reader of a list without a table.
        if (!m_positions && m_items.back() == c) {
            m_items.pop_back();
            if (m_front == m_items.size()) clear();
            return;
        }
        removeElsewhere(c);
    }
    void append(const ClientList& other) {
        if (other.m_holes == 0 && !m_positions) m_items.append(other.m_items.data() + other.m_front, other.m_items.end());
        else appendEach(other);
    }
    void dropPositions() {
        if (m_positions) freePositions();
    }

    void removeElsewhere(const Client& c);
    /// Without a table: finds `c` from both ends (all of a short list, the ends of a
    /// long one) and shifts the shorter side over it; false when not found.
    bool shiftOver(const Client& c);
    void appendEach(const ClientList& other);
    void freePositions();

    void notePosition(const Client& c);
    void trimEnds();
    /// Closes every hole and the front gap, keeping the readers' order.
    void compact();
    void buildPositions();

    // Most variables have one reader: it is kept inline.
    InlineVector<Client, 1> m_items;
    uint32_t m_front = 0;  // entries before it are a gap
    uint32_t m_holes = 0;  // holes between front and back
    // Reader -> position in m_items; only for long lists that had a removal in between.
    // Owned (a plain pointer: the table's type is complete only in ClientList.cpp).
    Positions* m_positions = nullptr;
};

} // namespace tl
