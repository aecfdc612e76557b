#pragma once
// Generated graphs of a chosen size, for benchmarks and scale tests: long
// elementwise chains, many independent scans, duplicated subexpressions, and
// a mix of all three with scans (the GUI's 5,000-node case).
#include "ir/Graph.h"

#include <cstdint>
#include <memory>

namespace tl {

/// An elementwise chain of about `nodes` ops over one vector input; every
/// `reuseEvery`-th op also reads the input again (the long edges that make `dot` slow).
std::unique_ptr<Graph> generateElemwiseChain(int nodes, int reuseEvery = 8, int64_t length = 16);
/// `scans` independent sit_sot loops of equal length (ScanMerge material), each
/// updating x' = tanh(x) * a + b with its own inputs; their last values are summed.
std::unique_ptr<Graph> generateIndependentScans(int scans, int nSteps = 10, int64_t length = 8);
/// `scans` independent sit_sot loops whose step is an elementwise chain of
/// `bodyOps` ops over the state and a per-loop input (a model's loop body, not a
/// one-liner); their last values are summed. Counting the bodies (whose constants
/// are nodes too), 64 loops of 29 ops make about 5,000 nodes.
std::unique_ptr<Graph> generateScansWithBodies(int scans, int bodyOps, int nSteps = 10, int64_t length = 8);
/// The nodes of `g` and of every inner graph (Scan bodies, Composites) below it.
size_t countNodesWithInnerGraphs(const Graph& g);
/// About `nodes` ops in which every subexpression is built twice (merge material).
std::unique_ptr<Graph> generateDuplicatedSubexpressions(int nodes, int64_t length = 16);
/// A mix: chains, duplicated subexpressions and scans, about `nodes` nodes in total.
std::unique_ptr<Graph> generateMixed(int nodes, uint64_t seed = 1);

} // namespace tl
