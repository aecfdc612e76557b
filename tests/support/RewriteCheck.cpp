#include "RewriteCheck.h"

#include "TestSupport.h"
#include "exec/Executor.h"
#include "ir/Fingerprint.h"
#include "io/JsonValues.h"
#include "rewrite/EquilibriumDriver.h"
#include "trace/TraceReplayer.h"

#include <stdexcept>

namespace tl::test {

int RewriteOutcome::stepsOf(const std::string& rewrite) const {
    int n = 0;
    for (const TraceStep& s : trace.steps()) n += s.rewrite == rewrite;
    return n;
}

PipelineOptions bufferMode(bool exact) {
    PipelineOptions o;
    o.bufferMode = exact ? RewriteOptions::BufferMode::Exact : RewriteOptions::BufferMode::PyTensor;
    return o;
}

Pipeline singlePhase(std::string phase, std::vector<std::unique_ptr<GraphPass>> passes) {
    Pipeline p;
    p.addPhase(std::move(phase), std::move(passes));
    return p;
}

Pipeline singlePass(std::string phase, std::unique_ptr<GraphPass> pass) {
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(std::move(pass));
    return singlePhase(std::move(phase), std::move(passes));
}

Pipeline singleRewrite(const NodeRewrite& rewrite) {
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(std::make_unique<EquilibriumDriver>(std::string(rewrite.name()) + "_driver",
                                                         std::vector<std::string>{},
                                                         std::vector<const NodeRewrite*>{&rewrite}));
    return singlePhase("test", std::move(passes));
}

RewriteOutcome rewriteAndCompare(const Graph& g, const Pipeline& pipeline, PipelineOptions options, uint64_t seed,
                                 double rtol, double atol, const std::vector<NDArray>* inputs) {
    RewriteOutcome out;
    out.before = g.clone();
    out.after = g.clone();
    out.trace = Trace(g.clone());
    options.validate = true;
    options.checkHonestChange = true;
    pipeline.run(*out.after, options, &out.trace);
    // The trace must rebuild what the rewrite did: replaying every step from the
    // original gives the rewritten graph, id for id.
    {
        TraceReplayer replay(out.trace);
        const uint64_t replayed = fingerprint(replay.graphAt(static_cast<int>(out.trace.size())));
        if (replayed != fingerprint(*out.after))
            throw std::logic_error("replaying the trace's " + std::to_string(out.trace.size()) +
                                   " steps does not give the rewritten graph");
    }
    const std::vector<NDArray> in = inputs ? *inputs : randomInputs(g, seed);
    RunResult r0 = runGraph(*out.before, in);
    RunResult r1 = runGraph(*out.after, in);
    out.outputsBefore = r0.outputs;
    out.outputsAfter = r1.outputs;
    out.peakBefore = r0.peakBytes;
    out.peakAfter = r1.peakBytes;
    if (r0.outputs.size() != r1.outputs.size()) {
        out.mismatch = "number of outputs changed";
        return out;
    }
    for (size_t i = 0; i < r0.outputs.size(); ++i) {
        std::string m = compareArrays(r1.outputs[i], r0.outputs[i], rtol, atol);
        if (!m.empty()) {
            out.mismatch = "output " + std::to_string(i) + ": " + m;
            break;
        }
    }
    return out;
}

int countOps(const Graph& g, OpKind kind) {
    int n = 0;
    for (const Node* node : g.nodes()) n += node->op().kind() == kind;
    return n;
}

std::string opCountsText(const Graph& g, const std::vector<std::pair<OpKind, const char*>>& kinds) {
    std::string text;
    for (const auto& [kind, name] : kinds)
        text += (text.empty() ? "" : ", ") + std::string(name) + " " + std::to_string(countOps(g, kind));
    return text;
}

} // namespace tl::test
