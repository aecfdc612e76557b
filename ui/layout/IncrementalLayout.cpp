// Stepping without a fresh layout: every node of the new picture that the
// previous picture drew stays where it was; new ones start where the node they
// replace was, or next to their neighbours. The result says when that would
// mislead, so the canvas lays out afresh instead.
#include "layout/GraphLayout.h"

#include "trace/StepDiff.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tl {

void PositionCache::remember(const VisualGraph& vg, const GraphLayout& layout) {
    for (size_t i = 0; i < vg.nodes.size() && i < layout.rects.size(); ++i) setRect(vg.nodes[i].keyId, layout.rects[i]);
    for (size_t e = 0; e < vg.edges.size() && e < layout.paths.size(); ++e) setPath(edgeKeyId(vg.edges[e]), layout.paths[e]);
}

void PositionCache::setRect(int keyId, const QRectF& r) {
    if (keyId < 0) throw std::logic_error("a position needs an interned key (VisualGraph::index())");
    if (static_cast<size_t>(keyId) >= m_rects.size()) {
        m_rects.resize(keyId + 1);
        m_hasRect.resize(keyId + 1, 0);
    }
    m_rectCount += !m_hasRect[keyId];
    m_hasRect[keyId] = 1;
    m_rects[keyId] = r;
}

void PositionCache::setPath(int keyId, const QPainterPath& p) {
    if (keyId < 0) throw std::logic_error("a route needs an interned key (VisualGraph::index())");
    if (static_cast<size_t>(keyId) >= m_paths.size()) {
        m_paths.resize(keyId + 1);
        m_hasPath.resize(keyId + 1, 0);
    }
    m_hasPath[keyId] = 1;
    m_paths[keyId] = p;
}

void PositionCache::eraseRect(int keyId) {
    if (!rect(keyId)) return;
    m_hasRect[keyId] = 0;
    m_rects[keyId] = QRectF();
    --m_rectCount;
}

void PositionCache::erasePath(int keyId) {
    if (!path(keyId)) return;
    m_hasPath[keyId] = 0;
    m_paths[keyId] = QPainterPath();
}

void PositionCache::clear() {
    m_rects.clear();
    m_hasRect.clear();
    m_paths.clear();
    m_hasPath.clear();
    m_rectCount = 0;
}

