#include "compare/Comparison.h"

#include "exec/Executor.h"
#include "io/JsonValues.h"
#include "rewrite/Pipeline.h"
#include "trace/TraceReplayer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

namespace tl {

namespace {

PipelineOptions pipelineOptions(const CompareOptions& o) {
    PipelineOptions p;
    p.bufferMode = o.bufferMode;
    p.exclude = o.exclude;
    p.include = o.include;
    p.validate = o.validate;
    return p;
}

// tensorlens's pipeline on a copy of `g`: the trace (with `g` as its original) and the result.
void rewriteCopy(const Graph& g, const PipelineOptions& options, std::unique_ptr<Trace>& trace,
                 std::unique_ptr<Graph>& result, std::string& error) {
    try {
        auto t = std::make_unique<Trace>(g.clone());
        auto out = g.clone();
        Pipeline::fastRun().run(*out, options, t.get());
        trace = std::move(t);
        result = std::move(out);
    } catch (const std::exception& e) {
        error = e.what();
    }
}

GraphRun runOnce(const Graph& g, const std::vector<NDArray>& inputs) {
    GraphRun r;
    try {
        ExecContext ctx;
        const auto t0 = std::chrono::steady_clock::now();
        RunResult res = runGraph(g, inputs, ctx);
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        r.peakBytes = res.peakBytes;
        r.rowsInPlace = ctx.stats().scanRowsInPlace;
        r.rowsCopied = ctx.stats().scanRowsCopied;
        r.outputs = std::move(res.outputs);
        r.ran = true;
    } catch (const std::exception& e) {
        r.error = e.what();
    }
    return r;
}

// The largest absolute difference over every element of every output; the note names
// where it is, or what kept the outputs from being compared.
void compareOutputs(Comparison& c) {
    const auto& a = c.pytensorRun.outputs;
    const auto& b = c.tensorlensRun.outputs;
    if (a.size() != b.size()) {
        c.differenceNote = "the graphs have " + std::to_string(a.size()) + " and " + std::to_string(b.size()) + " outputs";
        return;
    }
    c.outputsCompared = true;
    c.maxAbsDifference = 0.0;
    for (size_t o = 0; o < a.size(); ++o) {
        if (a[o].shape() != b[o].shape()) {
            c.maxAbsDifference = std::numeric_limits<double>::infinity();
            c.differenceNote = "output " + std::to_string(o) + " has shape " + shapeToString(a[o].shape()) + " and " +
                               shapeToString(b[o].shape());
            return;
        }
        const std::vector<double> x = a[o].toDoubles(), y = b[o].toDoubles();
        for (size_t i = 0; i < x.size(); ++i) {
            double d = std::fabs(x[i] - y[i]);
            if (std::isnan(x[i]) && std::isnan(y[i])) d = 0.0;
            else if (std::isnan(d)) d = std::numeric_limits<double>::infinity();
            if (d > c.maxAbsDifference) {
                c.maxAbsDifference = d;
                c.differenceNote = "output " + std::to_string(o) + ", element " + std::to_string(i);
            }
        }
    }
}

// The original loop of PyTensor's graph each loop of the rewritten graph was cloned
// from (ids are never reused, so every step's provenance joins into one map).
std::vector<LoopRow> matchLoops(const Comparison& c) {
    std::vector<LoopRow> rows;
    const auto& pt = c.pytensorSummary.loopSummaries;
    std::map<NodeId, int> ptIndex;
    for (size_t i = 0; i < pt.size(); ++i) {
        ptIndex[pt[i].node] = static_cast<int>(i);
        rows.push_back({static_cast<int>(i), -1, -1});
    }
    std::map<NodeId, NodeId> from;
    if (c.missedTrace)
        for (const TraceStep& s : c.missedTrace->steps())
            for (auto [made, source] : s.clonedFrom) from.emplace(made, source);
    const auto& rw = c.rewrittenSummary.loopSummaries;
    for (size_t j = 0; j < rw.size(); ++j) {
        NodeId id = rw[j].node;
        for (int guard = 0; guard < 100000 && !ptIndex.count(id); ++guard) {
            auto it = from.find(id);
            if (it == from.end()) break;
            id = it->second;
        }
        auto it = ptIndex.find(id);
        if (it != ptIndex.end() && rows[it->second].rewritten < 0) rows[it->second].rewritten = static_cast<int>(j);
        else rows.push_back({-1, -1, static_cast<int>(j)});
    }
    // tensorlens's own result shares no ids with PyTensor's: the same order when the
    // number of loops agrees, else the same name.
    const auto& tl = c.tensorlensSummary.loopSummaries;
    if (c.tensorlensFinal) {
        std::vector<bool> taken(tl.size(), false);
        if (tl.size() == pt.size()) {
            for (size_t i = 0; i < pt.size(); ++i) rows[i].tensorlens = static_cast<int>(i);
            std::fill(taken.begin(), taken.end(), true);
        } else {
            for (size_t i = 0; i < pt.size(); ++i)
                for (size_t j = 0; j < tl.size(); ++j)
                    if (!taken[j] && tl[j].name == pt[i].name) {
                        rows[i].tensorlens = static_cast<int>(j);
                        taken[j] = true;
                        break;
                    }
        }
        for (size_t j = 0; j < tl.size(); ++j)
            if (!taken[j]) rows.push_back({-1, static_cast<int>(j), -1});
    }
    return rows;
}

// What both halves share: tensorlens on PyTensor's compiled graph, the summaries, the runs.
void finish(Comparison& c, const CompareOptions& options) {
    const PipelineOptions po = pipelineOptions(options);
    rewriteCopy(*c.pytensorFinal, po, c.missedTrace, c.pytensorFinalRewritten, c.missedError);
    c.pytensorSummary = summarizeGraph(*c.pytensorFinal);
    if (c.tensorlensFinal) c.tensorlensSummary = summarizeGraph(*c.tensorlensFinal);
    if (c.pytensorFinalRewritten) c.rewrittenSummary = summarizeGraph(*c.pytensorFinalRewritten);
    if (c.missedTrace) c.missed = missedRewrites(*c.missedTrace, options.bufferMode);
    c.loops = matchLoops(c);
    if (!options.run) {
        c.differenceNote = "not run";
        return;
    }
    std::vector<NDArray> inputs = options.inputs;
    if (inputs.empty()) inputs = randomInputs(*c.pytensorFinal, options.seed);
    c.pytensorRun = runOnce(*c.pytensorFinal, inputs);
    c.pytensorRun.graph = "PyTensor";
    std::string ownError;
    if (c.tensorlensFinal) {
        c.tensorlensRun = runOnce(*c.tensorlensFinal, inputs);
        c.tensorlensRun.graph = "tensorlens";
        if (!c.tensorlensRun.ran) ownError = c.tensorlensRun.error;
    }
    if (!c.tensorlensRun.ran && c.pytensorFinalRewritten) {
        c.tensorlensRun = runOnce(*c.pytensorFinalRewritten, inputs);
        c.tensorlensRun.graph = "tensorlens on PyTensor's graph";
    }
    if (!c.tensorlensRun.ran && c.tensorlensRun.error.empty())
        c.tensorlensRun.error = c.tensorlensError.empty() ? c.missedError : c.tensorlensError;
    if (c.pytensorRun.ran && c.tensorlensRun.ran) compareOutputs(c);
    else c.differenceNote = "not compared: " + (c.pytensorRun.ran ? c.tensorlensRun.error : c.pytensorRun.error);
    if (!ownError.empty() && c.tensorlensRun.ran)
        c.differenceNote += std::string(c.differenceNote.empty() ? "" : "; ") +
                            "compared with tensorlens on PyTensor's graph: tensorlens's own result did not run (" + ownError + ")";
}

} // namespace

const Graph* Comparison::tensorlensSide() const {
    if (tensorlensFinal) return tensorlensFinal.get();
    return pytensorFinalRewritten.get();
}

const GraphSummary& Comparison::tensorlensSideSummary() const {
    return tensorlensFinal ? tensorlensSummary : rewrittenSummary;
}

Comparison compareWithPyTensor(const Trace& pytensorTrace, const CompareOptions& options) {
    if (!pytensorTrace.hasOriginal()) throw std::invalid_argument("the trace has no original graph");
    Comparison c;
    c.hasTrace = true;
    c.pytensorSteps = static_cast<int>(pytensorTrace.size());
    c.mode = options.bufferMode == RewriteOptions::BufferMode::Exact ? "exact" : "pytensor";
    c.original = pytensorTrace.original().clone();
    {
        TraceReplayer replay(pytensorTrace);
        c.pytensorFinal = replay.graphAt(static_cast<int>(pytensorTrace.size())).clone();
    }
    rewriteCopy(*c.original, pipelineOptions(options), c.tensorlensTrace, c.tensorlensFinal, c.tensorlensError);
    finish(c, options);
    return c;
}

Comparison compareCompiledGraph(const Graph& pytensorCompiled, const CompareOptions& options) {
    Comparison c;
    c.mode = options.bufferMode == RewriteOptions::BufferMode::Exact ? "exact" : "pytensor";
    c.pytensorFinal = pytensorCompiled.clone();
    finish(c, options);
    return c;
}

} // namespace tl
