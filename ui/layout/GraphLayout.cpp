#include "layout/GraphLayout.h"

#include "trace/StepDiff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace tl {

std::string edgeKey(const VisualGraph& vg, const VEdge& e) {
    return vg.nodes[e.from].key + ">" + vg.nodes[e.to].key + "@" + std::to_string(e.var);
}

namespace {

// The layout of one level (top or a cluster body) in its own coordinates.
struct LevelResult {
    std::vector<int> children;
    std::unordered_map<int, QPointF> center;  // child -> center
    std::unordered_map<int, QPainterPath> path;  // edge -> path (edges between direct children)
    QSizeF size;
};

int findRoot(std::vector<int>& parent, int a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
}

} // namespace

GraphLayout layoutVisualGraph(const VisualGraph& vg, const LayoutSettings& settings, const std::atomic<bool>* cancel,
                              const LayoutProgress& progress) {
    GraphLayout out;
    const int n = static_cast<int>(vg.nodes.size());
    // Levels bottom-up: deepest clusters first, top level (-1) last.
    std::vector<int> levels;
    for (int i = 0; i < n; ++i)
        if (vg.nodes[i].kind == VNode::Kind::Cluster) levels.push_back(i);
    std::stable_sort(levels.begin(), levels.end(), [&](int a, int b) { return vg.depth(a) > vg.depth(b); });
    levels.push_back(-1);

    std::vector<std::vector<int>> childrenOf(n + 1);  // index c+1
    for (int i = 0; i < n; ++i) childrenOf[vg.nodes[i].parent + 1].push_back(i);
    std::vector<QSizeF> size(n);
    for (int i = 0; i < n; ++i) size[i] = vg.nodes[i].size;
    std::unordered_map<int, LevelResult> results;

    const int total = static_cast<int>(levels.size());
    int done = 0;
    for (int level : levels) {
        if (cancel && cancel->load()) return out;
        LevelResult R;
        R.children = childrenOf[level + 1];
        std::unordered_map<int, int> local;  // visual index -> index in part input
        for (size_t k = 0; k < R.children.size(); ++k) local[R.children[k]] = static_cast<int>(k);
        // Edges of this level: both ends (or their ancestors) are children here.
        std::vector<std::pair<int, int>> levelEdges;
        std::vector<int> levelEdgeIds;
        for (int e = 0; e < static_cast<int>(vg.edges.size()); ++e) {
            const int a = vg.ancestorAt(vg.edges[e].from, level), b = vg.ancestorAt(vg.edges[e].to, level);
            if (a < 0 || b < 0 || a == b) continue;
            levelEdges.emplace_back(local[a], local[b]);
            levelEdgeIds.push_back(e);
        }
        // Connected components, each laid out on its own and packed in rows.
        const int m = static_cast<int>(R.children.size());
        std::vector<int> uf(m);
        std::iota(uf.begin(), uf.end(), 0);
        for (auto [a, b] : levelEdges) uf[findRoot(uf, a)] = findRoot(uf, b);
        std::map<int, int> compOfRoot;
        std::vector<int> comp(m);
        for (int k = 0; k < m; ++k) {
            const int r = findRoot(uf, k);
            auto it = compOfRoot.emplace(r, static_cast<int>(compOfRoot.size())).first;
            comp[k] = it->second;
        }
        const int nComp = static_cast<int>(compOfRoot.size());
        std::vector<PartInput> parts(nComp);
        std::vector<std::vector<int>> partNodes(nComp), partEdges(nComp);
        std::vector<int> indexInPart(m);
        for (int k = 0; k < m; ++k) {
            indexInPart[k] = static_cast<int>(partNodes[comp[k]].size());
            partNodes[comp[k]].push_back(k);
            parts[comp[k]].sizes.push_back(size[R.children[k]]);
        }
        for (size_t e = 0; e < levelEdges.size(); ++e) {
            auto [a, b] = levelEdges[e];
            parts[comp[a]].edges.emplace_back(indexInPart[a], indexInPart[b]);
            partEdges[comp[a]].push_back(static_cast<int>(e));
        }
        std::vector<PartOutput> laid(nComp);
        double area = 0, widest = 0;
        for (int c = 0; c < nComp; ++c) {
            if (cancel && cancel->load()) return out;
            const int count = static_cast<int>(parts[c].sizes.size());
            const bool useDot = settings.method == LayoutSettings::Method::Dot ||
                                (settings.method == LayoutSettings::Method::Auto && count > 1 && count <= settings.dotMaxNodes);
            if (useDot) {
                laid[c] = layoutWithDot(parts[c], cancel);
                if (laid[c].ok) ++out.dotParts;
            }
            if (!laid[c].ok) {
                if (cancel && cancel->load()) return out;
                laid[c] = layoutLayered(parts[c]);
                ++out.layeredParts;
            }
            area += laid[c].size.width() * laid[c].size.height();
            widest = std::max(widest, laid[c].size.width());
        }
        // Rows of components, biggest first so the main graph is top-left.
        std::vector<int> byArea(nComp);
        std::iota(byArea.begin(), byArea.end(), 0);
        std::stable_sort(byArea.begin(), byArea.end(), [&](int a, int b) {
            return laid[a].size.width() * laid[a].size.height() > laid[b].size.width() * laid[b].size.height();
        });
        const double rowWidth = std::max(widest, std::sqrt(area) * 1.6);
        const double gap = 30;
        double x = 0, y = 0, rowHeight = 0, maxW = 0;
        for (int c : byArea) {
            const QSizeF s = laid[c].size;
            if (x > 0 && x + s.width() > rowWidth) {
                x = 0;
                y += rowHeight + gap;
                rowHeight = 0;
            }
            const QPointF offset(x, y);
            for (size_t k = 0; k < partNodes[c].size(); ++k) R.center[R.children[partNodes[c][k]]] = laid[c].centers[k] + offset;
            for (size_t k = 0; k < partEdges[c].size(); ++k) {
                const int e = levelEdgeIds[partEdges[c][k]];
                const VEdge& ve = vg.edges[e];
                // Only edges between direct children keep the part's route; the others cross into a cluster.
                if (vg.nodes[ve.from].parent == level && vg.nodes[ve.to].parent == level)
                    R.path[e] = laid[c].paths[k].translated(offset);
            }
            x += s.width() + gap;
            rowHeight = std::max(rowHeight, s.height());
            maxW = std::max(maxW, x - gap);
        }
        R.size = QSizeF(maxW, y + rowHeight);
        if (level >= 0)
            size[level] = QSizeF(std::max(R.size.width() + 2 * kClusterMargin, vg.nodes[level].size.width()),
                                 R.size.height() + kClusterHeader + kClusterMargin);
        results[level] = std::move(R);
        if (progress) progress(++done, total);
    }

    // Top-down: absolute rects, then paths (part routes translated, the rest as curves).
    out.rects.assign(n, QRectF());
    std::vector<QPointF> origin(n + 1);  // content origin per level (index c+1)
    std::vector<int> stack{-1};
    while (!stack.empty()) {
        const int level = stack.back();
        stack.pop_back();
        const LevelResult& R = results[level];
        const QPointF o = origin[level + 1];
        for (int c : R.children) {
            const QPointF center = R.center.at(c) + o;
            out.rects[c] = QRectF(center.x() - size[c].width() / 2, center.y() - size[c].height() / 2, size[c].width(), size[c].height());
            if (vg.nodes[c].kind == VNode::Kind::Cluster) {
                const QSizeF inner = results[c].size;
                origin[c + 1] = QPointF(center.x() - inner.width() / 2, out.rects[c].top() + kClusterHeader);
                stack.push_back(c);
            }
        }
    }
    out.paths.resize(vg.edges.size());
    for (int e = 0; e < static_cast<int>(vg.edges.size()); ++e) {
        const VEdge& ve = vg.edges[e];
        const int level = vg.nodes[ve.from].parent;
        if (level == vg.nodes[ve.to].parent) {
            auto& R = results[level];
            if (auto it = R.path.find(e); it != R.path.end()) {
                out.paths[e] = it->second.translated(origin[level + 1]);
                continue;
            }
        }
        const QRectF& a = out.rects[ve.from];
        const QRectF& b = out.rects[ve.to];
        out.paths[e] = verticalBezier(QPointF(a.center().x(), a.bottom()), QPointF(b.center().x(), b.top()));
    }
    QRectF bounds;
    for (const QRectF& r : out.rects) bounds = bounds.united(r);
    out.bounds = bounds;
    out.ok = true;
    return out;
}

