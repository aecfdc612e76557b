#pragma once
// "What did PyTensor miss?" (docs/missed.md): PyTensor's compiled graph beside
// tensorlens's. From a trace recorded in PyTensor (tools/pytensor_export.py's
// record_rewrites) it has PyTensor's graph before and after PyTensor's rewrites;
// tensorlens's pipeline then runs on both: on the original, to compare the two
// compilers' results, and on PyTensor's result, where every step it still takes
// is a rewrite PyTensor missed. Both final graphs are run on the same inputs.
// Without a trace (a compiled graph, a pasted dprint) only the second half exists.
//
// This layer sits above io because the reports print dprint listings (io/DPrint.h)
// and read given input values (io/JsonValues.h); nothing below it needs either.
#include "compare/GraphSummary.h"
#include "compare/MissedRewrites.h"
#include "core/NDArray.h"
#include "rewrite/RewriteBase.h"
#include "trace/Trace.h"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tl {

struct CompareOptions {
    /// scan_save_mem's sizing for tensorlens's runs: exact (default) or PyTensor's C backend.
    RewriteOptions::BufferMode bufferMode = RewriteOptions::BufferMode::Exact;
    /// Rewrites, passes or tags tensorlens skips (as `tensorlens rewrite --exclude`).
    std::set<std::string> exclude, include;
    /// Run both final graphs (off: static facts only).
    bool run = true;
    /// Seed of the random inputs when `inputs` is empty.
    uint64_t seed = 0;
    /// Input values, one per graph input of PyTensor's graph, in its order.
    std::vector<NDArray> inputs;
    /// Validate the graph after every pass (the CLI keeps it on; benchmarks may not).
    bool validate = true;
};

/// One final graph run by tensorlens.
struct GraphRun {
    std::string graph;       ///< which graph ran: "PyTensor", "tensorlens", "tensorlens on PyTensor's graph"
    bool ran = false;
    std::string error;       ///< why it did not run (an op tensorlens lacks, a failing kernel)
    size_t peakBytes = 0;    ///< most array bytes alive at once
    double seconds = 0.0;    ///< wall time of the run
    uint64_t rowsInPlace = 0, rowsCopied = 0;  ///< new loop states written into their buffer row / copied in
    std::vector<NDArray> outputs;
};

/// One loop of PyTensor's graph and the loops standing for it: index into each
/// summary's loopSummaries, -1 for none (a loop PyTensor kept and tensorlens removed,
/// or the reverse).
struct LoopRow {
    int pytensor = -1;
    int tensorlens = -1;  ///< tensorlens's pipeline on the original: matched by order, then by name
    int rewritten = -1;   ///< tensorlens on PyTensor's graph: the loop cloned from PyTensor's
};

struct Comparison {
    std::string program;     ///< a name for the program (the trace file's stem)
    bool hasTrace = false;   ///< PyTensor's graph before rewriting (and its steps) is known
    int pytensorSteps = 0;
    std::string mode;        ///< "exact" or "pytensor"

    std::unique_ptr<Graph> original;          ///< PyTensor's graph before rewriting (with a trace)
    std::unique_ptr<Graph> pytensorFinal;     ///< PyTensor's compiled graph
    /// tensorlens's pipeline on `original`: its steps (original inside) and result. Null
    /// without a trace, or when the pipeline failed (`tensorlensError` says why).
    std::unique_ptr<Trace> tensorlensTrace;
    std::unique_ptr<Graph> tensorlensFinal;
    std::string tensorlensError;
    /// tensorlens's pipeline on `pytensorFinal`: every step is a rewrite PyTensor missed.
    std::unique_ptr<Trace> missedTrace;
    std::unique_ptr<Graph> pytensorFinalRewritten;
    std::string missedError;

    GraphSummary pytensorSummary, tensorlensSummary, rewrittenSummary;
    std::vector<LoopRow> loops;
    std::vector<MissedRewrite> missed;

    /// Runs of PyTensor's final graph and of tensorlens's on the same inputs: tensorlens's
    /// own result (`tensorlensFinal`), or, without a trace or when that does not run (an op
    /// tensorlens lacks stayed in it), `pytensorFinalRewritten`.
    GraphRun pytensorRun, tensorlensRun;
    bool outputsCompared = false;
    double maxAbsDifference = 0.0;  ///< over every element of every output (inf: shapes differ)
    std::string differenceNote;     ///< which output and element, or why outputs were not compared
    /// False when the compared outputs differ by more than rounding (floats within a
    /// relative 1e-9, float32 1e-4, of the element or of the output's largest
    /// magnitude; integers equal; NaN where the other has NaN): one of the two compiled
    /// graphs does not compute what the program does.
    bool outputsAgree = true;
    /// Then, which side the original graph's own run agrees with ("" when it did not run).
    std::string disagreement;

    /// The graph tensorlens's side stands for: tensorlensFinal, or pytensorFinalRewritten.
    const Graph* tensorlensSide() const;
    /// Its summary.
    const GraphSummary& tensorlensSideSummary() const;
};

/// The comparison from a trace recorded in PyTensor. Throws std::invalid_argument when
/// the trace has no original graph; the trace's replay errors propagate (TraceReplayError).
Comparison compareWithPyTensor(const Trace& pytensorTrace, const CompareOptions& options);

/// The second half only: what tensorlens still finds to do on a graph PyTensor compiled.
Comparison compareCompiledGraph(const Graph& pytensorCompiled, const CompareOptions& options);

} // namespace tl
