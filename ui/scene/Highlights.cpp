#include "scene/Highlights.h"

#include <map>
#include <set>
#include <tuple>
#include <unordered_set>

namespace tl {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

QString countsText(size_t added, size_t erased, size_t rewired, size_t ops) {
    QStringList counts;
    if (added) counts << QString("%1 added").arg(added);
    if (erased) counts << QString("%1 erased").arg(erased);
    if (rewired) counts << QString("%1 rewired").arg(rewired);
    if (ops) counts << QString("%1 changed op").arg(ops);
    return counts.join(", ");
}

// Recorded facts worth a badge on the node they are about (the rest are in the inspector).
QString factBadge(const AttributeChange& a) {
    if (a.key == "destroy_map") return QString("destroy_map %1 \u2192 %2").arg(qs(a.before), qs(a.after));
    if (a.key == "n_steps") return QString("n_steps %1 \u2192 %2").arg(qs(a.before), qs(a.after));
    return {};
}

// The outer rewired uses and the edges drawing them (see computeHighlights).
void markOuterRewires(const VisualGraph& vg, const StepDiff& diff, Highlights& h) {
    // The edges drawing each rewired use: (top-level consumer node, input index,
    // variable), a graph output by its marker (-1 - index), a node inside a
    // collapsed chain by the chain's box (index -1). A step rewires a handful of
    // the graph's thousands of edges, so only edges carrying a rewired variable
    // are looked at, and only wanted uses are kept.
    using Use = std::tuple<NodeId, int, VarId>;
    std::set<Use> wanted;
    std::unordered_set<VarId> rewiredVars;
    for (const RewiredEdge& r : diff.rewired) {
        rewiredVars.insert(r.after);
        if (r.consumer < 0) wanted.insert({-1 - static_cast<NodeId>(r.index), 0, r.after});
        else {
            wanted.insert({r.consumer, r.index, r.after});
            wanted.insert({r.consumer, -1, r.after});
        }
    }
    std::map<Use, std::vector<int>> byUse;
    auto keep = [&](const Use& u, int e) {
        if (wanted.count(u)) byUse[u].push_back(e);
    };
    for (int e = 0; !rewiredVars.empty() && e < static_cast<int>(vg.edges.size()); ++e) {
        const VEdge& ve = vg.edges[e];
        if (!rewiredVars.count(ve.var)) continue;
        // An edge from inside a body carries a variable of the body, not of the graph.
        if (vg.nodes[ve.from].parent >= 0 && vg.ancestorAt(ve.from, -1) == vg.ancestorAt(ve.to, -1)) continue;
        const int top = vg.ancestorAt(ve.to, -1);
        if (top < 0) continue;
        const VNode& t = vg.nodes[top];
        if (t.kind == VNode::Kind::Output) keep({-1 - std::stoll(t.key.substr(3)), 0, ve.var}, e);
        else if (t.kind == VNode::Kind::Chain) {
            for (NodeId m : t.members) keep({m, -1, ve.var}, e);
        } else keep({t.node, ve.toInput, ve.var}, e);
    }
    for (const RewiredEdge& r : diff.rewired) {
        const Use exact = r.consumer < 0 ? Use{-1 - static_cast<NodeId>(r.index), 0, r.after} : Use{r.consumer, r.index, r.after};
        auto it = byUse.find(exact);
        if (it == byUse.end() && r.consumer >= 0) it = byUse.find({r.consumer, -1, r.after});  // into a chain
        if (it != byUse.end())
            for (int e : it->second) h.rewiredEdges.insert(e);
    }
}

// The changes inside one drawn body.
void markBody(const VisualGraph& vg, const InnerGraphDiff& d, int cluster, const std::vector<std::vector<int>>& edgesInto, Highlights& h) {
    for (NodeId id : d.added)
        if (const int v = vg.indexOfRef(d.owner.child(id)); v >= 0) h.added.insert(v);
    for (NodeId id : d.opChanged)
        if (const int v = vg.indexOfRef(d.owner.child(id)); v >= 0) h.opChanged.insert(v);
    const std::string prefix = d.owner.key() + "/";
    for (const InnerRewiredEdge& r : d.rewired) {
        const int target = r.consumer >= 0 ? vg.indexOfRef(d.owner.child(r.consumer)) : vg.indexOf(prefix + "out" + std::to_string(r.index));
        if (target < 0) continue;
        const bool chain = vg.nodes[target].kind == VNode::Kind::Chain;
        const bool frame = vg.nodes[target].kind == VNode::Kind::Cluster;
        auto consider = [&](int to) {
            for (int e : edgesInto[to]) {
                const VEdge& ve = vg.edges[e];
                if (ve.var != r.after || vg.ancestorAt(ve.from, cluster) < 0) continue;
                if (chain || r.consumer < 0 || ve.toInput == r.index) h.rewiredEdges.insert(e);
            }
        };
        consider(target);
        // Into an expanded body inside this one: its placeholders take the edges.
        if (frame)
            for (int k = 0; k < static_cast<int>(vg.nodes.size()); ++k)
                if (vg.nodes[k].parent == target && vg.nodes[k].kind == VNode::Kind::InnerInput) consider(k);
    }
}

} // namespace

