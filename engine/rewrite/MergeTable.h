#pragma once
// The table merge hash-conses nodes in (rewrite/Merge.cpp): by the variables a node
// reads (after earlier merges) and, among nodes reading the same ones, by its op's
// structural class. Merge looks up every node of the graph in every merge pass, so
// the table is flat: the inputs of all keys in one array, an open-addressing index
// of key numbers, and the entries of a key chained through one vector. A node costs
// no allocation of its own, and a lookup touches the index, one key and the
// inputs compared, instead of a bucket list of separately allocated nodes.
#include "analysis/GraphEquality.h"
#include "ir/Graph.h"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace tl {

class MergeTable {
public:
    /// `expectedNodes`, the number of nodes to be looked up, sizes the table once:
    /// growing it step by step would copy and rehash it a dozen times at 50,000 nodes,
    /// each time into fresh pages.
    MergeTable(StructuralNumbering& ops, size_t expectedNodes);

    /// The representative for `node` reading `inputs`, and whether it is new (then
    /// `node` is the representative). An op's class is asked for only once two nodes
    /// read the same inputs: the class of an op with an inner graph hashes that whole
    /// graph. The reference holds until the next call.
    std::pair<NodeId&, bool> emplace(const Node& node, std::span<const VarId> inputs);

private:
    struct Key {
        uint64_t hash;
        uint32_t offset, count;  // the inputs in m_inputs
        uint32_t firstEntry;
    };
    struct Entry {
        int64_t opClass;  // -1 until asked
        OpPtr op;         // the op the entry was made from (the node may go)
        NodeId representative;
        uint32_t next;  // the key's next entry, kNone at the end
    };
    static constexpr uint32_t kNone = UINT32_MAX;

    uint32_t addEntry(const Node& node, int64_t opClass, uint32_t next);
    void grow();

    StructuralNumbering& m_ops;
    std::vector<VarId> m_inputs;
    std::vector<Key> m_keys;
    std::vector<Entry> m_entries;
    std::vector<uint32_t> m_index;  // key number + 1, 0 for an empty slot; size a power of two
};

} // namespace tl
