#include "compare/MissedRewrites.h"

#include "compare/PyTensorReasons.h"
#include "ops/ScanOp.h"
#include "trace/TraceReplayer.h"

#include <algorithm>
#include <set>

namespace tl {

namespace {

// Passes whose steps only follow from the changes before them: the merged step fused
// again, duplicates a rebuild left merged, copies and inplace flags of rebuilt nodes,
// a shrunk buffer's slice taken of the slice that cut it before.
bool isFollowOn(const std::string& rewrite) {
    static const std::set<std::string> kFollowOn = {
        "scan_inner_rewrites", "merge", "final_merge", "elemwise_fusion", "output_protection",
        "inplace_elemwise", "inplace_setsubtensor", "scan_make_inplace", "local_subtensor_merge",
    };
    return kFollowOn.count(rewrite) > 0;
}

// Facts that name a change a reader of PyTensor's graph cares about.
bool isHeadline(const AttributeChange& a) {
    return a.key == "merged_state" || a.key == "buffer_shape" || a.key == "pushed_out" || a.key == "merged_loops" ||
           (a.key == "n_steps" && a.before != a.after);
}

std::string describeNode(const Graph& g, NodeId id) {
    const Node* n = g.findNode(id);
    if (!n) return "node " + std::to_string(id);
    if (const auto* scan = dynamic_cast<const ScanOp*>(&n->op())) return "Scan " + scan->scanName();
    return n->label();
}

// "sit_sot-0: the reads need ..." -> ("sit_sot-0", "the reads need ...").
std::pair<std::string, std::string> splitWho(const std::string& detail) {
    const auto colon = detail.find(": ");
    if (colon == std::string::npos || detail.find(' ') < colon) return {"", detail};
    return {detail.substr(0, colon), detail.substr(colon + 2)};
}

} // namespace

std::vector<MissedRewrite> missedRewrites(const Trace& trace, RewriteOptions::BufferMode mode) {
    std::vector<MissedRewrite> out;
    if (!trace.hasOriginal()) return out;
    TraceReplayer replay(trace);
    bool headlineSeen = false;
    for (size_t i = 0; i < trace.size(); ++i) {
        const TraceStep& step = trace.steps()[i];
        const int k = static_cast<int>(i) + 1;
        std::string rootText;
        if (step.root) rootText = describeNode(replay.graphAt(k - 1), *step.root);
        const Graph& after = replay.graphAt(k);
        const bool followOn = isFollowOn(step.rewrite);
        bool any = false;
        for (const AttributeChange& a : step.attributes) {
            if (!isHeadline(a)) continue;
            MissedRewrite m;
            m.step = k;
            m.rewrite = step.rewrite;
            m.phase = step.phase;
            m.target = describeNode(after, a.node);
            if (a.key == "merged_state") {
                m.what = a.before + " merged into " + a.after;
                m.why = a.detail;
            } else if (a.key == "buffer_shape") {
                auto [who, why] = splitWho(a.detail);
                m.what = (who.empty() ? "buffer" : who) + ": " + a.before + " -> " + a.after;
                m.why = why;
            } else if (a.key == "n_steps") {
                m.what = "n_steps " + a.before + " -> " + a.after;
                m.why = a.detail;
            } else {
                m.what = a.key == "pushed_out" ? a.after + " pushed out of the loop" : a.key + ": " + a.after;
                m.why = a.detail;
            }
            m.pytensorWhy = pytensorReason(step, a, mode);
            m.consequence = followOn;
            headlineSeen = headlineSeen || !followOn;
            out.push_back(std::move(m));
            any = true;
        }
        if (any) continue;
        // A step without such a fact: named by its rewrite and root.
        MissedRewrite m;
        m.step = k;
        m.rewrite = step.rewrite;
        m.phase = step.phase;
        m.target = rootText;
        const auto created = step.createdNodes(), erased = step.erasedNodes();
        m.what = step.rewrite + (rootText.empty() ? "" : " on " + rootText) + ": " + std::to_string(created.size()) +
                 " node(s) created, " + std::to_string(erased.size()) + " erased";
        for (const AttributeChange& a : step.attributes)
            if (!a.detail.empty()) {
                m.why = a.detail;
                break;
            }
        m.pytensorWhy = pytensorReason(step, AttributeChange{}, mode);
        // Cleanup passes after a real change follow from it; before any, they are real,
        // unless they change no node: readers moved to an equal constant (PyTensor keeps
        // duplicate constants that its last merge never saw) change nothing that runs.
        m.consequence = (followOn && headlineSeen) || (created.empty() && erased.empty());
        out.push_back(std::move(m));
    }
    return out;
}

int countMissed(const std::vector<MissedRewrite>& missed) {
    return static_cast<int>(std::count_if(missed.begin(), missed.end(), [](const MissedRewrite& m) { return !m.consequence; }));
}

} // namespace tl
