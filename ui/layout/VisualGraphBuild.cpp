// buildVisualGraph: the levels of a graph through the Builder, then the erased
// nodes of the step shown as ghosts where they were, in the outer graph and in
// every expanded body the step changed.
#include "layout/VisualGraphBuilder.h"

#include "trace/StepDiff.h"

#include <map>
#include <set>

namespace tl {

using namespace visual;

namespace {

// The body nodes a step erased, as ghosts inside the frame of the body after the
// step, wired like the outer ghosts: from what is left of their inputs and to
// the body nodes (or output markers) that read them before.
void addBodyGhosts(VisualGraph& vg, Builder& b, const StepChanges& changes) {
    for (const InnerGraphDiff& d : changes.inner) {
        if (d.erased.empty()) continue;
        const int cluster = vg.indexOf(d.owner.key());
        if (cluster < 0 || vg.nodes[cluster].kind != VNode::Kind::Cluster) continue;
        const Level* level = b.levelOf(cluster);
        if (!level) continue;
        const Graph& body = *level->graph;
        const std::vector<int> outputMarkers = level->innerOutputs;
        const std::string prefix = d.owner.key() + "/";
        std::unordered_map<VarId, int> ghostOutput;
        size_t unreplaced = 0;
        for (const NodeSnapshot& s : d.erased) unreplaced += !d.replacedBy.count(s.id);
        int summary = -1;
        if (unreplaced > kMaxGhostBoxes) {
            VNode v;
            v.kind = VNode::Kind::Ghost;
            v.key = prefix + "ghosts";
            v.parent = cluster;
            v.title = std::to_string(unreplaced) + " nodes erased";
            summary = b.add(std::move(v));
        }
        std::vector<int> ghostIndex;
        for (const NodeSnapshot& s : d.erased) {
            if (auto r = d.replacedBy.find(s.id); r != d.replacedBy.end()) {
                ghostIndex.push_back(-1);
                if (const Node* now = body.findNode(r->second))
                    if (const int v = b.visualOf(cluster, now); v >= 0)
                        for (VarId o : s.outputIds) ghostOutput[o] = v;
                continue;
            }
            int idx = summary;
            if (idx < 0) {
                VNode v;
                v.kind = VNode::Kind::Ghost;
                // Not "n<id>": a body node created later may take the id again.
                v.key = prefix + "x" + std::to_string(s.id);
                v.node = s.id;
                v.ref = d.ownerBefore.child(s.id);
                v.parent = cluster;
                v.family = s.op ? opFamily(*s.op) : OpFamily::Other;
                v.title = s.op ? clip(s.op->name()) : "erased";
                v.tooltip = s.op ? s.op->name() : std::string();
                v.subtitle = "#" + std::to_string(s.id) + " (erased)";
                idx = b.add(std::move(v));
            }
            ghostIndex.push_back(idx);
            for (VarId o : s.outputIds) ghostOutput[o] = idx;
        }
        std::set<std::pair<int, int>> drawn;
        for (size_t k = 0; k < d.erased.size(); ++k) {
            const NodeSnapshot& s = d.erased[k];
            const int idx = ghostIndex[k];
            if (idx < 0) continue;
            for (size_t i = 0; i < s.inputs.size(); ++i) {
                int from = -1;
                if (auto it = ghostOutput.find(s.inputs[i]); it != ghostOutput.end()) from = it->second;
                else if (const Variable* in = body.findVariable(s.inputs[i]))
                    from = b.producerIn(cluster, in, vg.nodes[idx].key + "#" + std::to_string(idx == summary ? s.inputs[i] : i));
                if (from >= 0 && from != idx && drawn.insert({from, idx}).second) b.edge(from, idx, nullptr, static_cast<int>(i));
            }
        }
        for (const InnerRewiredEdge& r : d.rewired) {
            auto it = ghostOutput.find(r.before);
            if (it == ghostOutput.end() || vg.nodes[it->second].kind != VNode::Kind::Ghost) continue;
            int to = -1;
            if (r.consumer >= 0) {
                if (const Node* c = body.findNode(r.consumer)) to = b.visualOf(cluster, c);
            } else if (r.index < static_cast<int>(outputMarkers.size())) {
                to = outputMarkers[r.index];
            }
            if (to >= 0 && drawn.insert({it->second, to}).second) b.edge(it->second, to, nullptr, r.index);
        }
    }
}

} // namespace

VisualGraph buildVisualGraph(const Graph& g, const ExpansionState& expansion, const StepDiff* diff, const StepChanges* changes,
                             const NodeNotes* notes) {
    VisualGraph vg;
    // About a box per node and one per use of an input or constant: growing the
    // vector moved every box built so far, again and again.
    vg.nodes.reserve(2 * g.numNodes() + 16);
    vg.edges.reserve(3 * g.numNodes() + 16);
    Builder b(vg, expansion, notes);
    // Levels are processed from a work list, not by recursion: bodies nest.
    std::vector<Level> work;
    Level top;
    top.graph = &g;
    work.push_back(std::move(top));
    while (!work.empty()) {
        Level L = std::move(work.back());
        work.pop_back();
        b.buildLevel(std::move(L), work);
    }
    vg.index();
    const size_t withoutGhosts = vg.nodes.size();
    if (changes) addBodyGhosts(vg, b, *changes);
    if (!diff || diff->erased.empty()) {
        if (vg.nodes.size() != withoutGhosts) vg.index();
        return vg;
    }
    std::unordered_map<VarId, int> ghostOutput;  // variables the ghosts produced (or their replacements)
    std::vector<int> ghostIndex;
    // A step that erases a whole region (fusing a 3,000-op chain) draws it as one
    // ghost: thousands of ghost boxes would bury the one node that replaced them.
    size_t unreplaced = 0;
    for (const NodeSnapshot& s : diff->erased) unreplaced += !diff->replacedBy.count(s.id);
    int summary = -1;
    if (unreplaced > kMaxGhostBoxes) {
        VNode v;
        v.kind = VNode::Kind::Ghost;
        v.key = "ghosts";
        v.title = std::to_string(unreplaced) + " nodes erased";
        std::map<std::string, int> ops;
        for (const NodeSnapshot& s : diff->erased)
            if (!diff->replacedBy.count(s.id) && s.op) ++ops[s.op->name()];
        for (const auto& [name, count] : ops) {
            if (v.subtitle.size() > 40) {
                v.subtitle += ", \u2026";
                break;
            }
            v.subtitle += (v.subtitle.empty() ? "" : ", ") + clip(name) + " \u00d7" + std::to_string(count);
        }
        summary = b.add(std::move(v));
    }
    for (const NodeSnapshot& s : diff->erased) {
        // A node whose replacement is drawn in its place needs no ghost; what read
        // it is drawn reading the replacement.
        if (auto r = diff->replacedBy.find(s.id); r != diff->replacedBy.end()) {
            ghostIndex.push_back(-1);
            if (const int now = vg.indexOfNode(r->second); now >= 0)
                for (VarId o : s.outputIds) ghostOutput[o] = now;
            continue;
        }
        int idx = summary;
        if (idx < 0) {
            VNode v;
            v.kind = VNode::Kind::Ghost;
            v.key = "n" + std::to_string(s.id);
            v.node = s.id;
            v.ref = NodeRef::outer(s.id);
            v.family = s.op ? opFamily(*s.op) : OpFamily::Other;
            v.title = s.op ? clip(s.op->name()) : "erased";
            v.tooltip = s.op ? s.op->name() : std::string();
            v.subtitle = "#" + std::to_string(s.id) + " (erased)";
            idx = b.add(std::move(v));
        }
        ghostIndex.push_back(idx);
        for (VarId o : s.outputIds) ghostOutput[o] = idx;
    }
    Level L;
    L.graph = &g;
    // One edge per (source, ghost): the summary ghost reads the same value many times.
    std::set<std::pair<int, int>> drawn;
    for (size_t k = 0; k < diff->erased.size(); ++k) {
        const NodeSnapshot& s = diff->erased[k];
        const int idx = ghostIndex[k];
        if (idx < 0) continue;
        for (size_t i = 0; i < s.inputs.size(); ++i) {
            int from = -1;
            if (auto it = ghostOutput.find(s.inputs[i]); it != ghostOutput.end()) from = it->second;
            else if (const Variable* in = g.findVariable(s.inputs[i])) {
                if (in->owner()) from = vg.indexOfNode(in->owner()->id());
                else from = b.sourceFor(L, in, vg.nodes[idx].key + "#" + std::to_string(idx == summary ? s.inputs[i] : i));
            }
            if (from >= 0 && drawn.insert({from, idx}).second) b.edge(from, idx, nullptr, static_cast<int>(i));
        }
    }
    // Ghost -> the nodes that read it before the step (they read something else now).
    for (const RewiredEdge& r : diff->rewired) {
        auto it = ghostOutput.find(r.before);
        // A replacement already draws its own edge to the reader.
        if (it == ghostOutput.end() || vg.nodes[it->second].kind != VNode::Kind::Ghost) continue;
        const int to = r.consumer >= 0 ? vg.indexOfNode(r.consumer) : vg.indexOf("out" + std::to_string(r.index));
        if (to >= 0 && drawn.insert({it->second, to}).second) b.edge(it->second, to, nullptr, r.index);
    }
    vg.index();
    return vg;
}

} // namespace tl
