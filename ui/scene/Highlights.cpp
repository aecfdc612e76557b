#include "scene/Highlights.h"

#include <map>
#include <set>
#include <tuple>
#include <unordered_set>

namespace tl {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
}

Highlights computeHighlights(const VisualGraph& vg, const StepDiff* diff, int stepCount, const QString& source) {
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

    // The edges drawing each rewired use: (top-level consumer node, input index,
    // variable), a graph output by its marker (-1 - index), a node inside a
    // collapsed chain by the chain's box (index -1). A step rewires a handful of
    // the graph's thousands of edges, so only edges carrying a rewired variable
    // are looked at, and only wanted uses are kept.
    using Use = std::tuple<NodeId, int, VarId>;
    std::set<Use> wanted;
    std::unordered_set<VarId> rewiredVars;
    for (const RewiredEdge& r : diff->rewired) {
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
        const int top = vg.ancestorAt(ve.to, -1);
        if (top < 0) continue;
        const VNode& t = vg.nodes[top];
        if (t.kind == VNode::Kind::Output) keep({-1 - std::stoll(t.key.substr(3)), 0, ve.var}, e);
        else if (t.kind == VNode::Kind::Chain) {
            for (NodeId m : t.members) keep({m, -1, ve.var}, e);
        } else keep({t.node, ve.toInput, ve.var}, e);
    }
    auto edgesFor = [&](NodeId consumer, int index, VarId var) -> std::vector<int> {
        if (consumer < 0) {
            auto it = byUse.find({-1 - static_cast<NodeId>(index), 0, var});
            return it == byUse.end() ? std::vector<int>{} : it->second;
        }
        if (auto it = byUse.find({consumer, index, var}); it != byUse.end()) return it->second;
        if (auto it = byUse.find({consumer, -1, var}); it != byUse.end()) return it->second;  // into a chain
        return {};
    };
    for (const RewiredEdge& r : diff->rewired)
        for (int e : edgesFor(r.consumer, r.index, r.after)) h.rewiredEdges.insert(e);

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
    for (int v : h.fused) {
        Highlights::Badge badge;
        badge.kind = Highlights::Badge::Fused;
        badge.node = v;
        badge.text = "fused";
        badge.tooltip = "a Composite created by elementwise fusion";
        h.badges.push_back(std::move(badge));
    }

    QString title = QString("Step %1 / %2 \u2014 %3").arg(diff->step).arg(stepCount).arg(qs(diff->rewrite));
    if (!diff->phase.empty()) title += QString(" (%1)").arg(qs(diff->phase));
    h.banner << title;
    QStringList counts;
    if (!diff->added.empty()) counts << QString("%1 added").arg(diff->added.size());
    if (!diff->erased.empty()) counts << QString("%1 erased").arg(diff->erased.size());
    if (!diff->rewired.empty()) counts << QString("%1 rewired").arg(diff->rewired.size());
    if (!diff->opChanged.empty()) counts << QString("%1 changed op").arg(diff->opChanged.size());
    if (counts.isEmpty()) counts << "no visible change";
    h.banner << counts.join(", ");
    if (diff->bufferBytesBefore != diff->bufferBytesAfter || !diff->shapeChanges.empty())
        h.banner << QString("buffers %1 \u2192 %2").arg(qs(formatBytes(diff->bufferBytesBefore)), qs(formatBytes(diff->bufferBytesAfter)));
    for (const MergedState& m : diff->mergedStates) h.banner << qs(m.text);
    return h;
}

} // namespace tl
