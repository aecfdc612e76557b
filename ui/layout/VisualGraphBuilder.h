#pragma once
// Private to ui/layout: the builder that turns a graph (and its expanded Scan,
// Composite and chain bodies) into a VisualGraph. Included by VisualGraphBuild.cpp
// only; VisualGraph.h is the interface.
#include "layout/VisualGraph.h"

#include <QFont>
#include <QFontMetricsF>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace tl::visual {

inline std::string clip(std::string s, size_t n = 56) {
    if (s.size() > n) s = s.substr(0, n - 3) + "...";
    return s;
}

inline std::string constantText(const Variable& v) {
    if (!v.name().empty()) return v.name();
    const NDArray& a = v.constantValue();
    if (a.valid() && a.size() == 1) {
        char buf[32];
        double x = a.item();
        if (isFloat(a.dtype())) std::snprintf(buf, sizeof buf, "%g", x);
        else std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(a.itemInt()));
        return buf;
    }
    return "constant";
}

inline bool isElemwiseFamily(const Node& n) {
    OpFamily f = opFamily(n.op());
    return f == OpFamily::Elemwise || f == OpFamily::Composite || f == OpFamily::Scalar;
}

// A frame's title in lines of at most kClusterHeaderWrap points, broken after
// ", " or "&" where it can be (merged loop names are "a&b&c..."), at most
// `maxLines`, the last one cut with an ellipsis.
inline std::vector<std::string> wrapHeader(const QString& text, const QFontMetricsF& fm, int maxLines = 3) {
    std::vector<std::string> lines;
    QString rest = text;
    while (!rest.isEmpty() && static_cast<int>(lines.size()) < maxLines) {
        if (fm.horizontalAdvance(rest) <= kClusterHeaderWrap) {
            lines.push_back(rest.toStdString());
            rest.clear();
            break;
        }
        if (static_cast<int>(lines.size()) == maxLines - 1) {
            lines.push_back(fm.elidedText(rest, Qt::ElideRight, kClusterHeaderWrap).toStdString());
            rest.clear();
            break;
        }
        // The longest prefix that fits, then back to the last break after it.
        int fit = 1;
        while (fit < rest.size() && fm.horizontalAdvance(rest.left(fit + 1)) <= kClusterHeaderWrap) ++fit;
        int cut = fit;
        for (int i = fit; i > fit / 2; --i)
            if (rest[i - 1] == ' ' || rest[i - 1] == '&' || rest[i - 1] == ',') {
                cut = i;
                break;
            }
        lines.push_back(rest.left(cut).trimmed().toStdString());
        rest = rest.mid(cut).trimmed();
    }
    return lines;
}

// One graph being turned into visual nodes: the top level or an expanded body.
struct Level {
    const Graph* graph = nullptr;
    int cluster = -1;             // visual index of the enclosing cluster
    NodeRef owner;                // the node whose body this is (invalid at top level)
    std::string prefix;           // key prefix ("" top, "n4/" inside Scan 4)
    std::vector<int> innerInputs;   // visual index per inner graph input (-1: none)
    std::vector<int> innerOutputs;  // visual index per inner graph output
};

class Builder {
public:
    Builder(VisualGraph& vg, const ExpansionState& exp, const NodeNotes* notes = nullptr) : m_vg(vg), m_exp(exp), m_notes(notes) {}

    int add(VNode n) {
        if (n.kind == VNode::Kind::Cluster) {
            // The frame's header: bold "▾ title  subtitle", wrapped to the frame, with
            // room under it for the category labels of the links entering the body.
            QFont bold = canvasTitleFont();
            bold.setBold(true);
            const QFontMetricsF fm(bold);
            n.headerLines = wrapHeader(QString::fromStdString("\u25be " + n.title + "  " + n.subtitle), fm);
            double w = 0;
            for (const std::string& l : n.headerLines) w = std::max(w, fm.horizontalAdvance(QString::fromStdString(l)));
            n.header = n.headerLines.size() * fm.height() + 8 + kLinkLabelRoom;
            n.size = QSizeF(w + 24, n.header);
            m_vg.nodes.push_back(std::move(n));
            return static_cast<int>(m_vg.nodes.size()) - 1;
        }
        n.size = measureBox(n.title, n.subtitle,
                            n.kind == VNode::Kind::Input || n.kind == VNode::Kind::Constant || n.kind == VNode::Kind::Output ||
                                n.kind == VNode::Kind::InnerInput || n.kind == VNode::Kind::InnerOutput);
        m_vg.nodes.push_back(std::move(n));
        return static_cast<int>(m_vg.nodes.size()) - 1;
    }
    void edge(int from, int to, const Variable* v, int toInput, std::string link = {}) {
        if (from < 0 || to < 0 || from == to) return;
        VEdge e;
        e.from = from;
        e.to = to;
        e.var = v ? v->id() : -1;
        e.toInput = toInput;
        e.label = v ? edgeLabel(v->type()) : std::string();
        e.link = std::move(link);
        m_vg.edges.push_back(std::move(e));
    }

