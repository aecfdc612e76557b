#pragma once
// The pass manager (docs/conventions.md#the-pass-manager): an ordered list of named phases, each a
// list of passes; enable/disable by name or tag; validation after every pass that
// changed the graph; a trace of every step.
#include "rewrite/RewriteBase.h"
#include "trace/Trace.h"

#include <functional>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace tl {

struct PipelineOptions : RewriteOptions {
    /// Names or tags of rewrites/passes to skip (`--exclude scan_merge_states`).
    std::set<std::string> exclude;
    /// Names or tags to run even when excluded by a tag, or that are off by default.
    std::set<std::string> include;
    /// Validate the graph (types, clients, acyclic, destroy handler) after every pass that changed it,
    /// and each loop body after every pass that changed the body.
    bool validate = true;
    /// Graph inputs (by position) the graph may overwrite: a Scan step graph's updated
    /// mit_mot taps (scanMutableInnerInputs). Validation does not count their destruction.
    std::vector<int> mutableInputs;
    /// Fingerprint the graph around every pass and fail when its "changed" is not honest (test builds).
    bool checkHonestChange = false;
    /// Called after each pass with (phase, pass, changed): progress for the CLI/GUI.
    std::function<void(std::string_view, std::string_view, bool)> onPass;
};

/// Thrown when a pass leaves an invalid graph or lies about changing it; names the pass.
struct PipelineError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct PipelinePhase {
    std::string name;
    std::vector<std::unique_ptr<GraphPass>> passes;
    /// When >= 0: passes 0..settleAfter run again while pass settleAfter changed the
    /// graph (a merge that makes two nodes one can let the rewrites before it fire
    /// again, as PyTensor's merge inside canonicalize's equilibrium); a few rounds at most.
    int settleAfter = -1;
};

/// A rewrite or pass as listed for users (CLI --list, GUI exclusion list).
struct RewriteDescription {
    std::string phase;
    std::string name;
    std::vector<std::string> tags;
    bool enabledByDefault = true;
};

class Pipeline {
public:
    /// The FAST_RUN-like pipeline of docs/semantics.md#rewrite-pipeline.
    static Pipeline fastRun();
    /// The pipeline run inside Scan loop bodies. `compiled`: all PyTensor runs on a step
    /// when it compiles the loop (merge, canonicalize, stabilize, fill_to_alloc, blas,
    /// specialize, uncanonicalize, fusion, local_useless_unbatched_blockwise). Otherwise
    /// only the phases that keep steps comparable for the loop rewrites of the outer
    /// pipeline (through blas: no specialized or fused forms yet).
    static Pipeline innerGraph(bool compiled = true);

    void addPhase(std::string name, std::vector<std::unique_ptr<GraphPass>> passes, int settleAfter = -1);
    const std::vector<PipelinePhase>& phases() const { return m_phases; }
    std::vector<RewriteDescription> describe() const;

    /// Rewrites `graph` in place. With a trace, every change becomes a step.
    /// Throws PipelineError naming the pass on invalid results.
    void run(Graph& graph, const PipelineOptions& options, Trace* trace = nullptr) const;

    /// Checks that every name in exclude/include names a known rewrite, pass or tag;
    /// returns the unknown ones.
    std::vector<std::string> unknownNames(const PipelineOptions& options) const;

private:
    std::vector<PipelinePhase> m_phases;
};

/// Names and tags enabled under these options.
bool isEnabled(std::string_view name, const std::vector<std::string>& tags, const PipelineOptions& options,
               bool enabledByDefault = true);

/// Rewrites a copy of `original` and returns the trace (original kept in it).
Trace rewriteWithTrace(const Graph& original, const PipelineOptions& options);

} // namespace tl
