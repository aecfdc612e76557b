#pragma once
// What a compiled graph costs, loop by loop: the facts `tensorlens missed` puts
// side by side for PyTensor's graph and tensorlens's (docs/missed.md). Static
// facts only (read from types and ops); what a run measures is in Comparison.h.
#include "ir/Graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tl {

/// One traced state or nit_sot of a loop.
struct StateSummary {
    std::string label;         ///< "sit_sot-0", "mit_sot-1", "nit_sot-0" (dprint's op-info names)
    std::string category;      ///< "sit_sot", ...
    std::vector<int> taps;     ///< input taps (traced states)
    std::string shape;         ///< the buffer's static shape, "(2, 7)" ("?" where unknown)
    int64_t rows = -1;         ///< -1: known only at run time
    int64_t bytes = -1;        ///< -1: known only at run time
    bool outputRead = false;   ///< the loop's outer output of this state is read
    bool inplace = false;      ///< the loop works in the outer buffer (in its destroy_map): no copy first
    bool reuseProven = false;  ///< tensorlens proved a new row may overwrite the oldest tap's (exact mode)
};

/// One Scan node of the outer graph.
struct LoopSummary {
    NodeId node = -1;
    std::string name;          ///< the loop's name, "rop_of_scan_fn&scan_fn"
    std::string opName;        ///< "Scan{scan_fn, while_loop=False, inplace=all}"
    std::string nSteps;        ///< "10", or how it is computed ("Shape_i{0}(xs)")
    bool whileLoop = false;
    int recurrentStates = 0;   ///< mit_mot + mit_sot + sit_sot + untraced
    std::vector<StateSummary> states;  ///< traced states, then nit_sots
    int stepNodes = 0;         ///< nodes of the step graph
    /// Scalar operations per element and step: one per Elemwise, a Composite's body
    /// node by node (what fusion hides, as the seed counts `exp` twice in two Composites).
    int scalarOps = 0;
    int exps = 0;              ///< of which `exp`
    int64_t bufferBytes = 0;   ///< the states' buffers together; -1 when one is known only at run time
};

struct GraphSummary {
    int nodes = 0;             ///< outer nodes
    int loops = 0;
    int deepCopies = 0;
    /// What each DeepCopyOp copies: "outer_in_sit_sot-1 of Scan{scan_fn, ...}", "output 1".
    std::vector<std::string> deepCopyOf;
    std::vector<LoopSummary> loopSummaries;  ///< in topological order
    int64_t bufferBytes = 0;   ///< every loop's buffers; -1 when one is known only at run time
};

/// The facts of `g`.
GraphSummary summarizeGraph(const Graph& g);

/// The scalar operations and exps of a step graph (Composites counted by their bodies,
/// nested loops' steps counted once).
struct StepCost {
    int nodes = 0, scalarOps = 0, exps = 0;
};
StepCost stepCost(const Graph& step);

} // namespace tl