    bool expandedByDefault(const Node& n, const Graph& g, const std::string& key) const {
        if (m_exp.collapsed.count(key)) return false;
        if (m_exp.expanded.count(key)) return true;
        auto inner = n.op().innerGraph();
        if (!inner) return false;
        // Composite bodies only on demand; Scan bodies when small in a small graph.
        if (n.op().kind() != OpKind::Scan) return false;
        return static_cast<int>(inner->numNodes()) <= m_exp.autoExpandBodyNodes &&
               static_cast<int>(g.numNodes()) <= m_exp.autoExpandGraphNodes;
    }
    bool canExpand(const Node& n) const {
        if (!n.op().innerGraph()) return false;
        return n.op().kind() == OpKind::Scan || m_exp.allowCompositeBodies;
    }

    // A source variable (graph input, constant) seen from consumer `to`: one small node per use.
    int sourceFor(const Level& L, const Variable* v, std::string useKey) {
        if (!L.innerInputs.empty() || L.cluster >= 0) {
            const auto& ins = L.graph->inputs();
            for (size_t i = 0; i < ins.size(); ++i)
                if (ins[i] == v && i < L.innerInputs.size() && L.innerInputs[i] >= 0) return L.innerInputs[i];
        }
        const std::string key = L.prefix + "v" + std::to_string(v->id()) + "@" + useKey;
        if (auto it = m_useNodes.find(key); it != m_useNodes.end()) return it->second;
        VNode n;
        n.key = key;
        n.var = v->id();
        n.parent = L.cluster;
        if (v->isConstant()) {
            n.kind = VNode::Kind::Constant;
            n.family = OpFamily::Constant;
            n.title = clip(constantText(*v), 24);
        } else {
            n.kind = VNode::Kind::Input;
            n.family = OpFamily::Input;
            n.title = v->name().empty() ? "input " + std::to_string(v->id()) : v->name();
            n.subtitle = edgeLabel(v->type());
        }
        int idx = add(std::move(n));
        m_useNodes[key] = idx;
        return idx;
    }

    // Cluster for an expanded inner-graph node: its placeholders and output markers now, body later.
    void openCluster(const Node& n, int cluster, const std::string& key, std::vector<Level>& work) {
        auto inner = n.op().innerGraph();
        Level L;
        L.graph = inner.get();
        L.cluster = cluster;
        L.owner = m_vg.nodes[cluster].ref;
        L.prefix = key + "/";
        std::optional<ScanInfo> info = scanInfoOf(n.op());
        std::vector<std::string> inLabels(inner->inputs().size()), outLabels(inner->outputs().size());
        std::vector<int> inOuter(inner->inputs().size(), -1), outOuter(inner->outputs().size(), -1);
        if (info) {
            for (const ScanLink& l : scanInputLinks(*info))
                if (l.inner >= 0 && l.inner < static_cast<int>(inLabels.size())) {
                    inLabels[l.inner] = l.label;
                    inOuter[l.inner] = l.outer;
                }
            for (const ScanLink& l : scanOutputLinks(*info))
                if (l.inner >= 0 && l.inner < static_cast<int>(outLabels.size())) {
                    outLabels[l.inner] = l.label;
                    outOuter[l.inner] = l.outer;
                }
        } else {
            // Composite: inner input i is outer input i, inner output j is outer output j.
            for (size_t i = 0; i < inLabels.size(); ++i) {
                inLabels[i] = "i" + std::to_string(i);
                inOuter[i] = static_cast<int>(i);
            }
            for (size_t j = 0; j < outLabels.size(); ++j) {
                outLabels[j] = "o" + std::to_string(j);
                outOuter[j] = static_cast<int>(j);
            }
        }
        for (size_t i = 0; i < inner->inputs().size(); ++i) {
            VNode v;
            v.kind = VNode::Kind::InnerInput;
            v.key = L.prefix + "in" + std::to_string(i);
            v.var = inner->inputs()[i]->id();
            v.family = OpFamily::Input;
            v.title = "*" + std::to_string(i);
            v.subtitle = inLabels[i];
            v.parent = cluster;
            v.rankPin = -1;
            L.innerInputs.push_back(add(std::move(v)));
        }
        for (size_t j = 0; j < inner->outputs().size(); ++j) {
            VNode v;
            v.kind = VNode::Kind::InnerOutput;
            v.key = L.prefix + "out" + std::to_string(j);
            v.var = inner->outputs()[j]->id();
            v.family = OpFamily::Input;
            v.title = "\u2190 " + (outLabels[j].empty() ? "o" + std::to_string(j) : outLabels[j]);
            v.parent = cluster;
            v.rankPin = +1;
            L.innerOutputs.push_back(add(std::move(v)));
        }
        m_clusterIn[cluster] = {L.innerInputs, inOuter, inLabels};
        m_clusterOut[cluster] = {L.innerOutputs, outOuter, outLabels};
        work.push_back(std::move(L));
    }

