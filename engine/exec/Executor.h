#pragma once
// The CPU executor: a graph compiled once into a flat list of kernel calls over
// numbered value slots (PyTensor's VM with its storage map), then run many times.
#include "exec/ExecContext.h"
#include "exec/LazyBranches.h"
#include "core/NDArray.h"
#include "ir/Graph.h"

#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tl {

class ScanOp;
class OpFromGraphOp;
class BlockwiseOp;

/// Runs one op on arrays: its kernel, or the executor's own code for ops
/// without one (Scan's loop, OpFromGraph's inner graph). Throws what the kernel throws.
void performOp(ExecContext& ctx, const Op& op, std::span<const NDArray> inputs, std::span<NDArray> outputs);

/// Outputs of one run and the largest number of array bytes alive at once during it.
struct RunResult {
    std::vector<NDArray> outputs;
    size_t peakBytes = 0;
};

struct CompiledGraphOptions {
    /// Free every intermediate right after its last use, so the peak equals what the
    /// graph needs (top-level graphs, PyTensor's allow_gc). Off for Scan bodies: their
    /// storage cells stay between calls so kernels can reuse them, and only aliasing
    /// values (views, destroyed inputs) are dropped after their last use so they do
    /// not pin a cell another kernel wants to reuse.
    bool freeIntermediates = true;
    /// (graph output j, graph input i) pairs a caller may later make share memory: Scan
    /// lends output j's cell a buffer row that also holds input i (a new state written
    /// over its oldest tap, docs/semantics.md#exact-buffer-sizing). The plan then treats output j's node as a
    /// destroyer of input i: every other reader of input i and of its views runs first.
    /// A pair is granted (rowReuseGranted) only when that order exists, output j's node
    /// reads input i, if at all, directly and elementwise (Elemwise reads every element
    /// of a block before writing it), and no graph output aliases input i.
    std::vector<std::pair<int, int>> rowReuse;
};

class CompiledGraph {
public:
    using Options = CompiledGraphOptions;

    /// Plans the execution of the nodes the outputs need. Order: the graph's toposort,
    /// adjusted so every other reader of a destroyed value runs before its destroyer
    /// (PyTensor's DestroyHandler orderings) and an IfElse's condition before what only
    /// its branches need, which is then skipped when its branch is not taken (exec/LazyBranches.h). A destroyer that cannot be ordered safely
    /// (it destroys a constant, a graph input, a graph output, storage another node
    /// destroys, or a value read after it) works on a copy instead. `graph` must outlive
    /// this object and not change while it lives.
    explicit CompiledGraph(const Graph& graph, Options options = {});
    ~CompiledGraph();
    CompiledGraph(const CompiledGraph&) = delete;
    CompiledGraph& operator=(const CompiledGraph&) = delete;

    const Graph& graph() const { return m_graph; }
    int numInputs() const { return m_numInputs; }
    int numOutputs() const { return static_cast<int>(m_outputSlots.size()); }
    /// The nodes in execution order.
    const std::vector<const Node*>& order() const { return m_order; }
    /// Nodes whose destroyed input is copied first (see the constructor).
    const std::vector<const Node*>& protectedDestroyers() const { return m_protectedDestroyers; }
    /// Whether options.rowReuse[k] was granted (see CompiledGraphOptions::rowReuse).
    bool rowReuseGranted(size_t k) const { return k < m_rowReuseGranted.size() && m_rowReuseGranted[k]; }

    /// Checks the inputs (count, dtype, rank, static dims: ExecError naming the input),
    /// runs, and returns the outputs. Outputs that alias an input, a constant or an
    /// earlier output are copied, so the caller owns independent arrays; returned arrays
    /// stop reporting to the context's tracker (they outlive the run).
    std::vector<NDArray> run(ExecContext& ctx, std::span<const NDArray> inputs);

    // ---- the step interface Scan uses (no checks, no allocation of its own) ----
    /// The slot of graph input i; set it before execute().
    NDArray& inputSlot(int i) { return m_values[i]; }
    /// Runs every node once on the current input slots. Kernel failures become
    /// ExecError "<node label>: <reason>".
    void execute(ExecContext& ctx);
    /// The value of graph output j after execute().
    const NDArray& output(int j) const { return m_values[m_outputSlots[j]]; }
    /// The storage cell a node writes output j into, or null when output j is not a
    /// fresh array of its own (a graph input, a constant, a view or destroyed value,
    /// or a variable listed twice among the outputs). A caller may put an array there
    /// before execute() for the kernel to write into (Scan's preallocation).
    NDArray* outputCell(int j) { return m_outputCellOk[j] ? &m_values[m_outputSlots[j]] : nullptr; }
    /// True when output j may share memory with a graph input (it is one, or a view of one).
    bool outputAliasesInput(int j) const { return m_outputAliasesInput[j]; }
    /// Empties the input slots and every slot holding lent storage, so nothing here
    /// keeps an outer array alive or points into one after the caller is done.
    void releaseBorrowed();
    /// Empties every slot but the constants.
    void releaseAll();

private:
    struct Step {
        const Node* node;
        const Op* op;
        const ScanOp* loop;           // ops without a kernel of their own (hasKernel() false): run here
        const OpFromGraphOp* graphOp;
        const BlockwiseOp* batched;   // a Blockwise of such an op, run per batch element here
        uint32_t inBegin, inCount;    // into m_inputSlots
        int64_t contiguousIn;         // first slot when the inputs are slots k, k+1, ... and none is copied; else -1
        uint32_t outBegin, outCount;  // slots of the outputs (always consecutive)
        uint32_t relBegin, relCount;  // into m_releaseSlots: slots dropped after this step
        uint32_t copyBegin, copyCount;  // into m_copyInputs: input positions copied first (protected destroyers)
    };
    void plan();
    [[noreturn]] void rethrow(const Step& s, const std::exception& e) const;

    const Graph& m_graph;
    Options m_options;
    int m_numInputs = 0;
    std::vector<const Node*> m_order;
    std::vector<const Node*> m_protectedDestroyers;
    std::vector<char> m_rowReuseGranted;
    std::vector<Step> m_steps;
    std::vector<uint32_t> m_inputSlots;
    std::vector<uint32_t> m_releaseSlots;
    std::vector<uint32_t> m_copyInputs;
    std::vector<uint32_t> m_outputSlots;
    std::vector<char> m_outputCellOk;
    std::vector<char> m_outputAliasesInput;
    std::vector<uint32_t> m_constantSlots;
    std::vector<NDArray> m_values;
    std::vector<NDArray> m_scratch;  // gathered inputs of a node whose slots are not consecutive
    NDArray m_empty;                 // copy-assigned to release a slot while keeping its vectors' capacity
    LazyBranches m_lazy;
    bool m_running = false;
};

/// Compiles and runs `graph` once on `inputs` with a fresh ExecContext.
RunResult runGraph(const Graph& graph, std::span<const NDArray> inputs);
/// As above with the caller's context (its options; its tracker measures the peak).
RunResult runGraph(const Graph& graph, std::span<const NDArray> inputs, ExecContext& ctx);

} // namespace tl