Highlights computeHighlights(const VisualGraph& vg, const StepDiff* diff, int stepCount, const QString& source, const StepChanges* changes,
                             int comparedWith) {
    Highlights h;
    if (!diff) {
        h.banner << (source.isEmpty() ? QString("Original graph") : "Original graph \u2014 " + source);
        if (stepCount > 0) h.banner << QString("%1 rewrite steps recorded; press \u2192 (or N) for the next one").arg(stepCount);
        return h;
    }
    for (NodeId id : diff->added)
        if (int v = vg.indexOfNode(id); v >= 0) h.added.insert(v);
    for (NodeId id : diff->fused)
        if (int v = vg.indexOfNode(id); v >= 0) h.fused.insert(v);
    for (NodeId id : diff->opChanged)
        if (int v = vg.indexOfNode(id); v >= 0) h.opChanged.insert(v);
    for (int i = 0; i < static_cast<int>(vg.nodes.size()); ++i)
        if (vg.nodes[i].kind == VNode::Kind::Ghost) h.ghosts.insert(i);
    markOuterRewires(vg, *diff, h);

    QStringList bodyLines;
    if (changes) {
        for (NodeId id : changes->sameNameOpChanged)
            if (int v = vg.indexOfNode(id); v >= 0) h.opChanged.insert(v);
        std::vector<std::vector<int>> edgesInto(vg.nodes.size());
        if (!changes->inner.empty())
            for (int e = 0; e < static_cast<int>(vg.edges.size()); ++e) edgesInto[vg.edges[e].to].push_back(e);
        for (const InnerGraphDiff& d : changes->inner) {
            ++h.bodyChanges;
            const QString counts = countsText(d.added.size(), d.erased.size(), d.rewired.size(), d.opChanged.size());
            bodyLines << QString("body of %1: %2").arg(qs(d.owner.label()), counts.isEmpty() ? QString("changed") : counts);
            const int cluster = vg.indexOf(d.owner.key());
            if (cluster >= 0 && vg.nodes[cluster].kind == VNode::Kind::Cluster) {
                markBody(vg, d, cluster, edgesInto, h);
                continue;
            }
            // A collapsed body: its box says the body changed, and how.
            const int owner = vg.indexOfRefOrOwner(d.owner);
            if (owner < 0) continue;
            h.opChanged.insert(owner);
            Highlights::Badge badge;
            badge.kind = Highlights::Badge::Fact;
            badge.node = owner;
            badge.text = "body: " + (counts.isEmpty() ? QString("changed") : counts);
            badge.tooltip = QString("The body of %1 changed (%2 \u2192 %3 nodes); double-click the node to open it.")
                                .arg(qs(d.owner.label()))
                                .arg(d.nodesBefore)
                                .arg(d.nodesAfter);
            h.badges.push_back(std::move(badge));
        }
    }

    for (const ShapeBadge& b : diff->shapeChanges) {
        Highlights::Badge badge;
        badge.kind = Highlights::Badge::Shape;
        badge.node = vg.indexOfNode(b.node);
        if (badge.node < 0) continue;
        badge.text = (b.label.empty() ? QString() : qs(b.label) + ": ") + qs(b.text());
        badge.tooltip = "buffer shape " + qs(b.text()) + (b.detail.empty() ? QString() : "\n" + qs(b.detail));
        h.badges.push_back(std::move(badge));
    }
    for (const MergedState& m : diff->mergedStates) {
        Highlights::Badge badge;
        badge.kind = Highlights::Badge::Merged;
        badge.node = vg.indexOfNode(m.scan);
        if (badge.node < 0) continue;
        badge.text = qs(m.text);
        badge.tooltip = qs(m.text) + (m.detail.empty() ? QString() : "\n" + qs(m.detail));
        h.badges.push_back(std::move(badge));
    }
    for (const AttributeChange& a : diff->attributes) {
        const QString text = factBadge(a);
        const int v = text.isEmpty() ? -1 : vg.indexOfNode(a.node);
        if (v < 0) continue;
        h.opChanged.insert(v);
        h.badges.push_back({Highlights::Badge::Fact, v, text, a.detail.empty() ? text : text + "\n" + qs(a.detail)});
    }
    for (int v : h.fused) {
        Highlights::Badge badge;
        badge.kind = Highlights::Badge::Fused;
        badge.node = v;
        badge.text = "fused";
        badge.tooltip = "a Composite created by elementwise fusion";
        h.badges.push_back(std::move(badge));
    }

    QString title;
    if (comparedWith >= 0)
        title = QString("Changes from %1 to step %2 / %3").arg(comparedWith == 0 ? QString("the original graph") : QString("step %1").arg(comparedWith)).arg(diff->step).arg(stepCount);
    else {
        title = QString("Step %1 / %2 \u2014 %3").arg(diff->step).arg(stepCount).arg(qs(diff->rewrite));
        if (!diff->phase.empty()) title += QString(" (%1)").arg(qs(diff->phase));
    }
    h.banner << title;
    QString counts = countsText(diff->added.size(), diff->erased.size(), diff->rewired.size(), diff->opChanged.size());
    if (counts.isEmpty() && bodyLines.isEmpty() && h.opChanged.empty()) counts = "no visible change";
    else if (counts.isEmpty() && bodyLines.isEmpty()) counts = QString("%1 changed op").arg(h.opChanged.size());
    if (!counts.isEmpty()) h.banner << counts;
    h.banner << bodyLines;
    if (!(diff->buffersBefore == diff->buffersAfter) || !diff->shapeChanges.empty())
        h.banner << QString("buffers %1 \u2192 %2").arg(qs(formatBufferTotal(diff->buffersBefore)), qs(formatBufferTotal(diff->buffersAfter)));
    for (const MergedState& m : diff->mergedStates) h.banner << qs(m.text);
    return h;
}

} // namespace tl
