#include "compare/CompareHighlights.h"

#include "model/InnerGraphDiff.h"
#include "trace/GraphFacts.h"
#include "trace/Trace.h"

#include <cctype>
#include <unordered_set>

namespace tl {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

const LoopSummary* loopAt(const GraphSummary& g, int i) {
    return i >= 0 && i < static_cast<int>(g.loopSummaries.size()) ? &g.loopSummaries[i] : nullptr;
}

// The engine node a visual key stands for or hangs from: "n17", "n4/n2" -> 17 / 4,
// "v5@n17#0" -> 17, "chain12" -> 12; -1 for output markers and the like.
NodeId ownerOfKey(const std::string& key) {
    size_t at = 0;
    if (key.rfind("chain", 0) == 0) at = 5;
    else if (auto p = key.find("@n"); p != std::string::npos) at = p + 2;
    else if (!key.empty() && key[0] == 'n') at = 1;
    else return -1;
    size_t end = at;
    while (end < key.size() && std::isdigit(static_cast<unsigned char>(key[end]))) ++end;
    return end > at ? std::stoll(key.substr(at, end - at)) : -1;
}

bool shared(NodeId id, const Graph& mine, const Graph& other) {
    const Node* a = mine.findNode(id);
    const Node* b = other.findNode(id);
    return a && b && a->op().name() == b->op().name();
}

std::string bytesText(int64_t b) { return b < 0 ? "?" : formatBytes(b); }

Highlights::Badge badge(Highlights::Badge::Kind kind, int node, const std::string& text, const std::string& tip) {
    Highlights::Badge b;
    b.kind = kind;
    b.node = node;
    b.text = qs(text);
    b.tooltip = qs(tip);
    return b;
}

} // namespace

std::vector<Highlights::Badge> comparisonBadges(const Comparison& c, const VisualGraph& vg, CompareSide side, bool rewritten) {
    std::vector<Highlights::Badge> out;
    using K = Highlights::Badge::Kind;
    for (const LoopRow& row : c.loops) {
        const LoopSummary* pt = loopAt(c.pytensorSummary, row.pytensor);
        const LoopSummary* tl = rewritten ? loopAt(c.rewrittenSummary, row.rewritten) : loopAt(c.tensorlensSummary, row.tensorlens);
        if (side == CompareSide::PyTensor) {
            if (!pt) continue;
            const int v = vg.indexOfNode(pt->node);
            if (v < 0) continue;
            if (!tl) {
                out.push_back(badge(K::Merged, v, "tensorlens: no loop", "tensorlens removes this loop (its work leaves the loop)"));
                continue;
            }
            if (tl->recurrentStates != pt->recurrentStates || tl->bufferBytes != pt->bufferBytes)
                out.push_back(badge(K::Shape, v,
                                    "tensorlens: " + std::to_string(pt->recurrentStates) + " states → " +
                                        std::to_string(tl->recurrentStates) + ", " + bytesText(pt->bufferBytes) + " → " +
                                        bytesText(tl->bufferBytes),
                                    "what tensorlens makes of this loop"));
            if (tl->exps != pt->exps)
                out.push_back(badge(K::Fused, v, "exp per step: " + std::to_string(pt->exps) + " → " + std::to_string(tl->exps), ""));
            continue;
        }
        if (!tl) continue;
        const int v = vg.indexOfNode(tl->node);
        if (v < 0) continue;
        if (rewritten) {
            for (const MissedRewrite& m : c.missed) {
                if (m.consequence || m.target != "Scan " + tl->name) continue;
                const bool merged = m.what.find(" merged into ") != std::string::npos;
                std::string text = m.what;  // the window's arrows, as its other badges
                if (auto a = text.find(" -> "); a != std::string::npos) text.replace(a, 4, " → ");
                out.push_back(badge(merged ? K::Merged : K::Shape, v, text, m.why));
            }
        } else if (pt) {
            for (const StateSummary& s : tl->states)
                for (const StateSummary& p : pt->states)
                    if (p.label == s.label && p.shape != s.shape)
                        out.push_back(badge(K::Shape, v, s.label + ": " + p.shape + " → " + s.shape, "PyTensor's buffer → tensorlens's"));
            if (tl->recurrentStates != pt->recurrentStates)
                out.push_back(badge(K::Merged, v,
                                    std::to_string(pt->recurrentStates) + " states → " + std::to_string(tl->recurrentStates),
                                    "PyTensor's loop carries states tensorlens merges"));
        }
        if (pt && tl->exps != pt->exps)
            out.push_back(badge(K::Fused, v, "exp per step: " + std::to_string(pt->exps) + " → " + std::to_string(tl->exps), ""));
    }
    return out;
}

