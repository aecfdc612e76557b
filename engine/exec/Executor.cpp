#include "exec/Executor.h"

#include "exec/DestroyOrder.h"
#include "exec/OpFromGraphRun.h"
#include "exec/ScanLoop.h"
#include "ir/GraphWalk.h"
#include "ir/SliceValue.h"
#include "ops/Blockwise.h"
#include "ops/Opaque.h"

#include <algorithm>
#include <queue>
#include <unordered_map>
#include <unordered_set>

namespace tl {

namespace {

std::string describeInput(int i, const Variable* v) {
    std::string s = "input " + std::to_string(i);
    if (v && !v->name().empty()) s += " ('" + v->name() + "')";
    return s;
}

// Whether `a` may stand for a variable of type `t` (dtype, rank, known dims).
bool fitsType(const NDArray& a, const Type& t) {
    if (!a.valid() || a.dtype() != t.dtype) return false;
    if (!t.holdsNumbers()) return valueFitsKind(a, t);
    if (t.isScalarType()) return a.ndim() == 0;
    if (a.ndim() != t.ndim()) return false;
    for (int d = 0; d < t.ndim(); ++d)
        if (t.shape[d] != kUnknownDim && t.shape[d] != a.dim(d)) return false;
    return true;
}

} // namespace

void performOp(ExecContext& ctx, const Op& op, std::span<const NDArray> inputs, std::span<NDArray> outputs) {
    if (op.hasKernel()) return op.perform(inputs, outputs);
    if (auto* loop = dynamic_cast<const ScanOp*>(&op)) return runScanLoop(ctx, *loop, inputs, outputs);
    if (auto* ofg = dynamic_cast<const OpFromGraphOp*>(&op)) return runOpFromGraph(ctx, *ofg, inputs, outputs);
    if (auto* bw = dynamic_cast<const BlockwiseOp*>(&op))
        return bw->performWith(inputs, outputs, [&ctx](const Op& core, std::span<const NDArray> i, std::span<NDArray> o) {
            performOp(ctx, core, i, o);
        });
    throw ExecError(op.name() + " cannot be run: it has no kernel");
}

CompiledGraph::CompiledGraph(const Graph& graph, Options options) : m_graph(graph), m_options(options) { plan(); }

CompiledGraph::~CompiledGraph() = default;

void CompiledGraph::plan() {
    const Graph& g = m_graph;
    m_numInputs = static_cast<int>(g.inputs().size());

    // 1. The nodes the outputs need.
    const std::unordered_set<const Node*> needed = nodesFeeding(g.outputs());
    std::vector<const Node*> topo;
    std::unordered_map<const Node*, int> topoIndex;
    for (Node* n : g.toposort())
        if (needed.count(n)) {
            topoIndex[n] = static_cast<int>(topo.size());
            topo.push_back(n);
        }
    auto isNeeded = [&](const Node* n) { return n && needed.count(n) != 0; };

    // 2-3. Destroy orderings and row reuse (exec/DestroyOrder.h).
    DestroyOrder destroys = planDestroyOrder(g, topo, needed, m_options.rowReuse);
    const auto& memParent = destroys.memParent;
    m_protectedDestroyers = std::move(destroys.protectedDestroyers);
    m_rowReuseGranted = std::move(destroys.rowReuseGranted);

    // 3c. Lazy IfElse: conditions before what only their branches need (exec/LazyBranches.h).
    m_lazy.analyse(topo);

    // 4. Execution order: Kahn's algorithm, ties broken by the toposort position.
    auto order = [&](bool lazyEdges) {
        m_order.clear();
        std::unordered_map<const Node*, int> indegree;
        std::unordered_map<const Node*, std::vector<const Node*>> succ;
        for (const Node* n : topo) indegree[n];
        for (const Node* n : topo) {
            std::unordered_set<const Node*> preds;
            for (Variable* in : n->inputs())
                if (isNeeded(in->owner())) preds.insert(in->owner());
            for (const Node* p : preds) succ[p].push_back(n);
            indegree[n] += static_cast<int>(preds.size());
        }
        auto addEdges = [&](const std::unordered_map<const Node*, std::vector<const Node*>>& edges) {
            for (auto& [r, ds] : edges)
                for (const Node* d : ds) {
                    succ[r].push_back(d);
                    ++indegree[d];
                }
        };
        addEdges(destroys.runBefore);
        if (lazyEdges) addEdges(m_lazy.orderings());
        auto later = [&](const Node* a, const Node* b) { return topoIndex[a] > topoIndex[b]; };
        std::priority_queue<const Node*, std::vector<const Node*>, decltype(later)> ready(later);
        for (const Node* n : topo)
            if (indegree[n] == 0) ready.push(n);
        while (!ready.empty()) {
            const Node* n = ready.top();
            ready.pop();
            m_order.push_back(n);
            for (const Node* s : succ[n])
                if (--indegree[s] == 0) ready.push(s);
        }
        return m_order.size() == topo.size();
    };
    if (!order(m_lazy.any())) {
        // The destroy orderings leave no room for conditions first: compute every branch.
        if (!m_lazy.any() || (m_lazy.disable(), !order(false)))
            throw GraphError("cannot order the graph's nodes: destroy orderings form a cycle");
    }

    // 5. Slots: graph inputs, constants, then each node's outputs consecutively.
    std::unordered_map<const Variable*, uint32_t> slotOf;
    uint32_t next = 0;
    for (Variable* in : g.inputs()) slotOf[in] = next++;
    std::vector<const Variable*> constantVars;
    auto constantSlot = [&](const Variable* v) {
        auto [it, fresh] = slotOf.emplace(v, next);
        if (fresh) {
            m_constantSlots.push_back(next);
            constantVars.push_back(v);
            ++next;
        }
        return it->second;
    };
    for (const Node* n : m_order)
        for (Variable* in : n->inputs())
            if (in->isConstant()) constantSlot(in);
    for (Variable* o : g.outputs())
        if (o->isConstant()) constantSlot(o);
    for (const Node* n : m_order)
        for (Variable* o : n->outputs()) slotOf[o] = next++;
    m_values.assign(next, NDArray());
    for (size_t c = 0; c < constantVars.size(); ++c) m_values[m_constantSlots[c]] = constantVars[c]->constantValue();
    auto slot = [&](const Variable* v, const std::string& where) {
        auto it = slotOf.find(v);
        if (it == slotOf.end())
            throw GraphError(where + ": variable " + std::to_string(v->id()) +
                             " is neither a graph input, a constant nor computed by a node");
        return it->second;
    };

    // 6. Last uses and the steps.
    std::vector<int> lastUse(next, -1);
    std::vector<char> isOutput(next, 0);
    for (Variable* o : g.outputs()) isOutput[slot(o, "graph output")] = 1;
    for (size_t si = 0; si < m_order.size(); ++si) {
        const Node* n = m_order[si];
        for (Variable* in : n->inputs()) lastUse[slot(in, n->label())] = static_cast<int>(si);
        for (Variable* o : n->outputs())
            if (lastUse[slotOf[o]] < 0) lastUse[slotOf[o]] = static_cast<int>(si);
    }
    std::vector<char> isConstantSlot(next, 0);
    for (uint32_t s : m_constantSlots) isConstantSlot[s] = 1;
    std::vector<std::vector<uint32_t>> releaseAt(m_order.size());
    for (auto& [v, s] : slotOf) {
        if (isConstantSlot[s] || isOutput[s] || lastUse[s] < 0) continue;
        const bool isInput = s < static_cast<uint32_t>(m_numInputs);
        bool release = m_options.freeIntermediates || (!isInput && memParent.count(v));
        if (release) releaseAt[lastUse[s]].push_back(s);
    }
    size_t maxInputs = 0;
    for (size_t si = 0; si < m_order.size(); ++si) {
        const Node* n = m_order[si];
        Step st{};
        st.node = n;
        st.op = &n->op();
        if (!st.op->hasKernel()) {
            st.loop = dynamic_cast<const ScanOp*>(st.op);
            st.graphOp = dynamic_cast<const OpFromGraphOp*>(st.op);
            st.batched = dynamic_cast<const BlockwiseOp*>(st.op);
            if (!st.loop && !st.graphOp && !st.batched) throw ExecError(n->label() + ": " + st.op->name() + " cannot be run: it has no kernel");
        }
        st.inBegin = static_cast<uint32_t>(m_inputSlots.size());
        st.inCount = static_cast<uint32_t>(n->numInputs());
        for (Variable* in : n->inputs()) m_inputSlots.push_back(slotOf[in]);
        st.copyBegin = static_cast<uint32_t>(m_copyInputs.size());
        auto ci = destroys.copyInputs.find(n);
        if (ci != destroys.copyInputs.end())
            for (int i : ci->second) m_copyInputs.push_back(static_cast<uint32_t>(i));
        st.copyCount = static_cast<uint32_t>(m_copyInputs.size()) - st.copyBegin;
        st.contiguousIn = st.inCount > 0 && st.copyCount == 0 ? static_cast<int64_t>(m_inputSlots[st.inBegin]) : -1;
        for (uint32_t k = 1; k < st.inCount && st.contiguousIn >= 0; ++k)
            if (m_inputSlots[st.inBegin + k] != m_inputSlots[st.inBegin] + k) st.contiguousIn = -1;
        if (st.inCount == 0) st.contiguousIn = 0;
        st.outBegin = n->numOutputs() ? slotOf[n->output(0)] : 0;
        st.outCount = static_cast<uint32_t>(n->numOutputs());
        st.relBegin = static_cast<uint32_t>(m_releaseSlots.size());
        std::sort(releaseAt[si].begin(), releaseAt[si].end());
        m_releaseSlots.insert(m_releaseSlots.end(), releaseAt[si].begin(), releaseAt[si].end());
        st.relCount = static_cast<uint32_t>(releaseAt[si].size());
        maxInputs = std::max<size_t>(maxInputs, st.inCount);
        m_steps.push_back(st);
    }
    m_scratch.resize(maxInputs);
    m_lazy.bind(m_order, [&](const Variable* v) { return slotOf.at(v); });

    // 7. Output facts for callers that drive execute() themselves (Scan).
    std::unordered_map<const Variable*, int> outputCount;
    for (Variable* o : g.outputs()) ++outputCount[o];
    for (Variable* o : g.outputs()) {
        m_outputSlots.push_back(slotOf[o]);
        const bool fresh = o->owner() && !memParent.count(o) && outputCount[o] == 1;
        m_outputCellOk.push_back(fresh ? 1 : 0);
        const Variable* root = aliasRoot(memParent, o);
        m_outputAliasesInput.push_back(!root->owner() && !root->isConstant() ? 1 : 0);
    }
}

void CompiledGraph::rethrow(const Step& s, const std::exception& e) const {
    if (const auto* opaque = dynamic_cast<const OpaqueOp*>(s.op); opaque && opaque->drawsRandomNumbers())
        throw ExecError(randomDrawMessage(*s.node));
    throw ExecError(s.node->label() + ": " + e.what());
}

void CompiledGraph::execute(ExecContext& ctx) {
    NDArray* values = m_values.data();
    m_lazy.beginRun();
    for (size_t si = 0; si < m_steps.size(); ++si) {
        const Step& s = m_steps[si];
        if (m_lazy.skippable(si, values)) {
            // Only a branch not taken needs it (exec/LazyBranches.h).
            for (uint32_t r = 0; r < s.relCount; ++r) values[m_releaseSlots[s.relBegin + r]] = m_empty;
            continue;
        }
        std::span<const NDArray> ins;
        if (s.contiguousIn >= 0) {
            ins = std::span<const NDArray>(values + s.contiguousIn, s.inCount);
        } else {
            for (uint32_t k = 0; k < s.inCount; ++k) m_scratch[k] = values[m_inputSlots[s.inBegin + k]];
            try {
                for (uint32_t c = 0; c < s.copyCount; ++c) {
                    NDArray& a = m_scratch[m_copyInputs[s.copyBegin + c]];
                    if (a.valid()) a = a.copy();
                }
            } catch (const std::exception& e) {
                rethrow(s, e);
            }
            ins = std::span<const NDArray>(m_scratch.data(), s.inCount);
        }
        std::span<NDArray> outs(values + s.outBegin, s.outCount);
        try {
            if (s.loop) runScanLoop(ctx, *s.loop, ins, outs);
            else if (s.graphOp) runOpFromGraph(ctx, *s.graphOp, ins, outs);
            else if (s.batched) performOp(ctx, *s.batched, ins, outs);
            else s.op->perform(ins, outs);
        } catch (const std::exception& e) {
            if (s.contiguousIn < 0)
                for (uint32_t k = 0; k < s.inCount; ++k) m_scratch[k] = m_empty;
            rethrow(s, e);
        }
        if (s.contiguousIn < 0)
            for (uint32_t k = 0; k < s.inCount; ++k) m_scratch[k] = m_empty;  // copy-assign keeps capacity
        for (uint32_t k = 0; k < s.outCount; ++k)
            if (!outs[k].valid())
                throw ExecError(s.node->label() + ": the kernel produced no value for output " + std::to_string(k));
        m_lazy.ran(si);
        for (uint32_t r = 0; r < s.relCount; ++r) values[m_releaseSlots[s.relBegin + r]] = m_empty;
    }
}

std::vector<NDArray> CompiledGraph::run(ExecContext& ctx, std::span<const NDArray> inputs) {
    if (m_running) throw ExecError("graph is already running (re-entrant call)");
    if (static_cast<int>(inputs.size()) != m_numInputs)
        throw ExecError("expected " + std::to_string(m_numInputs) + " inputs, got " + std::to_string(inputs.size()));
    for (int i = 0; i < m_numInputs; ++i) {
        const Variable* v = m_graph.inputs()[i];
        const NDArray& a = inputs[i];
        if (!fitsType(a, v->type())) {
            std::string got = a.valid() ? std::string(dtypeName(a.dtype())) + " array of shape " + shapeToString(a.shape())
                                        : std::string("no array");
            throw ExecError(describeInput(i, v) + ": expected " + v->type().toString() + ", got " + got);
        }
    }
    MemoryTrackerScope scope(&ctx.tracker());
    struct RunningGuard {
        CompiledGraph& g;
        explicit RunningGuard(CompiledGraph& c) : g(c) { g.m_running = true; }
        ~RunningGuard() {
            g.m_running = false;
            if (g.m_options.freeIntermediates) g.releaseAll();
            else g.releaseBorrowed();
        }
    } guard(*this);
    for (int i = 0; i < m_numInputs; ++i) m_values[i] = inputs[i];
    execute(ctx);

    // Outputs must not share memory with what the caller or the graph still owns.
    std::unordered_set<const Storage*> owned;
    for (const NDArray& a : inputs) owned.insert(a.storage().get());
    for (uint32_t s : m_constantSlots) owned.insert(m_values[s].storage().get());
    std::vector<NDArray> out;
    out.reserve(m_outputSlots.size());
    for (uint32_t s : m_outputSlots) {
        NDArray v = m_values[s];
        if (!owned.insert(v.storage().get()).second) v = v.copy();
        out.push_back(std::move(v));
    }
    for (NDArray& a : out) a.storage()->untrack();
    return out;
}

void CompiledGraph::releaseBorrowed() {
    for (int i = 0; i < m_numInputs; ++i) m_values[i] = m_empty;
    for (NDArray& v : m_values)
        if (v.valid() && v.storage()->isLent()) v = m_empty;
}

void CompiledGraph::releaseAll() {
    std::vector<char> keep(m_values.size(), 0);
    for (uint32_t s : m_constantSlots) keep[s] = 1;
    for (size_t s = 0; s < m_values.size(); ++s)
        if (!keep[s]) m_values[s] = m_empty;
}

RunResult runGraph(const Graph& graph, std::span<const NDArray> inputs, ExecContext& ctx) {
    CompiledGraph compiled(graph);
    ctx.tracker().resetPeak();
    RunResult r;
    r.outputs = compiled.run(ctx, inputs);
    r.peakBytes = ctx.tracker().peakBytes();
    return r;
}

RunResult runGraph(const Graph& graph, std::span<const NDArray> inputs) {
    ExecContext ctx;
    return runGraph(graph, inputs, ctx);
}

} // namespace tl
