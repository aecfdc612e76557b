#pragma once
// Structural equality and hashing of graphs, and of ops whose inner graphs compare
// by structure rather than by identity. Two Scan (or Composite) ops built separately
// from the same step function are the same op for the merge pass and the scan
// rewrites, as PyTensor's equal_computations makes them. Ids and names never matter.
#include "ir/Graph.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tl {

/// Two constants are one value (PyTensor's merge signature): equal types and equal
/// bytes in C order (so NaNs with equal bits are equal, 0.0 and -0.0 are not).
bool constantsEqual(const Variable& a, const Variable& b);
/// A hash consistent with constantsEqual.
size_t constantHash(const Variable& c);

/// Numbers the variables of one or more graphs so that two variables get the same
/// number exactly when they compute the same value structurally: equal constants,
/// graph inputs of the same class, or output k of equivalent ops applied to inputs
/// with the same numbers (hash-consing in topological order: linear, no recursion on
/// graph depth). Ops with inner graphs compare those structurally; that recursion
/// goes only as deep as inner graphs nest. Keeps every op it has seen alive, so
/// cached results can never refer to a freed graph.
class StructuralNumbering {
public:
    StructuralNumbering();
    ~StructuralNumbering();
    StructuralNumbering(const StructuralNumbering&) = delete;
    StructuralNumbering& operator=(const StructuralNumbering&) = delete;

    /// Puts graph input `v` in class `cls`: inputs of one class and one type get one
    /// number (the i-th inputs of two loop bodies, or two states assumed equal).
    /// Must be called before number() reaches `v`.
    void setInputClass(const Variable& v, int64_t cls);
    /// Numbers every variable of `g` (inputs without a class get a fresh number each).
    /// `g` must outlive this object and not change while it is used.
    void number(const Graph& g);
    /// The number of a variable number() has covered; -1 for any other.
    int64_t numberOf(const Variable& v) const;

    /// The equivalence class of an op: equal classes <=> opsEquivalent.
    int64_t opClass(const OpPtr& op);
    /// a.equals(b), or for ops with inner graphs: same kind, equal params and
    /// structurally equal inner graphs.
    bool opsEquivalent(const Op& a, const Op& b);
    /// A hash consistent with opsEquivalent.
    size_t opHash(const Op& op);
    /// Structural equality of two whole graphs (see graphsStructurallyEqual); cached.
    bool graphsEqual(const std::shared_ptr<const Graph>& a, const std::shared_ptr<const Graph>& b);
    /// A hash consistent with graphsEqual; cached.
    size_t graphHash(const std::shared_ptr<const Graph>& g);
    /// Uncached form for graphs not owned by a shared_ptr.
    size_t graphHashOf(const Graph& g);

private:
    struct NodeKey {
        int64_t opClass;
        std::vector<int64_t> inputs;
        bool operator==(const NodeKey&) const = default;
    };
    struct NodeKeyHash {
        size_t operator()(const NodeKey& k) const;
    };
    int64_t constantNumber(const Variable& c);
    int64_t inputNumber(const Variable& v);

    int64_t m_next = 0;
    std::unordered_map<const Variable*, int64_t> m_numbers;
    std::map<std::pair<int64_t, std::string>, int64_t> m_inputClasses;  // (class, type) -> number
    std::unordered_map<const Variable*, int64_t> m_classOfInput;
    std::unordered_multimap<size_t, std::pair<const Variable*, int64_t>> m_constants;
    std::unordered_map<NodeKey, int64_t, NodeKeyHash> m_nodes;  // -> number of output 0
    // Op classes: representatives by hash, and a memo per op object (ops are shared by nodes).
    std::unordered_multimap<size_t, std::pair<OpPtr, int64_t>> m_opReps;
    std::unordered_map<const Op*, std::pair<OpPtr, int64_t>> m_opClassMemo;
    int64_t m_nextOpClass = 0;
    std::map<std::pair<const Graph*, const Graph*>, bool> m_graphEqualMemo;
    std::unordered_map<const Graph*, size_t> m_graphHashMemo;
    std::vector<std::shared_ptr<const Graph>> m_keepAlive;
};

/// Same number of inputs with equal types at each position, and outputs computing
/// the same values from the inputs at the same positions. Ids and names ignored.
bool graphsStructurallyEqual(const Graph& a, const Graph& b);
/// A hash consistent with graphsStructurallyEqual.
size_t structuralHash(const Graph& g);

} // namespace tl
