#pragma once
// The oracle of every rewrite test (docs/conventions.md#numbers-are-the-oracle): run
// the graph before and after the rewrite on the same seeded inputs and compare the
// numbers.
#include "rewrite/Pipeline.h"
#include "trace/Trace.h"

#include <memory>
#include <string>
#include <vector>

namespace tl::test {

struct RewriteOutcome {
    std::unique_ptr<Graph> before;  // a copy of the input graph
    std::unique_ptr<Graph> after;   // the rewritten graph
    Trace trace;                    // the steps taken
    std::vector<NDArray> outputsBefore, outputsAfter;
    size_t peakBefore = 0, peakAfter = 0;
    /// Empty when the outputs agree; otherwise which output differs and how.
    std::string mismatch;
    /// How many steps the named rewrite made.
    int stepsOf(const std::string& rewrite) const;
};

/// Pipeline options with scan_save_mem's buffer mode: `exact` (the default) or PyTensor's.
PipelineOptions bufferMode(bool exact);

/// A pipeline with one phase holding these passes.
Pipeline singlePhase(std::string phase, std::vector<std::unique_ptr<GraphPass>> passes);
/// A pipeline with one phase holding one pass.
Pipeline singlePass(std::string phase, std::unique_ptr<GraphPass> pass);
/// A pipeline with one phase running one node rewrite to a fixpoint.
Pipeline singleRewrite(const NodeRewrite& rewrite);

/// Runs `g` (seeded random inputs, or `inputs` when given), rewrites a copy with
/// `pipeline` (validation and honesty checks on), runs the result and compares.
/// Throws std::logic_error (a failed test) when replaying the recorded trace from
/// the original does not rebuild the rewritten graph exactly.
RewriteOutcome rewriteAndCompare(const Graph& g, const Pipeline& pipeline, PipelineOptions options = {},
                                 uint64_t seed = 1, double rtol = 1e-12, double atol = 0.0,
                                 const std::vector<NDArray>* inputs = nullptr);

/// Nodes of `g` whose op kind is `kind` (not counting inner graphs).
int countOps(const Graph& g, OpKind kind);
/// "Gemm 1, Dot22 0": countOps for each kind, under the names given.
std::string opCountsText(const Graph& g, const std::vector<std::pair<OpKind, const char*>>& kinds);

} // namespace tl::test