namespace {
// Coarse grid of placed rectangles, so finding a free spot is not O(N) per node.
class Occupancy {
public:
    /// Ids are below `ids` (the visual graph's node indices).
    explicit Occupancy(int ids) : m_rects(static_cast<size_t>(ids)) { m_cells.reserve(static_cast<size_t>(ids)); }
    void add(const QRectF& r, int id) {
        forCells(r, [&](long long k) { m_cells[k].push_back(id); });
        m_rects[static_cast<size_t>(id)] = r;
    }
    /// No rect added so far comes within `margin` of `r`.
    bool free(const QRectF& r, int ignore = -1, double margin = 6) const {
        return freeOf(r, margin, [&](int id) { return id == ignore; });
    }
    /// No rect added so far, except those `skip` names, comes within `margin` of `r`.
    template <typename Skip> bool freeOf(const QRectF& r, double margin, Skip&& skip) const {
        bool ok = true;
        forCells(r.adjusted(-margin, -margin, margin, margin), [&](long long k) {
            if (!ok) return;
            auto it = m_cells.find(k);
            if (it == m_cells.end()) return;
            for (int id : it->second)
                if (!skip(id) && m_rects[static_cast<size_t>(id)].adjusted(-margin, -margin, margin, margin).intersects(r)) {
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
    std::vector<QRectF> m_rects;  // by id
};
} // namespace

PlacementHints placementHints(const StepDiff* diff, const StepChanges* changes) {
    PlacementHints hints;
    if (!diff) return hints;
    for (const auto& [was, now] : diff->replacedBy) {
        const std::string n = "n" + std::to_string(now), w = "n" + std::to_string(was);
        hints.exact[n] = w;
        hints.prefixes.emplace_back(n + "/", w + "/");
    }
    if (!changes) return hints;
    // Body nodes: where the node they stand for was drawn (the same node in a
    // rebuilt body, the node a new one replaced), ghosts where they were.
    for (const InnerGraphDiff& d : changes->inner) {
        const std::string now = d.owner.key() + "/", was = d.ownerBefore.key() + "/";
        for (const auto& [a, b] : d.matchedFrom) {
            const std::string ka = now + "n" + std::to_string(a), kb = was + "n" + std::to_string(b);
            if (ka != kb) hints.exact[ka] = kb;
        }
        for (const NodeSnapshot& e : d.erased) hints.exact[now + "x" + std::to_string(e.id)] = was + "n" + std::to_string(e.id);
        for (NodeId a : d.added)
            if (!d.matchedFrom.count(a)) hints.near[now + "n" + std::to_string(a)] = true;
    }
    return hints;
}

PlacementHints placementHintsBack(const StepDiff* diff, const StepChanges* changes) {
    PlacementHints hints;
    if (!diff) return hints;
    for (const auto& [was, now] : diff->replacedBy) {
        const std::string n = "n" + std::to_string(now), w = "n" + std::to_string(was);
        hints.exact[w] = n;
        hints.prefixes.emplace_back(w + "/", n + "/");
    }
    if (!changes) return hints;
    for (const InnerGraphDiff& d : changes->inner) {
        const std::string now = d.owner.key() + "/", was = d.ownerBefore.key() + "/";
        for (const auto& [a, b] : d.matchedFrom) {
            const std::string ka = now + "n" + std::to_string(a), kb = was + "n" + std::to_string(b);
            if (ka != kb) hints.exact[kb] = ka;
        }
        for (const NodeSnapshot& e : d.erased) hints.exact[was + "n" + std::to_string(e.id)] = now + "x" + std::to_string(e.id);
    }
    return hints;
}

IncrementalLayout layoutIncrementally(const VisualGraph& vg, const PositionCache& cache, const PlacementHints& hints) {
    IncrementalLayout res;
    GraphLayout& out = res.layout;
    const int n = static_cast<int>(vg.nodes.size());
    out.rects.assign(n, QRectF());
    std::vector<char> known(n, 0);
    Occupancy occ(n);
    // Where a hint puts a node: the rect of the key it names, by node (a key the
    // cache never saw gives none). Looked up once per hint, not per node.
    std::vector<const QRectF*> hintRect(n, nullptr);
    for (const auto& [now, was] : hints.exact)
        if (const int i = vg.indexOf(now); i >= 0) hintRect[i] = cache.rect(was);
    for (int i = 0; i < n; ++i) {
        if (vg.nodes[i].kind == VNode::Kind::Cluster) continue;  // derived from the children below
        // A hint beats a remembered rect: going back, a node reappears where its
        // replacement or its ghost was just drawn, not where some older picture had it.
        if (hintRect[i]) continue;
        if (const QRectF* r = cache.rect(vg.nodes[i].keyId)) {
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
    auto insideOf = [&](int node, int cluster) {
        for (int p = vg.nodes[node].parent; p >= 0; p = vg.nodes[p].parent)
            if (p == cluster) return true;
        return false;
    };
    // Where each frame will be at least: around the children it keeps (as wide as
    // its title, which may reach past them) and the frame the picture had
    // (remembered, or that of the node a hint names). A new node outside a body
    // must not land there, or the frame grown around its children would cover it.
    std::vector<std::pair<int, QRectF>> frames;
    for (int c = 0; c < n; ++c) {
        if (vg.nodes[c].kind != VNode::Kind::Cluster) continue;
        QRectF frame;
        for (int k = 0; k < n; ++k)
            if (known[k] && insideOf(k, c)) frame = frame.united(out.rects[k]);
        if (!frame.isNull()) {
            frame.adjust(-kClusterMargin, -clusterHeader(vg.nodes[c]), kClusterMargin, kClusterMargin);
            if (frame.width() < vg.nodes[c].size.width()) frame.setRight(frame.left() + vg.nodes[c].size.width());
        }
        const QRectF* r = cache.rect(vg.nodes[c].keyId);
        if (!r) r = hintRect[c];
        if (r) frame = frame.isNull() ? *r : frame.united(*r);
        if (!frame.isNull()) frames.emplace_back(c, frame.adjusted(-kClusterMargin, -kClusterMargin, kClusterMargin, kClusterMargin));
    }
    auto spotFree = [&](const QRectF& r, int node) {
        if (!occ.free(r)) return false;
        // The frames around a body node grow around it: no box outside one of
        // them may come within that frame's margin (its header, above).
        QRectF grown = r;
        for (int f = vg.nodes[node].parent; f >= 0; f = vg.nodes[f].parent) {
            grown.adjust(-kClusterMargin, -clusterHeader(vg.nodes[f]), kClusterMargin, kClusterMargin);
            if (!occ.freeOf(grown, 4, [&](int id) { return insideOf(id, f); })) return false;
        }
        for (const auto& [c, frame] : frames)
            if (!insideOf(node, c) && frame.intersects(r)) return false;
        return true;
    };
    // Body nodes placed with no hint (neither the node they stand for nor a step
    // that added them).
    std::vector<char> loose(n, 0);
    // Places new node i; false (nothing done) when `mayDefer` and no neighbour and no
    // hint says where: a new constant feeding a new node waits until that node is placed.
    auto place = [&](int i, bool mayDefer) {
        const QSizeF s = vg.nodes[i].size;
        QPointF want;
        bool have = false;
        const std::string& key = vg.nodes[i].key;
        bool hinted = false;
        if (const QRectF* r = hintRect[i]) {
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
        if (!have) {
            // Beside its neighbours: below what it reads, else above what it feeds;
            // those in its own frame first (a link's other end is outside). A body
            // node with none of those placed yet waits for them.
            const int parent = vg.nodes[i].parent;
            auto beside = [&](bool sameFrame) {
                auto counts = [&](int j) { return known[j] && (!sameFrame || vg.nodes[j].parent == parent); };
                double sx = 0, edge = -1e18;
                int cnt = 0;
                for (int p : pred[i])
                    if (counts(p)) {
                        sx += out.rects[p].center().x();
                        edge = std::max(edge, out.rects[p].bottom());
                        ++cnt;
                    }
                if (cnt) {
                    want = QPointF(sx / cnt, edge + 36 + s.height() / 2);
                    return true;
                }
                edge = 1e18;
                for (int c : succ[i])
                    if (counts(c)) {
                        sx += out.rects[c].center().x();
                        edge = std::min(edge, out.rects[c].top());
                        ++cnt;
                    }
                if (cnt) want = QPointF(sx / cnt, edge - 36 - s.height() / 2);
                return cnt > 0;
            };
            have = beside(true) || ((parent < 0 || !mayDefer) && beside(false));
        }
        if (!have && mayDefer) return false;
        res.hinted += hinted;
        if (!hinted && vg.nodes[i].parent >= 0 && !hints.near.count(key)) loose[i] = 1;
        if (!have) want = QPointF(bounds.isNull() ? 0 : bounds.right() + 40 + s.width() / 2, bounds.isNull() ? 0 : bounds.top() + s.height() / 2);
        QRectF r(want.x() - s.width() / 2, want.y() - s.height() / 2, s.width(), s.height());
        // Step sideways, alternating right and left, until the spot is free.
        for (int t = 1; t < 80 && !spotFree(r, i); ++t) {
            const double dx = ((t + 1) / 2) * (s.width() * 0.5 + 12) * (t % 2 ? 1 : -1);
            r.moveCenter(QPointF(want.x() + dx, want.y()));
        }
        out.rects[i] = r;
        known[i] = 1;
        occ.add(r, i);
        bounds = bounds.united(r);
        ++res.placed;
        return true;
    };
    std::vector<int> deferred;
    for (int i : order)
        if (!known[i] && vg.nodes[i].kind != VNode::Kind::Cluster && !place(i, true)) deferred.push_back(i);
    // Successors first, so each goes above what it feeds.
    for (auto it = deferred.rbegin(); it != deferred.rend(); ++it) place(*it, false);
    // One such node among placed neighbours (a placeholder a merged loop renumbered,
    // a constant's marker) goes beside them; two of them side by side mean the body
    // was drawn anew, and deserves a fresh layout.
    for (const VEdge& e : vg.edges)
        if (loose[e.from] && loose[e.to] && vg.nodes[e.from].parent == vg.nodes[e.to].parent) res.needsFullLayout = true;
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
            if (const QRectF* r = cache.rect(vg.nodes[c].keyId)) box = *r;
            else box = QRectF(bounds.right() + 40, bounds.top(), vg.nodes[c].size.width(), vg.nodes[c].size.height());
            out.rects[c] = box;
        } else {
            QRectF frame = box.adjusted(-kClusterMargin, -clusterHeader(vg.nodes[c]), kClusterMargin, kClusterMargin);
            // Never narrower than its title: widened to the right, or to the left or
            // both ways when that covers a box outside it.
            if (const double extra = vg.nodes[c].size.width() - frame.width(); extra > 0) {
                auto coversOther = [&](const QRectF& f) {
                    for (int k = 0; k < n; ++k)
                        if (vg.nodes[k].kind != VNode::Kind::Cluster && !out.rects[k].isNull() && !insideOf(k, c) && f.intersects(out.rects[k])) return true;
                    return false;
                };
                QRectF widened = frame.adjusted(0, 0, extra, 0);
                for (double left : {extra, extra / 2})
                    if (coversOther(widened)) widened = frame.adjusted(-left, 0, extra - left, 0);
                frame = widened;
            }
            // Never smaller than it was: the space it held was kept free of new nodes.
            if (const QRectF* r = cache.rect(vg.nodes[c].keyId)) frame = frame.united(*r);
            out.rects[c] = frame;
        }
    }
    // A box drawn inside a frame it does not belong to would read as part of that
    // body, and two boxes on top of each other hide one: either is a lie.
    for (int c : clusters) {
        if (res.needsFullLayout) break;
        for (int k = 0; k < n && !res.needsFullLayout; ++k) {
            if (k == c) continue;
            int p = vg.nodes[k].parent;
            while (p >= 0 && p != c) p = vg.nodes[p].parent;
            if (p == c) continue;
            // A frame around this one is fine.
            int q = vg.nodes[c].parent;
            while (q >= 0 && q != k) q = vg.nodes[q].parent;
            if (q == k) continue;
            if (out.rects[c].intersects(out.rects[k])) res.needsFullLayout = true;
        }
    }
    if (!res.needsFullLayout) {
        Occupancy siblings(n);
        for (int i = 0; i < n && !res.needsFullLayout; ++i) {
            if (vg.nodes[i].kind == VNode::Kind::Cluster) continue;
            const QRectF r = out.rects[i].adjusted(1, 1, -1, -1);
            if (!siblings.free(r, -1, 0)) res.needsFullLayout = true;
            siblings.add(out.rects[i], i);
        }
    }
    out.paths.resize(vg.edges.size());
    for (size_t e = 0; e < vg.edges.size(); ++e) {
        const VEdge& ve = vg.edges[e];
        const QRectF& a = out.rects[ve.from];
        const QRectF& b = out.rects[ve.to];
        // Keep dot's route between siblings when neither end moved; links across
        // frames follow the frames, which may have grown.
        const QRectF* ca = cache.rect(vg.nodes[ve.from].keyId);
        const QRectF* cb = cache.rect(vg.nodes[ve.to].keyId);
        if (vg.nodes[ve.from].parent == vg.nodes[ve.to].parent && ca && cb && *ca == a && *cb == b)
            if (const QPainterPath* p = cache.path(edgeKeyId(ve))) {
                // Only a route that still starts and ends on these boxes (the cache
                // may hold one from a picture where an end stood elsewhere).
                if (!p->isEmpty() && a.adjusted(-4, -4, 4, 4).contains(p->elementAt(0)) && b.adjusted(-4, -4, 4, 4).contains(p->currentPosition())) {
                    out.paths[e] = *p;
                    continue;
                }
            }
        out.paths[e] = routeEdge(vg, out.rects, ve);
    }
    for (const QRectF& r : out.rects) bounds = bounds.united(r);
    out.bounds = bounds;
    out.ok = true;
    return res;
}

} // namespace tl
