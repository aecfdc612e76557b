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

// How two runs' outputs differ: the largest absolute difference and where it is, and
// whether every element is equal within rounding (the relative tolerance of the
// output's dtype, against the element or the output's largest finite magnitude, so
// elements near zero in a large output are not held to a tighter bound than the rest).
struct OutputDifference {
    bool compared = false;
    bool agree = true;
    double maxAbs = 0.0;
    std::string note;  // where the largest difference is, or why nothing was compared
};

OutputDifference differenceOf(const std::vector<NDArray>& a, const std::vector<NDArray>& b) {
    OutputDifference r;
    if (a.size() != b.size()) {
        r.note = "the graphs have " + std::to_string(a.size()) + " and " + std::to_string(b.size()) + " outputs";
        return r;
    }
    r.compared = true;
    for (size_t o = 0; o < a.size(); ++o) {
        if (a[o].shape() != b[o].shape()) {
            r.agree = false;
            r.maxAbs = std::numeric_limits<double>::infinity();
            r.note = "output " + std::to_string(o) + " has shape " + shapeToString(a[o].shape()) + " and " +
                     shapeToString(b[o].shape());
            return r;
        }
        const std::vector<double> x = a[o].toDoubles(), y = b[o].toDoubles();
        const DType t = a[o].dtype();
        const double rtol = !isFloat(t) ? 0.0 : t == DType::Float32 ? 1e-4 : 1e-9;
        double scale = 0.0;
        for (double v : x)
            if (std::isfinite(v)) scale = std::max(scale, std::fabs(v));
        for (size_t i = 0; i < x.size(); ++i) {
            const bool bothNan = std::isnan(x[i]) && std::isnan(y[i]);
            double d = bothNan || x[i] == y[i] ? 0.0 : std::fabs(x[i] - y[i]);
            if (std::isnan(d)) d = std::numeric_limits<double>::infinity();
            if (d > rtol * std::max(std::fabs(x[i]), scale)) r.agree = false;
            if (d > r.maxAbs) {
                r.maxAbs = d;
                r.note = "output " + std::to_string(o) + ", element " + std::to_string(i);
            }
        }
    }
    return r;
}

void compareOutputs(Comparison& c) {
    const OutputDifference d = differenceOf(c.pytensorRun.outputs, c.tensorlensRun.outputs);
    c.outputsCompared = d.compared;
    c.maxAbsDifference = d.maxAbs;
    c.differenceNote = d.note;
    c.outputsAgree = d.agree;
}

// When the two sides disagree, the original graph's own run says which one changed
// what the program computes.
void blameDisagreement(Comparison& c, const std::vector<NDArray>& inputs) {
    if (c.outputsAgree || !c.original) return;
    const GraphRun original = runOnce(*c.original, inputs);
    if (!original.ran) return;
    const bool pytensorKeeps = differenceOf(original.outputs, c.pytensorRun.outputs).agree;
    const bool tensorlensKeeps = differenceOf(original.outputs, c.tensorlensRun.outputs).agree;
    if (pytensorKeeps && !tensorlensKeeps)
        c.disagreement = "the original graph gives PyTensor's values: tensorlens's rewrites changed them";
    else if (tensorlensKeeps && !pytensorKeeps)
        c.disagreement = "the original graph gives tensorlens's values: PyTensor's compiled graph, as tensorlens runs it, "
                         "does not";
    else
        c.disagreement = "the original graph agrees with neither";
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
    if (c.pytensorRun.ran && c.tensorlensRun.ran) {
        compareOutputs(c);
        blameDisagreement(c, inputs);
    } else c.differenceNote = "not compared: " + (c.pytensorRun.ran ? c.tensorlensRun.error : c.pytensorRun.error);
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
