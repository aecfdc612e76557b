#include "layout/VisualGraph.h"

#include <QFont>
#include <QFontMetricsF>

#include <algorithm>
#include <mutex>
#include <string>
#include <unordered_map>

namespace tl {

namespace {
struct EdgeIdentity {
    int from, to;
    VarId var;
    int rank;
    bool operator==(const EdgeIdentity&) const = default;
};
struct EdgeIdentityHash {
    size_t operator()(const EdgeIdentity& e) const {
        uint64_t h = static_cast<uint64_t>(static_cast<uint32_t>(e.from)) * 0x9E3779B97F4A7C15ull;
        h ^= static_cast<uint64_t>(static_cast<uint32_t>(e.to)) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
        h ^= static_cast<uint64_t>(e.var) * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
        h ^= static_cast<uint64_t>(e.rank) + (h << 6) + (h >> 2);
        return static_cast<size_t>(h);
    }
};
struct KeyIds {
    std::mutex lock;
    std::unordered_map<std::string, int> ids;
    std::unordered_map<EdgeIdentity, int, EdgeIdentityHash> edges;
    int edge(const EdgeIdentity& e) { return edges.try_emplace(e, static_cast<int>(edges.size())).first->second; }
};
KeyIds& keyIds() {
    static KeyIds k;
    return k;
}
} // namespace

int keyIdOf(const std::string& key) {
    KeyIds& k = keyIds();
    std::lock_guard<std::mutex> hold(k.lock);
    return k.ids.try_emplace(key, static_cast<int>(k.ids.size())).first->second;
}

int findKeyId(const std::string& key) {
    KeyIds& k = keyIds();
    std::lock_guard<std::mutex> hold(k.lock);
    auto it = k.ids.find(key);
    return it == k.ids.end() ? -1 : it->second;
}

int edgeKeyIdOf(int fromKeyId, int toKeyId, VarId var, int rank) {
    KeyIds& k = keyIds();
    std::lock_guard<std::mutex> hold(k.lock);
    return k.edge({fromKeyId, toKeyId, var, rank});
}

std::string VEdge::key() const { return std::to_string(from) + ">" + std::to_string(to) + ":" + std::to_string(var); }

int VisualGraph::indexOf(const std::string& key) const {
    auto it = m_byKey.find(key);
    return it == m_byKey.end() ? -1 : it->second;
}

int VisualGraph::indexOfNode(NodeId id) const {
    auto it = m_byNode.find(id);
    return it == m_byNode.end() ? -1 : it->second;
}

int VisualGraph::indexOfRef(const NodeRef& ref) const {
    if (ref.isOuter()) return indexOfNode(ref.leaf());
    auto it = m_byRef.find(ref.key());
    return it == m_byRef.end() ? -1 : it->second;
}

int VisualGraph::indexOfRefOrOwner(const NodeRef& ref) const {
    for (NodeRef r = ref; r.valid(); r = r.parent())
        if (const int i = indexOfRef(r); i >= 0) return i;
    return -1;
}

std::vector<int> VisualGraph::childrenOf(int c) const {
    std::vector<int> out;
    for (int i = 0; i < static_cast<int>(nodes.size()); ++i)
        if (nodes[i].parent == c) out.push_back(i);
    return out;
}

int VisualGraph::depth(int i) const {
    int d = 0;
    for (int p = nodes[i].parent; p >= 0; p = nodes[p].parent) ++d;
    return d;
}

int VisualGraph::ancestorAt(int i, int level) const {
    while (i >= 0 && nodes[i].parent != level) i = nodes[i].parent;
    return i;
}

void VisualGraph::index() {
    m_byKey.clear();
    m_byNode.clear();
    m_byRef.clear();
    m_byKey.reserve(nodes.size());
    m_byNode.reserve(nodes.size());
    {
        // Keys as ids, once a picture (routes kept, items matched, history), under one lock.
        KeyIds& k = keyIds();
        std::lock_guard<std::mutex> hold(k.lock);
        for (VNode& n : nodes) n.keyId = k.ids.try_emplace(n.key, static_cast<int>(k.ids.size())).first->second;
        for (VEdge& e : edges) e.keyId = k.edge({nodes[e.from].keyId, nodes[e.to].keyId, e.var, 0});
    }
    for (int i = 0; i < static_cast<int>(nodes.size()); ++i) {
        m_byKey[nodes[i].key] = i;
        const VNode& n = nodes[i];
        if (n.parent == -1) {
            if (n.kind == VNode::Kind::Op || n.kind == VNode::Kind::Cluster || n.kind == VNode::Kind::Ghost) m_byNode[n.node] = i;
            if (n.kind == VNode::Kind::Chain)
                for (NodeId m : n.members) m_byNode[m] = i;
            continue;
        }
        // Body nodes by path; ghosts of body nodes are not the nodes they were.
        if (!n.ref.valid()) continue;
        if (n.kind == VNode::Kind::Op || n.kind == VNode::Kind::Cluster) m_byRef[n.ref.key()] = i;
        if (n.kind == VNode::Kind::Chain) {
            const NodeRef owner = n.ref.parent();
            for (NodeId m : n.members) m_byRef[owner.child(m).key()] = i;
        }
    }
}

const QFont& canvasTitleFont() {
    static const QFont f = [] {
        QFont f;
        f.setPointSizeF(9);
        return f;
    }();
    return f;
}

const QFont& canvasSmallFont() {
    static const QFont f = [] {
        QFont f;
        f.setPointSizeF(8);
        return f;
    }();
    return f;
}

namespace {
// Text widths by string: op names and ids repeat from step to step, and font
// metrics are the bulk of building a visual graph. GUI thread only.
double textWidth(const std::string& text, bool small) {
    static const QFontMetricsF big(canvasTitleFont()), little(canvasSmallFont());
    static std::unordered_map<std::string, double> bigCache, littleCache;
    auto& cache = small ? littleCache : bigCache;
    if (auto it = cache.find(text); it != cache.end()) return it->second;
    if (cache.size() > 200000) cache.clear();  // bounded: a long session of huge graphs
    const double w = (small ? little : big).horizontalAdvance(QString::fromStdString(text));
    cache.emplace(text, w);
    return w;
}
} // namespace

QSizeF measureBox(const std::string& title, const std::string& subtitle, bool ellipse) {
    static const double bigHeight = QFontMetricsF(canvasTitleFont()).height();
    static const double smallHeight = QFontMetricsF(canvasSmallFont()).height();
    double w = textWidth(title, false);
    double h = bigHeight;
    if (!subtitle.empty()) {
        w = std::max(w, textWidth(subtitle, true));
        h += smallHeight;
    }
    // Ellipses need more room for the same text.
    if (ellipse) return QSizeF(w * 1.25 + 14, h * 1.2 + 6);
    return QSizeF(w + 16, h + 10);
}

} // namespace tl
