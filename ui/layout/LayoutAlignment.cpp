// A fresh layout turned to match the picture it replaces: Graphviz may draw the
// same graph mirrored (x_init left, then right) or shifted after a small change,
// so the nodes both pictures show are compared and the new layout is mirrored
// where that keeps them closer, level by level (each body inside its frame), and
// moved so they stay where the user saw them.
#include "layout/GraphLayout.h"

#include <QTransform>

#include <algorithm>

namespace tl {

namespace {

struct Pairs {
    std::vector<double> now, was;  // x of the same nodes, new and old
    double dy = 0;                 // mean y shift old - new
    int count = 0;
};

// Whether mirroring `now` about `axis` brings it closer to `was` (least squares with a free shift).
bool mirrorHelps(const Pairs& p, double axisNow, double axisWas) {
    if (p.count < 2) return false;
    double plain = 0, mirrored = 0, meanPlain = 0, meanMirrored = 0;
    for (int i = 0; i < p.count; ++i) {
        meanPlain += (p.was[i] - axisWas) - (p.now[i] - axisNow);
        meanMirrored += (p.was[i] - axisWas) + (p.now[i] - axisNow);
    }
    meanPlain /= p.count;
    meanMirrored /= p.count;
    for (int i = 0; i < p.count; ++i) {
        const double a = (p.was[i] - axisWas) - (p.now[i] - axisNow) - meanPlain;
        const double b = (p.was[i] - axisWas) + (p.now[i] - axisNow) - meanMirrored;
        plain += a * a;
        mirrored += b * b;
    }
    return mirrored + 1.0 < plain * 0.6;
}

} // namespace

int alignToPicture(const VisualGraph& vg, GraphLayout& layout, const PositionCache& picture) {
    const int n = static_cast<int>(vg.nodes.size());
    if (n == 0 || picture.size() == 0) return 0;
    std::vector<QTransform> moved(n);  // what happened to each node's rect (and its routes)
    std::vector<std::vector<int>> children(n + 1);
    for (int i = 0; i < n; ++i) children[vg.nodes[i].parent + 1].push_back(i);
    int mirrors = 0;
    // Every node below `level` (-1: all), deepest included.
    auto subtree = [&](int level) {
        std::vector<int> out, stack{level};
        while (!stack.empty()) {
            const int c = stack.back();
            stack.pop_back();
            for (int k : children[c + 1]) {
                out.push_back(k);
                if (vg.nodes[k].kind == VNode::Kind::Cluster) stack.push_back(k);
            }
        }
        return out;
    };
    auto apply = [&](const std::vector<int>& nodes, const QTransform& t) {
        for (int k : nodes) {
            layout.rects[k] = t.mapRect(layout.rects[k]);
            moved[k] = moved[k] * t;
        }
    };
    // Top-down: the top level first, then each body relative to its frame.
    std::vector<int> levels{-1};
    for (size_t h = 0; h < levels.size(); ++h)
        for (int k : children[levels[h] + 1])
            if (vg.nodes[k].kind == VNode::Kind::Cluster) levels.push_back(k);
    for (int level : levels) {
        Pairs p;
        double sumDx = 0;
        for (int k : children[level + 1]) {
            const QRectF* old = picture.rect(vg.nodes[k].keyId);
            if (!old) continue;
            p.now.push_back(layout.rects[k].center().x());
            p.was.push_back(old->center().x());
            p.dy += old->center().y() - layout.rects[k].center().y();
            sumDx += old->center().x() - layout.rects[k].center().x();
            ++p.count;
        }
        if (p.count == 0) continue;
        const std::vector<int> below = subtree(level);
        if (level < 0) {
            double axis = 0;
            for (double x : p.now) axis += x;
            axis /= p.count;
            double axisWas = 0;
            for (double x : p.was) axisWas += x;
            axisWas /= p.count;
            if (mirrorHelps(p, axis, axisWas)) {
                apply(below, QTransform(-1, 0, 0, 1, 2 * axis, 0));
                ++mirrors;
                sumDx = 0;
                for (int i = 0; i < p.count; ++i) sumDx += p.was[i] - (2 * axis - p.now[i]);
            }
            // Where the user saw them: the mean shift of the nodes both pictures hold.
            apply(below, QTransform::fromTranslate(sumDx / p.count, p.dy / p.count));
            continue;
        }
        const QRectF* oldFrame = picture.rect(vg.nodes[level].keyId);
        if (!oldFrame) continue;
        const double axis = layout.rects[level].center().x();
        // The body's nodes measured from the frame's middle, before and now.
        if (mirrorHelps(p, axis, oldFrame->center().x())) {
            // Only the nodes inside the frame: the frame itself stays.
            apply(below, QTransform(-1, 0, 0, 1, 2 * axis, 0));
            ++mirrors;
        }
    }
    // Routes: a path drawn between two nodes moved alike moves with them; any
    // other is drawn again between the boxes where they are now.
    for (size_t e = 0; e < vg.edges.size() && e < layout.paths.size(); ++e) {
        const VEdge& ve = vg.edges[e];
        if (moved[ve.from] == moved[ve.to] && vg.nodes[ve.from].parent == vg.nodes[ve.to].parent) layout.paths[e] = moved[ve.from].map(layout.paths[e]);
        else layout.paths[e] = routeEdge(vg, layout.rects, ve);
    }
    QRectF bounds;
    for (const QRectF& r : layout.rects) bounds = bounds.united(r);
    layout.bounds = bounds;
    return mirrors;
}

} // namespace tl