Highlights comparisonHighlights(const Comparison& c, const Graph& mine, const Graph& other, const VisualGraph& vg,
                                CompareSide side, bool atEnd, bool rewritten, const QString& title) {
    Highlights h;
    h.banner << title;
    if (!atEnd) return h;
    const GraphSummary& s = side == CompareSide::PyTensor ? c.pytensorSummary
                                                           : (rewritten ? c.rewrittenSummary : c.tensorlensSummary);
    h.banner << QString("%1 nodes, %2 loop(s), %3 DeepCopyOp(s), loop buffers %4")
                    .arg(s.nodes)
                    .arg(s.loops)
                    .arg(s.deepCopies)
                    .arg(qs(bytesText(s.bufferBytes)));
    // Nodes the other side lacks: new on tensorlens's side, gone from PyTensor's.
    for (int i = 0; i < static_cast<int>(vg.nodes.size()); ++i) {
        const VNode& n = vg.nodes[i];
        if (n.parent >= 0 || n.node < 0 || (n.kind != VNode::Kind::Op && n.kind != VNode::Kind::Cluster)) continue;
        if (shared(n.node, mine, other)) continue;
        (side == CompareSide::Tensorlens ? h.added : h.opChanged).insert(i);
    }
    h.badges = comparisonBadges(c, vg, side, rewritten);
    return h;
}

PlacementHints provenanceHints(const Graph& mine, const Graph& other, const Trace* trace) {
    PlacementHints hints;
    auto keyIn = [](const NodeRef& owner, NodeId id) { return (owner.valid() ? owner.key() + "/" : std::string()) + "n" + std::to_string(id); };
    // The two graphs matched as a step's bodies are: same id and kind of op, or the same
    // op on matched inputs, or the node readers switched to; bodies of matched nodes too.
    std::vector<InnerGraphDiff> diffs;
    diffBodies(mine, other, NodeRef(), NodeRef(), diffs);
    for (const InnerGraphDiff& d : diffs)
        for (const auto& [a, b] : d.matchedFrom) {
            const std::string now = keyIn(d.owner, a), was = keyIn(d.ownerBefore, b);
            if (now == was) continue;
            hints.exact.emplace(now, was);
            hints.prefixes.emplace_back(now + "/", was + "/");
        }
    if (!trace) return hints;
    // Nodes the matching missed: the node they were cloned from, over every step.
    std::unordered_map<NodeId, NodeId> source;
    for (const TraceStep& step : trace->steps())
        for (const auto& [made, from] : step.clonedFrom) source.emplace(made, from);
    for (const Node* n : other.nodes()) {
        const std::string now = "n" + std::to_string(n->id());
        if (shared(n->id(), other, mine) || hints.exact.count(now)) continue;
        NodeId at = n->id();
        const Node* origin = nullptr;
        // Each hop goes to a node that existed before: the chain ends.
        for (auto it = source.find(at); it != source.end() && !origin; it = source.find(at)) {
            at = it->second;
            const Node* m = mine.findNode(at);
            if (m && m->op().kind() == n->op().kind()) origin = m;
        }
        if (!origin) continue;
        const std::string was = "n" + std::to_string(origin->id());
        hints.exact[now] = was;
        hints.prefixes.emplace_back(now + "/", was + "/");
    }
    return hints;
}

PositionCache sharedPositions(const VisualGraph& vg, const GraphLayout& layout, const Graph& mine, const Graph& other,
                              const PlacementHints& hints) {
    std::unordered_set<NodeId> pointedAt;
    for (const auto& [now, was] : hints.exact) pointedAt.insert(ownerOfKey(was));
    VisualGraph kept;
    GraphLayout keptLayout;
    std::vector<int> map(vg.nodes.size(), -1);
    for (size_t i = 0; i < vg.nodes.size() && i < layout.rects.size(); ++i) {
        const VNode& n = vg.nodes[i];
        if (n.parent >= 0 && map[static_cast<size_t>(n.parent)] < 0) continue;  // inside a dropped cluster
        const NodeId owner = n.node >= 0 ? n.node : ownerOfKey(n.key);
        if (owner >= 0 && !shared(owner, mine, other) && !pointedAt.count(owner)) continue;
        map[i] = static_cast<int>(kept.nodes.size());
        VNode copy = n;
        copy.parent = n.parent >= 0 ? map[static_cast<size_t>(n.parent)] : -1;
        kept.nodes.push_back(std::move(copy));
        keptLayout.rects.push_back(layout.rects[i]);
    }
    for (size_t e = 0; e < vg.edges.size() && e < layout.paths.size(); ++e) {
        const VEdge& edge = vg.edges[e];
        if (map[static_cast<size_t>(edge.from)] < 0 || map[static_cast<size_t>(edge.to)] < 0) continue;
        VEdge copy = edge;
        copy.from = map[static_cast<size_t>(edge.from)];
        copy.to = map[static_cast<size_t>(edge.to)];
        kept.edges.push_back(copy);
        keptLayout.paths.push_back(layout.paths[e]);
    }
    kept.index();
    keptLayout.bounds = layout.bounds;
    keptLayout.ok = true;
    PositionCache cache;
    cache.remember(kept, keptLayout);
    return cache;
}

} // namespace tl