    void buildLevel(Level L, std::vector<Level>& work) {
        const Graph& g = *L.graph;
        const std::vector<Node*> order = g.toposort();
        // Per node of this level, by slot: its visual node (-1 none yet).
        std::vector<int> vis(g.numNodes(), -1);
        // Elementwise chains: a link n -> c when n's only output has c as its only client.
        std::vector<const Node*> nextOf(g.numNodes(), nullptr);
        std::vector<char> hasPrev(g.numNodes(), 0);
        for (const Node* n : order) {
            if (!isElemwiseFamily(*n) || n->numOutputs() != 1) continue;
            // One reading node, possibly through several inputs (x * x).
            const auto& cl = n->output(0)->clients();
            if (cl.empty() || cl[0].isGraphOutput() || !isElemwiseFamily(*cl[0].node)) continue;
            if (!std::all_of(cl.begin(), cl.end(), [&](const Client& c) { return c.node == cl[0].node; })) continue;
            nextOf[n->slot()] = cl[0].node;
            hasPrev[cl[0].node->slot()] = 1;
        }
        for (const Node* n : order) {
            if (vis[n->slot()] >= 0) continue;
            if (nextOf[n->slot()] && !hasPrev[n->slot()]) {
                std::vector<const Node*> chain{n};
                for (const Node* next = nextOf[n->slot()]; next; next = nextOf[next->slot()]) chain.push_back(next);
                const std::string key = L.prefix + "chain" + std::to_string(n->id());
                if (static_cast<int>(chain.size()) >= m_exp.collapseChainLength && !m_exp.expanded.count(key)) {
                    VNode v;
                    v.kind = VNode::Kind::Chain;
                    v.key = key;
                    v.node = n->id();
                    v.ref = refOf(L, n->id());
                    v.family = OpFamily::Elemwise;
                    v.parent = L.cluster;
                    v.title = "elementwise chain \u00d7" + std::to_string(chain.size());
                    std::string ops;
                    for (size_t i = 0; i < chain.size() && i < 3; ++i) ops += (i ? " \u2192 " : "") + chain[i]->op().name();
                    if (chain.size() > 3) ops += " \u2192 \u2026";
                    v.subtitle = clip(ops, 60);
                    for (const Node* m : chain) v.members.push_back(m->id());
                    for (size_t i = 0; i < chain.size(); ++i) v.tooltip += (i ? " \u2192 " : "") + chain[i]->op().name() + " #" + std::to_string(chain[i]->id());
                    int idx = add(std::move(v));
                    for (const Node* m : chain) vis[m->slot()] = idx;
                    continue;
                }
            }
            const std::string key = L.prefix + "n" + std::to_string(n->id());
            VNode v;
            v.key = key;
            v.node = n->id();
            v.ref = refOf(L, n->id());
            v.family = opFamily(n->op());
            v.parent = L.cluster;
            const bool expand = canExpand(*n) && expandedByDefault(*n, g, key);
            v.kind = expand ? VNode::Kind::Cluster : VNode::Kind::Op;
            // A frame wraps its whole title; a box cuts it and keeps it for the tooltip.
            v.tooltip = n->op().name();
            v.title = expand ? v.tooltip : clip(v.tooltip);
            v.subtitle = "#" + std::to_string(n->id());
            if (L.cluster < 0 && m_notes)
                if (auto it = m_notes->find(n->id()); it != m_notes->end()) v.subtitle += " \u2014 " + it->second;
            int idx = add(std::move(v));
            vis[n->slot()] = idx;
            if (expand) openCluster(*n, idx, key, work);
        }
        // Edges into every node (or into the placeholders of an expanded cluster).
        for (const Node* n : order) {
            const int to = vis[n->slot()];
            // Copies: adding per-use source nodes below reallocates m_vg.nodes.
            const VNode::Kind targetKind = m_vg.nodes[to].kind;
            const std::string targetKey = m_vg.nodes[to].key;
            const bool intoCluster = targetKind == VNode::Kind::Cluster;
            for (int i = 0; i < n->numInputs(); ++i) {
                const Variable* v = n->input(i);
                int dest = to;
                std::string link;
                if (intoCluster) {
                    // Every inner input fed by outer input i gets the link (mit_sot taps: several).
                    const auto& ci = m_clusterIn[to];
                    bool linked = false;
                    for (size_t k = 0; k < ci.outer.size(); ++k) {
                        if (ci.outer[k] != i) continue;
                        const int from = producer(L, v, vis, [&] { return m_vg.nodes[ci.vis[k]].key; });
                        edge(from, ci.vis[k], v, i, ci.labels[k]);
                        linked = true;
                    }
                    if (linked) continue;
                    if (auto info = scanInfoOf(n->op())) link = scanOuterInputLabel(*info, i);
                }
                const int from = producer(L, v, vis, [&] { return targetKind == VNode::Kind::Chain ? targetKey : targetKey + "#" + std::to_string(i); });
                if (from == to) continue;  // inside a collapsed chain
                // A chain reading one value many times (w in every eighth op) gets one edge for it.
                if (targetKind == VNode::Kind::Chain && !m_chainInputs.insert({from, dest, v->id()}).second) continue;
                edge(from, dest, v, i, link);
            }
        }
        // Outputs: markers at top level, "← sit_sot-0" inside a cluster.
        const auto& outs = g.outputs();
        for (size_t j = 0; j < outs.size(); ++j) {
            const Variable* v = outs[j];
            int marker;
            if (L.cluster >= 0) {
                if (j >= L.innerOutputs.size()) continue;
                marker = L.innerOutputs[j];
            } else {
                VNode m;
                m.kind = VNode::Kind::Output;
                m.key = "out" + std::to_string(j);
                m.var = v->id();
                m.family = OpFamily::Input;
                m.title = "output " + std::to_string(j);
                m.subtitle = v->name();
                marker = add(std::move(m));
            }
            edge(producer(L, v, vis, [&] { return m_vg.nodes[marker].key; }), marker, v, 0);
        }
        if (L.cluster >= 0) m_levelOfCluster[L.cluster] = m_levels.size();
        m_levels.push_back(L);
        m_levelVis.push_back(std::move(vis));
    }

