#pragma once
// Lazy evaluation of IfElse, as PyTensor's VM does it (ops/IfElse.h): a node that only
// the branch not taken needs is not computed. The plan orders every node feeding a
// branch (and not the condition) after the condition is known; at run time such a node
// is skipped when none of its uses can still need it: each use is a branch an IfElse
// whose condition is known does not take, or a node skipped for that reason.
//   ifelse(c, expensive(x), cheap(x)): with c false, expensive(x) never runs.
// A node feeding a branch that can only be ordered before the condition (a destroyer's
// ordering forbids otherwise) is computed as usual: laziness saves work and errors of
// the untaken branch, it never changes a result.
#include "core/NDArray.h"
#include "ir/Graph.h"

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace tl {

class LazyBranches {
public:
    /// Finds the IfElse nodes among `topo` (the nodes the outputs need, in a topological
    /// order) and the nodes only their branches need; orderings() then holds an edge from
    /// each condition's node to each of those nodes.
    void analyse(const std::vector<const Node*>& topo);
    /// Extra "runs before" edges the execution order must honour while laziness is on.
    const std::unordered_map<const Node*, std::vector<const Node*>>& orderings() const { return m_orderings; }
    bool any() const { return m_enabled && !m_lazyNodes.empty(); }
    /// Gives laziness up (the orderings could not be honoured): every node runs.
    void disable() { m_enabled = false; }

    /// Binds the analysis to the execution order and the value slots.
    void bind(const std::vector<const Node*>& order, const std::function<uint32_t(const Variable*)>& slotOf);

    /// Starts one execution: forgets what the last one decided.
    void beginRun();
    /// Records that step `si` ran (its outputs hold this execution's values).
    void ran(size_t si) {
        if (any()) m_ran[si] = 1;
    }
    /// Whether step `si` may be skipped now: it feeds only branches not taken.
    bool skippable(size_t si, const NDArray* values);

private:
    bool edgeActive(size_t client, int position, const NDArray* values) const;

    bool m_enabled = true;
    std::unordered_map<const Node*, std::vector<const Node*>> m_orderings;
    std::unordered_map<const Node*, char> m_lazyNodes;

    struct Use {
        uint32_t step;
        int position;
    };
    struct StepInfo {
        bool lazy = false;
        bool feedsOutput = false;
        std::vector<Use> uses;
        // IfElse steps: the condition's slot and the step computing it (-1: input or constant).
        bool ifElse = false;
        int nOuts = 0;
        uint32_t condSlot = 0;
        int64_t condStep = -1;
    };
    std::vector<StepInfo> m_steps;
    std::vector<char> m_ran;
    std::vector<int8_t> m_memo;  // 0 unknown, 1 needed, 2 not needed
    std::vector<std::pair<uint32_t, size_t>> m_stack;
};

} // namespace tl