void PositionCache::remember(const VisualGraph& vg, const GraphLayout& layout) {
    for (size_t i = 0; i < vg.nodes.size() && i < layout.rects.size(); ++i) m_rects[vg.nodes[i].key] = layout.rects[i];
    for (size_t e = 0; e < vg.edges.size() && e < layout.paths.size(); ++e) m_paths[edgeKey(vg, vg.edges[e])] = layout.paths[e];
}

const QRectF* PositionCache::rect(const std::string& key) const {
    auto it = m_rects.find(key);
    return it == m_rects.end() ? nullptr : &it->second;
}

const QPainterPath* PositionCache::path(const std::string& key) const {
    auto it = m_paths.find(key);
    return it == m_paths.end() ? nullptr : &it->second;
}

void PositionCache::clear() {
    m_rects.clear();
    m_paths.clear();
}

namespace {
// Coarse grid of placed rectangles, so finding a free spot is not O(N) per node.
class Occupancy {
public:
    void add(const QRectF& r, int id) {
        forCells(r, [&](long long k) { m_cells[k].push_back(id); });
        m_rects[id] = r;
    }
    bool free(const QRectF& r, int ignore = -1) const {
        bool ok = true;
        forCells(r, [&](long long k) {
            if (!ok) return;
            auto it = m_cells.find(k);
            if (it == m_cells.end()) return;
            for (int id : it->second)
                if (id != ignore && m_rects.at(id).adjusted(-6, -6, 6, 6).intersects(r)) {
                    ok = false;
                    return;
                }
        });
        return ok;
    }

private:
    template <typename F> void forCells(const QRectF& r, F&& f) const {
        const int x0 = static_cast<int>(std::floor(r.left() / kCell)), x1 = static_cast<int>(std::floor(r.right() / kCell));
        const int y0 = static_cast<int>(std::floor(r.top() / kCell)), y1 = static_cast<int>(std::floor(r.bottom() / kCell));
        for (int x = x0; x <= x1; ++x)
            for (int y = y0; y <= y1; ++y) f((static_cast<long long>(x) << 32) ^ static_cast<unsigned>(y));
    }
    static constexpr double kCell = 160.0;
    std::unordered_map<long long, std::vector<int>> m_cells;
    std::unordered_map<int, QRectF> m_rects;
};
} // namespace

