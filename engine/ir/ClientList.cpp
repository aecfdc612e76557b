#include "ir/ClientList.h"

#include "core/HashMix.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <unordered_map>

namespace tl {

struct ClientList::Positions {
    struct Hash {
        size_t operator()(const Client& c) const {
            return hashMix(std::hash<const void*>{}(c.node), static_cast<uint32_t>(c.index));
        }
    };
    std::unordered_map<Client, uint32_t, Hash> at;
};

namespace {
constexpr Client kHole{nullptr, -1};
// A gap at the front longer than this and than the readers after it is given back.
constexpr uint32_t kGapKept = 16;
// How far from either end a long list without a table looks before building one.
constexpr size_t kNearEnds = 8;
} // namespace

void ClientList::freePositions() {
    delete m_positions;
    m_positions = nullptr;
}

const Client& ClientList::operator[](size_t i) const {
    if (m_holes == 0) return m_items[m_front + i];
    auto it = begin();
    std::advance(it, static_cast<std::ptrdiff_t>(i));
    return *it;
}

void ClientList::notePosition(const Client& c) {
    m_positions->at.emplace(c, static_cast<uint32_t>(m_items.size() - 1));
}

void ClientList::appendEach(const ClientList& other) {
    for (const Client& c : other) push_back(c);
}

bool ClientList::shiftOver(const Client& c) {
    // A long list is searched only near its ends (readers are mostly replaced oldest or
    // newest first); past that the table finds the reader at once.
    Client* items = m_items.data();
    const size_t n = m_items.size();
    const size_t reach = n - m_front < kTableFrom ? n : kNearEnds;
    for (size_t lo = m_front + 1, hi = n - 1, step = 0; lo < hi && step < reach; ++lo, --hi, ++step) {
        if (items[hi - 1] == c) {
            m_items.erase(items + hi - 1, items + hi);
            return true;
        }
        if (items[lo] == c) {
            std::move_backward(items + m_front, items + lo, items + lo + 1);
            ++m_front;
            return true;
        }
    }
    return false;
}

void ClientList::removeElsewhere(const Client& c) {
    Client* items = m_items.data();
    const size_t n = m_items.size();
    if (items[n - 1] == c || items[m_front] == c) {
        if (items[n - 1] == c) m_items.pop_back();
        else ++m_front;
        if (m_positions) m_positions->at.erase(c);
    } else if (m_positions || !shiftOver(c)) {
        if (!m_positions) buildPositions();
        auto found = m_positions->at.find(c);
        if (found == m_positions->at.end()) return;
        items[found->second] = kHole;
        ++m_holes;
        m_positions->at.erase(found);
    }
    trimEnds();
}

void ClientList::trimEnds() {
    while (m_holes > 0 && isHole(m_items.back())) {
        m_items.pop_back();
        --m_holes;
    }
    while (m_holes > 0 && isHole(m_items[m_front])) {
        ++m_front;
        --m_holes;
    }
    if (m_front == m_items.size()) {
        clear();
        return;
    }
    // Each closing moves at most twice the entries removed since the last one.
    if (m_holes > size() || (m_front > kGapKept && size_t(m_front) * 2 > m_items.size())) compact();
}

void ClientList::compact() {
    Client* items = m_items.data();
    size_t kept = 0;
    for (size_t i = m_front; i < m_items.size(); ++i)
        if (!isHole(items[i])) items[kept++] = items[i];
    m_items.erase(items + kept, items + m_items.size());
    m_front = m_holes = 0;
    if (m_positions) buildPositions();
}

void ClientList::buildPositions() {
    if (!m_positions) m_positions = new Positions;
    auto& at = m_positions->at;
    at.clear();
    at.reserve(size());
    for (size_t i = m_front; i < m_items.size(); ++i)
        if (!isHole(m_items[i])) at.emplace(m_items[i], static_cast<uint32_t>(i));
}

} // namespace tl
