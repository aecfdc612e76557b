// The report's findings in words, and the comparison as JSON.
#include "compare/Report.h"

#include "compare/ReportParts.h"
#include "trace/GraphFacts.h"

#include <map>
#include <set>

namespace tl {

namespace {

// The loop row a missed rewrite's target ("Scan rop_of_scan_fn&scan_fn") belongs to.
const LoopRow* rowOfTarget(const Comparison& c, const std::string& target) {
    for (const LoopRow& r : c.loops) {
        const std::string name = report::loopName(c, r);
        if (target == "Scan " + name) return &r;
    }
    return nullptr;
}

const LoopSummary* at(const GraphSummary& g, int i) {
    return i >= 0 && i < static_cast<int>(g.loopSummaries.size()) ? &g.loopSummaries[i] : nullptr;
}

int countUse(const std::vector<std::string>& copies, const char* use) {
    int n = 0;
    for (const std::string& s : copies) n += s.find(use) != std::string::npos;
    return n;
}

nlohmann::json stateJson(const StateSummary& s) {
    return {{"label", s.label}, {"category", s.category}, {"taps", s.taps}, {"shape", s.shape},
            {"rows", s.rows},   {"bytes", s.bytes},       {"output_read", s.outputRead},
            {"inplace", s.inplace}, {"rows_reused", s.reuseProven}};
}

nlohmann::json loopJson(const LoopSummary& l) {
    nlohmann::json states = nlohmann::json::array();
    for (const StateSummary& s : l.states) states.push_back(stateJson(s));
    return {{"node", l.node},
            {"name", l.name},
            {"op", l.opName},
            {"n_steps", l.nSteps},
            {"while_loop", l.whileLoop},
            {"recurrent_states", l.recurrentStates},
            {"states", states},
            {"step_nodes", l.stepNodes},
            {"scalar_ops_per_step", l.scalarOps},
            {"exp_per_step", l.exps},
            {"buffer_bytes", l.bufferBytes}};
}

nlohmann::json graphJson(const GraphSummary& g) {
    nlohmann::json loops = nlohmann::json::array();
    for (const LoopSummary& l : g.loopSummaries) loops.push_back(loopJson(l));
    return {{"nodes", g.nodes}, {"loops", g.loops}, {"deep_copies", g.deepCopies}, {"deep_copy_of", g.deepCopyOf},
            {"buffer_bytes", g.bufferBytes}, {"loop_summaries", loops}};
}

nlohmann::json runJson(const GraphRun& r) {
    if (!r.ran) return {{"ran", false}, {"error", r.error}};
    return {{"ran", true}, {"peak_bytes", r.peakBytes}, {"seconds", r.seconds}, {"rows_in_place", r.rowsInPlace},
            {"rows_copied", r.rowsCopied}};
}

} // namespace

std::vector<std::string> comparisonHeadlines(const Comparison& c) {
    std::vector<std::string> out;
    // First of all: two compilations of one program that compute different values.
    if (c.outputsCompared && !c.outputsAgree)
        out.push_back("The outputs differ by more than rounding (largest difference " + report::numberText(c.maxAbsDifference) +
                      ", " + c.differenceNote + ")" + (c.disagreement.empty() ? "" : ": " + c.disagreement) +
                      "; `tensorlens verify` on each trace finds the step that changed them");
    // Buffers: one sentence per loop and change of shape.
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> shapes;
    std::vector<std::pair<std::string, std::string>> order;
    std::map<std::string, std::vector<const MissedRewrite*>> merges;
    std::vector<std::string> mergeOrder;
    for (const MissedRewrite& m : c.missed) {
        if (m.consequence) continue;
        if (m.rewrite == "scan_save_mem" && m.what.find(" -> ") != std::string::npos && m.what.find(": ") != std::string::npos) {
            const std::string who = m.what.substr(0, m.what.find(": "));
            const std::string change = m.what.substr(m.what.find(": ") + 2);
            auto key = std::make_pair(m.target, change);
            if (!shapes.count(key)) order.push_back(key);
            shapes[key].push_back(who);
        } else if (m.what.find(" merged into ") != std::string::npos) {
            if (!merges.count(m.target)) mergeOrder.push_back(m.target);
            merges[m.target].push_back(&m);
        }
    }
    for (const std::string& target : mergeOrder) {
        const LoopRow* row = rowOfTarget(c, target);
        const LoopSummary* pt = row ? at(c.pytensorSummary, row->pytensor) : nullptr;
        const LoopSummary* rw = row ? at(c.rewrittenSummary, row->rewritten) : nullptr;
        std::string s = target + " computes the same sequence more than once: ";
        for (size_t i = 0; i < merges[target].size(); ++i) {
            const std::string& w = merges[target][i]->what;
            const auto pos = w.find(" merged into ");
            s += (i ? "; " : "") + w.substr(0, pos) + " is " + w.substr(pos + 13);
        }
        if (pt && rw) {
            if (pt->exps > rw->exps)
                s += " (`exp` computed " + std::to_string(pt->exps) + " times per step where " + std::to_string(rw->exps) +
                     " would do";
            else
                s += " (" + std::to_string(pt->scalarOps) + " scalar ops per step where " + std::to_string(rw->scalarOps) +
                     " would do";
            s += ", " + std::to_string(pt->recurrentStates) + " recurrent states -> " + std::to_string(rw->recurrentStates) + ")";
        }
        out.push_back(s);
    }
    for (const auto& key : order) {
        std::string who;
        for (const std::string& w : shapes[key]) who += (who.empty() ? "" : ", ") + w;
        const auto arrow = key.second.find(" -> ");
        out.push_back("Intermediate arrays of " + key.first + " have shape " + key.second.substr(0, arrow) + " instead of " +
                      key.second.substr(arrow + 4) + " (" + who + ")");
    }
    // A copy of an initial buffer that two states shared, gone with the merge.
    const int ptCopies = countUse(c.pytensorSummary.deepCopyOf, "outer_in_");
    const int rwCopies = countUse(c.rewrittenSummary.deepCopyOf, "outer_in_");
    if (!merges.empty() && ptCopies > rwCopies)
        out.push_back("PyTensor copies an initial buffer (DeepCopyOp) because two states start from it and both "
                      "overwrite it in place; with the duplicate state merged there is nothing to copy");
    for (const MissedRewrite& m : c.missed) {
        if (m.consequence || m.what.find(" merged into ") != std::string::npos) continue;
        if (m.rewrite == "scan_save_mem" && m.what.find(": ") != std::string::npos && m.what.find(" -> ") != std::string::npos &&
            m.what.rfind("n_steps", 0) != 0)
            continue;
        out.push_back(m.target + ": " + m.what + " (" + m.rewrite + ")");
    }
    if (c.pytensorRun.ran && c.tensorlensRun.ran && c.pytensorRun.peakBytes != c.tensorlensRun.peakBytes)
        out.push_back("Peak memory when tensorlens runs both graphs: " + formatBytes(static_cast<int64_t>(c.pytensorRun.peakBytes)) +
                      " for PyTensor's, " + formatBytes(static_cast<int64_t>(c.tensorlensRun.peakBytes)) + " for tensorlens's");
    return out;
}

nlohmann::json comparisonJson(const Comparison& c) {
    nlohmann::json j;
    j["format"] = "tensorlens-missed";
    j["version"] = 1;
    j["program"] = c.program;
    j["has_trace"] = c.hasTrace;
    j["pytensor_steps"] = c.pytensorSteps;
    j["mode"] = c.mode;
    j["pytensor"] = graphJson(c.pytensorSummary);
    if (c.tensorlensFinal) j["tensorlens"] = graphJson(c.tensorlensSummary);
    else if (c.hasTrace) j["tensorlens_error"] = c.tensorlensError;
    if (c.pytensorFinalRewritten) j["tensorlens_on_pytensor"] = graphJson(c.rewrittenSummary);
    else j["missed_error"] = c.missedError;
    nlohmann::json rows = nlohmann::json::array();
    for (const LoopRow& r : c.loops) rows.push_back({{"pytensor", r.pytensor}, {"tensorlens", r.tensorlens}, {"tensorlens_on_pytensor", r.rewritten}});
    j["loop_rows"] = rows;
    nlohmann::json missed = nlohmann::json::array();
    for (const MissedRewrite& m : c.missed)
        missed.push_back({{"step", m.step}, {"rewrite", m.rewrite}, {"phase", m.phase}, {"target", m.target}, {"what", m.what},
                          {"why", m.why}, {"pytensor_why", m.pytensorWhy}, {"follow_on", m.consequence}});
    j["missed"] = missed;
    j["missed_count"] = countMissed(c.missed);
    j["headlines"] = comparisonHeadlines(c);
    j["runs"] = {{"pytensor", runJson(c.pytensorRun)}, {"tensorlens", runJson(c.tensorlensRun)}};
    if (c.outputsCompared) {
        j["max_abs_difference"] = c.maxAbsDifference;
        j["outputs_agree"] = c.outputsAgree;
        if (!c.disagreement.empty()) j["disagreement"] = c.disagreement;
    }
    else j["max_abs_difference"] = nullptr;
    j["difference_note"] = c.differenceNote;
    return j;
}

} // namespace tl