PlacementHints placementHints(const StepDiff* diff) {
    PlacementHints hints;
    if (!diff) return hints;
    for (const auto& [was, now] : diff->replacedBy) {
        const std::string n = "n" + std::to_string(now), w = "n" + std::to_string(was);
        hints.exact[n] = w;
        hints.prefixes.emplace_back(n + "/", w + "/");
    }
    return hints;
}

IncrementalLayout layoutIncrementally(const VisualGraph& vg, const PositionCache& cache, const PlacementHints& hints) {
    IncrementalLayout res;
    GraphLayout& out = res.layout;
    const int n = static_cast<int>(vg.nodes.size());
    out.rects.assign(n, QRectF());
    std::vector<char> known(n, 0);
    Occupancy occ;
    for (int i = 0; i < n; ++i) {
        if (vg.nodes[i].kind == VNode::Kind::Cluster) continue;  // derived from the children below
        if (const QRectF* r = cache.rect(vg.nodes[i].key)) {
            const QSizeF s = vg.nodes[i].size;
            out.rects[i] = QRectF(r->center().x() - s.width() / 2, r->center().y() - s.height() / 2, s.width(), s.height());
            known[i] = 1;
            occ.add(out.rects[i], i);
            ++res.reused;
        }
    }
    // New nodes in topological order of the visual edges, so a new chain stacks downward.
    std::vector<std::vector<int>> pred(n), succ(n);
    std::vector<int> indeg(n, 0);
    for (const VEdge& e : vg.edges) {
        pred[e.to].push_back(e.from);
        succ[e.from].push_back(e.to);
        ++indeg[e.to];
    }
    std::vector<int> order;
    for (int i = 0; i < n; ++i)
        if (!indeg[i]) order.push_back(i);
    for (size_t h = 0; h < order.size(); ++h)
        for (int s : succ[order[h]])
            if (--indeg[s] == 0) order.push_back(s);
    QRectF bounds;
    for (int i = 0; i < n; ++i)
        if (known[i]) bounds = bounds.united(out.rects[i]);
    for (int i : order) {
        if (known[i] || vg.nodes[i].kind == VNode::Kind::Cluster) continue;
        const QSizeF s = vg.nodes[i].size;
        QPointF want;
        bool have = false;
        const std::string& key = vg.nodes[i].key;
        bool hinted = false;
        if (auto h = hints.exact.find(key); h != hints.exact.end())
            if (const QRectF* r = cache.rect(h->second)) {
                want = r->center();
                have = true;
            }
        for (size_t p = 0; !have && p < hints.prefixes.size(); ++p) {
            const auto& [now, was] = hints.prefixes[p];
            if (key.compare(0, now.size(), now) != 0) continue;
            if (const QRectF* r = cache.rect(was + key.substr(now.size()))) {
                want = r->center();
                have = true;
            }
        }
        hinted = have;
        if (!hinted && vg.nodes[i].parent >= 0) res.needsFullLayout = true;
        if (!have) {
            double sx = 0, maxBottom = -1e18;
            int cnt = 0;
            for (int p : pred[i])
                if (known[p]) {
                    sx += out.rects[p].center().x();
                    maxBottom = std::max(maxBottom, out.rects[p].bottom());
                    ++cnt;
                }
            if (cnt) {
                want = QPointF(sx / cnt, maxBottom + 36 + s.height() / 2);
                have = true;
            } else {
                double minTop = 1e18;
                for (int c : succ[i])
                    if (known[c]) {
                        sx += out.rects[c].center().x();
                        minTop = std::min(minTop, out.rects[c].top());
                        ++cnt;
                    }
                if (cnt) {
                    want = QPointF(sx / cnt, minTop - 36 - s.height() / 2);
                    have = true;
                }
            }
        }
        if (!have) want = QPointF(bounds.isNull() ? 0 : bounds.right() + 40 + s.width() / 2, bounds.isNull() ? 0 : bounds.top() + s.height() / 2);
        QRectF r(want.x() - s.width() / 2, want.y() - s.height() / 2, s.width(), s.height());
        // Step sideways, alternating right and left, until the spot is free.
        for (int t = 1; t < 80 && !occ.free(r); ++t) {
            const double dx = ((t + 1) / 2) * (s.width() * 0.5 + 12) * (t % 2 ? 1 : -1);
            r.moveCenter(QPointF(want.x() + dx, want.y()));
        }
        out.rects[i] = r;
        known[i] = 1;
        occ.add(r, i);
        bounds = bounds.united(r);
        ++res.placed;
    }
    // Clusters: the box around their children, deepest first.
    std::vector<int> clusters;
    for (int i = 0; i < n; ++i)
        if (vg.nodes[i].kind == VNode::Kind::Cluster) clusters.push_back(i);
    std::stable_sort(clusters.begin(), clusters.end(), [&](int a, int b) { return vg.depth(a) > vg.depth(b); });
    for (int c : clusters) {
        QRectF box;
        for (int k = 0; k < n; ++k)
            if (vg.nodes[k].parent == c && !out.rects[k].isNull()) box = box.united(out.rects[k]);
        if (box.isNull()) {
            if (const QRectF* r = cache.rect(vg.nodes[c].key)) box = *r;
            else box = QRectF(bounds.right() + 40, bounds.top(), vg.nodes[c].size.width(), vg.nodes[c].size.height());
            out.rects[c] = box;
        } else {
            out.rects[c] = box.adjusted(-kClusterMargin, -kClusterHeader, kClusterMargin, kClusterMargin);
        }
    }
    // A box drawn inside a frame it does not belong to would read as part of that body.
    for (int c : clusters) {
        if (res.needsFullLayout) break;
        for (int k = 0; k < n && !res.needsFullLayout; ++k) {
            if (k == c || vg.nodes[k].kind == VNode::Kind::Cluster) continue;
            int p = vg.nodes[k].parent;
            while (p >= 0 && p != c) p = vg.nodes[p].parent;
            if (p != c && out.rects[c].intersects(out.rects[k])) res.needsFullLayout = true;
        }
    }
    out.paths.resize(vg.edges.size());
    for (size_t e = 0; e < vg.edges.size(); ++e) {
        const VEdge& ve = vg.edges[e];
        const QRectF& a = out.rects[ve.from];
        const QRectF& b = out.rects[ve.to];
        // Keep dot's route when neither end moved.
        const QRectF* ca = cache.rect(vg.nodes[ve.from].key);
        const QRectF* cb = cache.rect(vg.nodes[ve.to].key);
        if (ca && cb && ca->center() == a.center() && cb->center() == b.center())
            if (const QPainterPath* p = cache.path(edgeKey(vg, ve))) {
                out.paths[e] = *p;
                continue;
            }
        out.paths[e] = verticalBezier(QPointF(a.center().x(), a.bottom()), QPointF(b.center().x(), b.top()));
    }
    for (const QRectF& r : out.rects) bounds = bounds.united(r);
    out.bounds = bounds;
    out.ok = true;
    return res;
}

} // namespace tl
