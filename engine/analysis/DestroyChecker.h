#pragma once
// The destroy handler as an incremental checker for passes that make nodes
// destructive one at a time (inplace_elemwise, inplace_setsubtensor): it keeps
// the destroyed roots, the orderings every destroyer imposes (other readers of
// the destroyed value run first) and a topological order of data edges plus
// orderings, maintained incrementally (Pearce-Kelly), so a candidate costs the
// size of the region between its readers and itself, not the whole graph.
//
// Semantics as PyTensor's DestroyHandler and tensorlens's executor: values are
// grouped by view_map only (the output of a destroyer starts a new value in the
// same memory), a value may be destroyed by one node, never when its root is a
// constant or a graph input, never when a view of it is a graph output, and
// only when every other reader of it (and of its views) can run before.
#include "ir/Graph.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tl {

/// The variable `v` is a view of through view_map only (itself if none): the value
/// a destroyer of `v` overwrites.
const Variable* viewRoot(const Variable& v);
/// `root` and every variable that views it (view_map only), root first.
std::vector<const Variable*> viewTree(const Variable& root);
/// A destroy or view map as dprint prints it: "{}", "{0: [0]}", "{0: [1], 1: [0]}".
std::string aliasMapText(const AliasMap& m);

class DestroyChecker {
public:
    /// Takes in the graph's existing destroyers (those that conflict are ignored).
    /// The graph's structure must not change while the checker is used; ops may be
    /// swapped for destructive versions that were checked here first.
    explicit DestroyChecker(const Graph& g);

    /// Whether `node` may overwrite its input `inputIndex`, given every destroyer
    /// recorded so far; nullopt when safe, otherwise the reason.
    std::optional<std::string> whyCannotDestroy(const Node& node, int inputIndex);
    /// Checks, and when safe records the destruction (its root and orderings).
    std::optional<std::string> tryDestroy(const Node& node, int inputIndex);

private:
    struct Plan {
        const Variable* root = nullptr;
        std::vector<const Node*> readers;  // must run before the destroyer
    };
    std::optional<std::string> check(const Node& node, int inputIndex, Plan& plan);
    /// Adds the orderings `before` -> `after` for every node in `befores`; none may be
    /// reachable from `after` (check() made sure).
    void addOrderings(const std::vector<const Node*>& befores, const Node* after);
    /// A node of `targets` reachable from `from` (data edges and orderings), or null.
    const Node* firstReached(const Node* from, const std::vector<const Node*>& targets);
    template <typename F> void forEachSucc(const Node* n, F&& f);
    template <typename F> void forEachPred(const Node* n, F&& f);

    // Per node, indexed by Node::slot() (the structure is fixed while the checker
    // lives): no hashing on the walks, which visit a node's successors many times,
    // and arrays the size of the graph.
    static size_t slot(const Node* n) { return n->slot(); }
    int ord(const Node* n) const { return m_ord[slot(n)]; }
    bool contains(const Node& n) const;
    /// Starts a new visit: every mark of the previous one is forgotten in O(1).
    void newVisit() { ++m_epoch; }
    /// Marks `n` in the current visit; true when it was not marked yet.
    bool mark(std::vector<uint32_t>& marks, const Node* n) {
        uint32_t& m = marks[slot(n)];
        if (m == m_epoch) return false;
        m = m_epoch;
        return true;
    }
    bool marked(const std::vector<uint32_t>& marks, const Node* n) const { return marks[slot(n)] == m_epoch; }

    std::vector<int> m_ord;         // position in the order
    std::vector<const Node*> m_at;  // node at each position of the order
    // Orderings beyond data edges; empty until the first is added (most checkers of a
    // large graph add none or few, and a list per node is 24 bytes a node).
    std::vector<std::vector<const Node*>> m_extraSucc, m_extraPred;
    std::vector<uint32_t> m_seen, m_want;  // visit marks
    uint32_t m_epoch = 0;
    std::unordered_map<const Variable*, const Node*> m_destroyerOf;  // by view root
};

} // namespace tl
