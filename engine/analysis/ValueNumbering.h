#pragma once
// Hash-consing of a graph's values (global value numbering): two variables get
// the same number when they are equal constants, inputs the caller put in one
// class, or the same output of equal ops applied to equally numbered inputs.
// scan_merge_states numbers a Scan body under "these states are equal" and the
// outer graph to compare initial values; ScanRebuild deduplicates a rebuilt body.
// Unlike StructuralNumbering (GraphEquality.h, the merge pass's eager numbering
// of whole graphs) it numbers lazily, only the ancestors of what is asked, and
// never identifies uninitialised memory, destroyers or opaque nodes (mergeable).
// Constants compare as the merge pass compares them (constantsEqual).
#include "ir/Graph.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace tl {

class ValueNumbering {
public:
    /// A number no variable has yet: the class of a set of inputs assumed equal.
    uint64_t fresh() { return m_next++; }
    /// Puts `v` in class `number` (from fresh() or number()); call before `v` is numbered.
    void assign(const Variable* v, uint64_t number) { m_number[v] = number; }
    /// The number of `v`, numbering its ancestors first (iterative, no recursion on depth).
    /// Graph inputs nobody assigned get a number of their own. Nodes whose outputs must
    /// never be identified with others' (AllocEmpty: uninitialised memory, Opaque: unknown
    /// semantics, destroyers: their output is their input's storage) number uniquely.
    uint64_t number(const Variable* v);
    /// The first node numbered with the same op and input numbers as `n` (n itself when
    /// it was the first, or when its outputs number uniquely); `n` must be numbered.
    const Node* representative(const Node* n) const;

    /// Whether the outputs of `n` may be identified with those of an equal node.
    static bool mergeable(const Node& n);

private:
    uint64_t numberConstant(const Variable* v);
    void numberNode(const Node* n);

    struct NodeEntry {
        const Node* rep;
        std::vector<uint64_t> inputs;
        uint64_t firstOutput;
    };
    struct ConstantEntry {
        const Variable* rep;
        uint64_t number;
    };
    uint64_t m_next = 1;
    std::unordered_map<const Variable*, uint64_t> m_number;
    std::unordered_map<const Node*, const Node*> m_representative;
    std::unordered_map<size_t, std::vector<NodeEntry>> m_nodes;
    std::unordered_map<size_t, std::vector<ConstantEntry>> m_constants;
};

} // namespace tl
