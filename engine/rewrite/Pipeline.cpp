#include "rewrite/Pipeline.h"
#include "rewrite/ConvertVariable.h"

#include "ir/Fingerprint.h"
#include "analysis/DestroyHandler.h"
#include "rewrite/EquilibriumDriver.h"
#include "trace/TraceRecorder.h"

#include <algorithm>
#include <stdexcept>

namespace tl {

bool isEnabled(std::string_view name, const std::vector<std::string>& tags, const PipelineOptions& options,
               bool enabledByDefault) {
    const std::string n(name);
    if (options.include.count(n)) return true;
    if (options.exclude.count(n)) return false;
    for (const std::string& t : tags)
        if (options.exclude.count(t)) return false;
    if (enabledByDefault) return true;
    return std::any_of(tags.begin(), tags.end(), [&](const std::string& t) { return options.include.count(t) > 0; });
}

void Pipeline::addPhase(std::string name, std::vector<std::unique_ptr<GraphPass>> passes, int settleAfter) {
    if (settleAfter >= static_cast<int>(passes.size())) throw std::invalid_argument("phase " + name + ": no pass " + std::to_string(settleAfter));
    m_phases.push_back(PipelinePhase{std::move(name), std::move(passes), settleAfter});
}

std::vector<RewriteDescription> Pipeline::describe() const {
    std::vector<RewriteDescription> out;
    for (const PipelinePhase& phase : m_phases)
        for (const auto& pass : phase.passes) {
            if (auto* driver = dynamic_cast<const EquilibriumDriver*>(pass.get())) {
                for (const NodeRewrite* r : driver->rewrites())
                    out.push_back({phase.name, std::string(r->name()), r->tags(), true});
            } else {
                out.push_back({phase.name, std::string(pass->name()), pass->tags(), true});
            }
        }
    return out;
}

std::vector<std::string> Pipeline::unknownNames(const PipelineOptions& options) const {
    std::set<std::string> known;
    for (const PipelinePhase& phase : m_phases) {
        known.insert(phase.name);
        for (const auto& pass : phase.passes) {
            known.insert(std::string(pass->name()));
            for (auto& t : pass->tags()) known.insert(t);
        }
    }
    for (const RewriteDescription& d : describe()) {
        known.insert(d.name);
        known.insert(d.tags.begin(), d.tags.end());
    }
    std::vector<std::string> unknown;
    for (const auto* set : {&options.exclude, &options.include})
        for (const std::string& n : *set)
            if (!known.count(n)) unknown.push_back(n);
    return unknown;
}

namespace {
void validateAfter(const Graph& g, std::string_view phase, std::string_view pass, const std::vector<int>& mutableInputs) {
    std::vector<std::string> problems = g.validate();
    for (std::string& p : destroyHandlerProblems(g, mutableInputs)) problems.push_back(std::move(p));
    if (problems.empty()) return;
    std::string msg = "after pass " + std::string(pass) + " (phase " + std::string(phase) + ") the graph is invalid:";
    for (const std::string& p : problems) msg += "\n  " + p;
    throw PipelineError(msg);
}
} // namespace

void Pipeline::run(Graph& graph, const PipelineOptions& options, Trace* trace) const {
    Rewriter rewriter(graph);
    rw::convertLessSpecificReplacements(rewriter);
    std::unique_ptr<TraceRecorder> recorder;
    if (trace) {
        recorder = std::make_unique<TraceRecorder>(*trace, options.explain);
        rewriter.addListener(recorder.get());
        trace->settings()["mode"] = options.bufferMode == RewriteOptions::BufferMode::Exact ? "exact" : "pytensor";
        std::string ex;
        for (const std::string& e : options.exclude) ex += (ex.empty() ? "" : ",") + e;
        trace->settings()["exclude"] = ex;
    }
    constexpr int kSettleRounds = 4;
    for (const PipelinePhase& phase : m_phases) {
        if (recorder) recorder->setPhase(phase.name);
        for (size_t i = 0, round = 0; i < phase.passes.size(); ++i) {
            const auto& pass = phase.passes[i];
            if (!isEnabled(pass->name(), pass->tags(), options)) continue;
            if (auto* driver = dynamic_cast<EquilibriumDriver*>(pass.get())) {
                std::vector<const NodeRewrite*> enabled;
                for (const NodeRewrite* r : driver->rewrites())
                    if (isEnabled(r->name(), r->tags(), options)) enabled.push_back(r);
                driver->setEnabled(std::move(enabled));
            }
            const uint64_t before = options.checkHonestChange ? fingerprint(graph) : 0;
            const size_t stepsBefore = trace ? trace->size() : 0;
            bool changed = false;
            try {
                changed = pass->run(rewriter, options);
            } catch (const std::exception& e) {
                throw PipelineError("in pass " + std::string(pass->name()) + " (phase " + phase.name + "): " + e.what());
            }
            if (options.checkHonestChange) {
                const bool really = fingerprint(graph) != before;
                if (really != changed)
                    throw PipelineError("pass " + std::string(pass->name()) + " said it " +
                                        (changed ? "changed" : "did not change") + " the graph, but it " +
                                        (really ? "did" : "did not"));
            }
            if (trace && !changed && trace->size() != stepsBefore)
                throw PipelineError("pass " + std::string(pass->name()) + " recorded steps but reported no change");
            if (changed && options.validate) validateAfter(graph, phase.name, pass->name(), options.mutableInputs);
            if (options.onPass) options.onPass(phase.name, pass->name(), changed);
            if (changed && static_cast<int>(i) == phase.settleAfter && ++round < kSettleRounds) i = static_cast<size_t>(-1);  // again from pass 0
        }
    }
}

Trace rewriteWithTrace(const Graph& original, const PipelineOptions& options) {
    Trace trace(original.clone());
    std::unique_ptr<Graph> work = original.clone();
    Pipeline::fastRun().run(*work, options, &trace);
    return trace;
}

} // namespace tl
