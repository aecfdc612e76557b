#include "layout/GraphLayout.h"

#include "trace/StepDiff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>

namespace tl {

std::string edgeKey(const VisualGraph& vg, const VEdge& e) {
    return vg.nodes[e.from].key + ">" + vg.nodes[e.to].key + "@" + std::to_string(e.var);
}

int edgeKeyId(const VEdge& e) {
    if (e.keyId < 0) throw std::logic_error("edge keys are set by VisualGraph::index()");
    return e.keyId;
}

double clusterHeader(const VNode& cluster) { return cluster.header > 0 ? cluster.header : kClusterHeader; }

namespace {

// Where a link crosses a frame between `at` (the point on its own box) and the
// frame's edge at `edgeY`: straight at `at.x()` when no other box of the body
// stands in that column (the usual case: placeholders sit side by side), else a
// free column beside the boxes in the way, joined to `at` in the gap next to it.
struct Drop {
    double x;
    double joinY;
};

Drop dropBeside(const VisualGraph& vg, const std::vector<QRectF>& rects, const VEdge& e, int frame, QPointF at, double edgeY) {
    const double lo = std::min(at.y(), edgeY), hi = std::max(at.y(), edgeY);
    const QRectF& box = rects[frame];
    auto inFrame = [&](int o) {
        for (int p = vg.nodes[o].parent; p >= 0; p = vg.nodes[p].parent)
            if (p == frame) return true;
        return false;
    };
    auto isObstacle = [&](int o) {
        return o != e.from && o != e.to && vg.nodes[o].kind != VNode::Kind::Cluster && inFrame(o);
    };
    auto blocked = [&](const QRectF& r) {
        for (size_t o = 0; o < rects.size(); ++o)
            if (rects[o].intersects(r) && isObstacle(static_cast<int>(o))) return true;
        return false;
    };
    auto column = [](double x, double y0, double y1) { return QRectF(x - 3, y0, 6, std::max(0.0, y1 - y0)); };
    if (!blocked(column(at.x(), lo, hi))) return {at.x(), at.y()};
    const bool down = edgeY > at.y();
    double nearest = down ? hi : lo;  // the box in the way closest to `at`
    for (size_t o = 0; o < rects.size(); ++o)
        if (rects[o].intersects(column(at.x(), lo, hi)) && isObstacle(static_cast<int>(o)))
            nearest = down ? std::min(nearest, rects[o].top()) : std::max(nearest, rects[o].bottom());
    // Columns near its own first, then the frame's margins, which no child reaches;
    // turning halfway to that box, or right next to its own (the rank between
    // may hold other boxes).
    std::vector<double> xs;
    for (int k = 1; k < 80; ++k) xs.push_back(at.x() + ((k + 1) / 2) * 8.0 * (k % 2 ? 1 : -1));
    xs.push_back(box.right() - kClusterMargin / 2);
    xs.push_back(box.left() + kClusterMargin / 2);
    const double gap = std::abs(nearest - at.y());
    for (double join : {(nearest + at.y()) / 2, at.y() + (down ? 1 : -1) * std::min(10.0, gap / 3)})
        for (double x : xs) {
            if (x < box.left() + 4 || x > box.right() - 4) continue;
            const QRectF bend(QPointF(std::min(x, at.x()) - 3, std::min(join, at.y())), QPointF(std::max(x, at.x()) + 3, std::max(join, at.y())));
            if (!blocked(down ? column(x, join, hi) : column(x, lo, join)) && !blocked(bend)) return {x, join};
        }
    return {at.x(), at.y()};
}

// An S-bend from `a` to `b`, leaving and arriving vertically.
void bendTo(QPainterPath& path, QPointF a, QPointF b) {
    if (a == b) return;
    const double mid = (a.y() + b.y()) / 2;
    path.cubicTo(QPointF(a.x(), mid), QPointF(b.x(), mid), b);
}

} // namespace

QPainterPath routeEdge(const VisualGraph& vg, const std::vector<QRectF>& rects, const VEdge& e) {
    const QRectF& a = rects[e.from];
    const QRectF& b = rects[e.to];
    // The frames the edge leaves (around `from`, not around `to`) and enters.
    auto frames = [&](int inside, int other) {
        std::vector<int> out;
        for (int p = vg.nodes[inside].parent; p >= 0; p = vg.nodes[p].parent) {
            bool common = false;
            for (int q = vg.nodes[other].parent; q >= 0 && !common; q = vg.nodes[q].parent) common = q == p;
            if (common) break;
            out.push_back(p);  // innermost first
        }
        return out;
    };
    const std::vector<int> leaving = frames(e.from, e.to), entering = frames(e.to, e.from);
    QPointF start(a.center().x(), a.bottom());
    QPointF end(b.center().x(), b.top());
    if (leaving.empty() && entering.empty()) return verticalBezier(start, end);
    // Straight down out of each frame left, a curve between the frames, straight
    // down into each frame entered: a link reaches its own placeholder (and leaves
    // its own output marker) without crossing its neighbours.
    QPainterPath path(start);
    QPointF cur = start;
    if (!leaving.empty()) {
        const double y = rects[leaving.back()].bottom() + 4;
        if (y > cur.y()) {
            const Drop d = dropBeside(vg, rects, e, leaving.back(), start, y);
            cur = QPointF(d.x, d.joinY);
            bendTo(path, start, cur);
            cur = QPointF(d.x, y);
            path.lineTo(cur);
        }
    }
    QPointF target = end, join = end;
    if (!entering.empty()) {
        const double y = rects[entering.back()].top() - 4;
        if (y < end.y()) {
            const Drop d = dropBeside(vg, rects, e, entering.back(), end, y);
            target = QPointF(d.x, y);
            join = QPointF(d.x, d.joinY);
        }
    }
    if (target.y() > cur.y()) {
        const double dy = std::max(20.0, (target.y() - cur.y()) * 0.45);
        path.cubicTo(cur + QPointF(0, dy), target - QPointF(0, dy), target);
    } else {
        path.lineTo(target);
    }
    if (join != target) path.lineTo(join);
    bendTo(path, join, end);
    return path;
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
            parts[comp[k]].pins.push_back(vg.nodes[R.children[k]].rankPin);
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
                                 R.size.height() + clusterHeader(vg.nodes[level]) + kClusterMargin);
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
                origin[c + 1] = QPointF(center.x() - inner.width() / 2, out.rects[c].top() + clusterHeader(vg.nodes[c]));
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
        out.paths[e] = routeEdge(vg, out.rects, ve);
    }
    QRectF bounds;
    for (const QRectF& r : out.rects) bounds = bounds.united(r);
    out.bounds = bounds;
    out.ok = true;
    return out;
}

} // namespace tl
