#include "rewrite/MergeTable.h"

#include "core/HashMix.h"

#include <algorithm>

namespace tl {

namespace {
uint64_t hashInputs(std::span<const VarId> inputs) {
    uint64_t h = inputs.size();
    for (VarId v : inputs) h = hashMix(h, static_cast<uint64_t>(v));
    // Spread the low bits the index uses.
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    return h ^ (h >> 33);
}
} // namespace

MergeTable::MergeTable(StructuralNumbering& ops, size_t expectedNodes) : m_ops(ops) {
    m_keys.reserve(expectedNodes);
    m_entries.reserve(expectedNodes);
    m_inputs.reserve(2 * expectedNodes);  // most ops read one or two values
    size_t slots = 64;
    while (slots < 2 * expectedNodes) slots *= 2;  // at most half full, as emplace keeps it
    m_index.assign(slots, 0);
}

uint32_t MergeTable::addEntry(const Node& node, int64_t opClass, uint32_t next) {
    m_entries.push_back({opClass, node.opPtr(), node.id(), next});
    return static_cast<uint32_t>(m_entries.size() - 1);
}

void MergeTable::grow() {
    std::vector<uint32_t> index(std::max<size_t>(64, m_index.size() * 2), 0);
    const size_t mask = index.size() - 1;
    for (size_t k = 0; k < m_keys.size(); ++k) {
        size_t slot = m_keys[k].hash & mask;
        while (index[slot]) slot = (slot + 1) & mask;
        index[slot] = static_cast<uint32_t>(k + 1);
    }
    m_index = std::move(index);
}

std::pair<NodeId&, bool> MergeTable::emplace(const Node& node, std::span<const VarId> inputs) {
    // At most half full: probes stay short.
    if ((m_keys.size() + 1) * 2 > m_index.size()) grow();
    const uint64_t hash = hashInputs(inputs);
    const size_t mask = m_index.size() - 1;
    size_t slot = hash & mask;
    for (; m_index[slot]; slot = (slot + 1) & mask) {
        Key& key = m_keys[m_index[slot] - 1];
        if (key.hash != hash || key.count != inputs.size() ||
            !std::equal(inputs.begin(), inputs.end(), m_inputs.begin() + key.offset))
            continue;
        const int64_t cls = m_ops.opClass(node.opPtr());
        for (uint32_t e = key.firstEntry; e != kNone; e = m_entries[e].next) {
            Entry& entry = m_entries[e];
            if (entry.opClass < 0) entry.opClass = m_ops.opClass(entry.op);
            if (entry.opClass == cls) return {entry.representative, false};
        }
        key.firstEntry = addEntry(node, cls, key.firstEntry);
        return {m_entries[key.firstEntry].representative, true};
    }
    m_keys.push_back({hash, static_cast<uint32_t>(m_inputs.size()), static_cast<uint32_t>(inputs.size()),
                      addEntry(node, -1, kNone)});
    m_inputs.insert(m_inputs.end(), inputs.begin(), inputs.end());
    m_index[slot] = static_cast<uint32_t>(m_keys.size());
    return {m_entries.back().representative, true};
}

} // namespace tl