    /// The visual node producing body variable `v` as seen from the level of
    /// `cluster` (its op, a nested frame's output marker, a placeholder, or a
    /// per-use source keyed by `useKey`), or -1.
    int producerIn(int cluster, const Variable* v, const std::string& useKey) {
        auto it = m_levelOfCluster.find(cluster);
        if (it == m_levelOfCluster.end()) return -1;
        const Level L = m_levels[it->second];
        return producer(L, v, m_levelVis[it->second], [&] { return useKey; });
    }

    static NodeRef refOf(const Level& L, NodeId id) { return L.owner.valid() ? L.owner.child(id) : NodeRef::outer(id); }

    /// The level built for an expanded cluster (null: not expanded / not built).
    const Level* levelOf(int cluster) const {
        auto it = m_levelOfCluster.find(cluster);
        return it == m_levelOfCluster.end() ? nullptr : &m_levels[it->second];
    }
    /// The visual node drawing `n` in the level of `cluster`, or -1.
    int visualOf(int cluster, const Node* n) const {
        auto it = m_levelOfCluster.find(cluster);
        if (it == m_levelOfCluster.end()) return -1;
        const auto& vis = m_levelVis[it->second];
        return n->slot() < vis.size() ? vis[n->slot()] : -1;
    }

    // The visual node producing `v` at this level: its op (or the cluster's output marker).
    // `useKey()` names the use, for a per-use source; only sources need it (most
    // inputs are op outputs, and building the key for every edge was wasted).
    template <typename UseKey>
    int producer(const Level& L, const Variable* v, const std::vector<int>& vis, UseKey&& useKey) {
        if (!v->owner()) return sourceFor(L, v, useKey());
        const int p = vis[v->owner()->slot()];
        if (p < 0) return -1;
        if (m_vg.nodes[p].kind == VNode::Kind::Cluster) {
            const auto& co = m_clusterOut[p];
            for (size_t k = 0; k < co.outer.size(); ++k)
                if (co.outer[k] == v->outputIndex()) return co.vis[k];
        }
        return p;
    }

    struct Ports {
        std::vector<int> vis;
        std::vector<int> outer;
        std::vector<std::string> labels;
    };
    VisualGraph& m_vg;
    const ExpansionState& m_exp;
    const NodeNotes* m_notes = nullptr;
    std::vector<Level> m_levels;                      // as built, in m_levelVis order
    std::unordered_map<int, size_t> m_levelOfCluster;  // cluster -> index into m_levels
    std::unordered_map<std::string, int> m_useNodes;
    std::unordered_map<int, Ports> m_clusterIn, m_clusterOut;
    std::vector<std::vector<int>> m_levelVis;  // per level, by node slot: its visual node
    std::set<std::tuple<int, int, VarId>> m_chainInputs;  // (from, chain, variable) already drawn
};

} // namespace tl::visual
