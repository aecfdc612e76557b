// The fast fallback layout. dot spends its time on crossing minimisation with
// virtual nodes for long edges (quadratic on PyTensor-style graphs); here long
// edges are just curves and ordering is a few barycenter sweeps, so a
// 5,000-node part takes milliseconds.
#include "layout/PartLayout.h"

#include <algorithm>
#include <numeric>

namespace tl {

QPainterPath verticalBezier(QPointF from, QPointF to) {
    QPainterPath p(from);
    const double dy = std::max(20.0, std::abs(to.y() - from.y()) * 0.45);
    p.cubicTo(from + QPointF(0, dy), to - QPointF(0, dy), to);
    return p;
}

namespace {
constexpr double kNodeSep = 22.0;
constexpr double kRankSep = 36.0;
constexpr double kMargin = 4.0;
} // namespace

PartOutput layoutLayered(const PartInput& in) {
    PartOutput out;
    const int n = static_cast<int>(in.sizes.size());
    std::vector<std::vector<int>> succ(n), pred(n);
    for (auto [a, b] : in.edges) {
        if (a < 0 || b < 0 || a >= n || b >= n || a == b) continue;
        succ[a].push_back(b);
        pred[b].push_back(a);
    }
    // Kahn order; whatever a cycle leaves behind goes last (visual graphs are DAGs).
    std::vector<int> indeg(n), order;
    order.reserve(n);
    for (int v = 0; v < n; ++v) indeg[v] = static_cast<int>(pred[v].size());
    for (int v = 0; v < n; ++v)
        if (indeg[v] == 0) order.push_back(v);
    for (size_t h = 0; h < order.size(); ++h)
        for (int s : succ[order[h]])
            if (--indeg[s] == 0) order.push_back(s);
    std::vector<char> placed(n, 0);
    for (int v : order) placed[v] = 1;
    for (int v = 0; v < n; ++v)
        if (!placed[v]) order.push_back(v);

    std::vector<int> rank(n, 0);
    for (int v : order)
        for (int s : succ[v]) rank[s] = std::max(rank[s], rank[v] + 1);
    auto pin = [&](int v) { return v < static_cast<int>(in.pins.size()) ? in.pins[v] : int8_t(0); };
    // Sources (per-use inputs and constants mostly) sit just above their first reader,
    // except the pinned ones (a body's placeholders stay on its top row).
    for (int v = 0; v < n; ++v) {
        if (!pred[v].empty() || succ[v].empty() || pin(v) < 0) continue;
        int lowest = INT32_MAX;
        for (int s : succ[v]) lowest = std::min(lowest, rank[s]);
        rank[v] = std::max(0, lowest - 1);
    }
    int maxRank = 0;
    for (int v = 0; v < n; ++v) maxRank = std::max(maxRank, rank[v]);
    // A body's output markers share its bottom row (a new one below when another node is there).
    bool bottomPinned = false, othersAtBottom = false;
    for (int v = 0; v < n; ++v) {
        if (pin(v) > 0) bottomPinned = true;
        else if (rank[v] == maxRank) othersAtBottom = true;
    }
    if (bottomPinned) {
        const int bottomRank = othersAtBottom ? maxRank + 1 : maxRank;
        for (int v = 0; v < n; ++v)
            if (pin(v) > 0) rank[v] = bottomRank;
    }
    const int nRanks = n ? *std::max_element(rank.begin(), rank.end()) + 1 : 0;
    std::vector<std::vector<int>> layers(nRanks);
    for (int v : order) layers[rank[v]].push_back(v);

    std::vector<double> pos(n);  // position within its layer, for barycenters
    auto renumber = [&](std::vector<int>& layer) {
        for (size_t i = 0; i < layer.size(); ++i) pos[layer[i]] = static_cast<double>(i);
    };
    for (auto& layer : layers) renumber(layer);
    auto sweep = [&](bool down) {
        for (int r = 0; r < nRanks; ++r) {
            auto& layer = layers[down ? r : nRanks - 1 - r];
            std::vector<std::pair<double, int>> keyed;
            keyed.reserve(layer.size());
            for (int v : layer) {
                const auto& nb = down ? pred[v] : succ[v];
                double key = pos[v];
                if (!nb.empty()) {
                    double sum = 0;
                    for (int u : nb) sum += pos[u];
                    key = sum / nb.size();
                }
                keyed.emplace_back(key, v);
            }
            std::stable_sort(keyed.begin(), keyed.end(), [](auto& a, auto& b) { return a.first < b.first; });
            for (size_t i = 0; i < layer.size(); ++i) layer[i] = keyed[i].second;
            renumber(layer);
        }
    };
    for (int it = 0; it < 4; ++it) sweep(it % 2 == 0);

    // x: packed, then pulled toward the mean of neighbours above (down pass) and below (up pass).
    std::vector<double> x(n, 0.0);
    auto pack = [&](const std::vector<int>& layer, const std::vector<double>& want) {
        // Left-to-right keeps order and separation; right-to-left the same from the other side; average.
        const size_t m = layer.size();
        if (m == 0) return;
        std::vector<double> l(m), r(m);
        for (size_t i = 0; i < m; ++i) {
            const double w = in.sizes[layer[i]].width();
            l[i] = want[i];
            if (i) l[i] = std::max(l[i], l[i - 1] + (in.sizes[layer[i - 1]].width() + w) / 2 + kNodeSep);
        }
        for (size_t j = m; j-- > 0;) {
            const double w = in.sizes[layer[j]].width();
            r[j] = want[j];
            if (j + 1 < m) r[j] = std::min(r[j], r[j + 1] - (in.sizes[layer[j + 1]].width() + w) / 2 - kNodeSep);
        }
        for (size_t i = 0; i < m; ++i) x[layer[i]] = (l[i] + r[i]) / 2;
        // Averaging can break separation again: one more left-to-right pass repairs it.
        for (size_t i = 1; i < m; ++i) {
            const double minX = x[layer[i - 1]] + (in.sizes[layer[i - 1]].width() + in.sizes[layer[i]].width()) / 2 + kNodeSep;
            x[layer[i]] = std::max(x[layer[i]], minX);
        }
    };
    for (auto& layer : layers) {
        double cur = 0;
        for (int v : layer) {
            x[v] = cur + in.sizes[v].width() / 2;
            cur += in.sizes[v].width() + kNodeSep;
        }
    }
    for (int it = 0; it < 4; ++it) {
        const bool down = it % 2 == 0;
        for (int r = 0; r < nRanks; ++r) {
            auto& layer = layers[down ? r : nRanks - 1 - r];
            std::vector<double> want(layer.size());
            for (size_t i = 0; i < layer.size(); ++i) {
                const int v = layer[i];
                const auto& nb = down ? pred[v] : succ[v];
                if (nb.empty()) {
                    want[i] = x[v];
                    continue;
                }
                double sum = 0;
                for (int u : nb) sum += x[u];
                want[i] = sum / nb.size();
            }
            pack(layer, want);
        }
    }

    // y from rank heights; shift so everything starts at the margin.
    std::vector<double> rankTop(nRanks + 1, kMargin), rankHeight(nRanks, 0.0);
    for (int v = 0; v < n; ++v) rankHeight[rank[v]] = std::max(rankHeight[rank[v]], in.sizes[v].height());
    for (int r = 0; r < nRanks; ++r) rankTop[r + 1] = rankTop[r] + rankHeight[r] + kRankSep;
    double minX = 0, maxX = 0;
    bool first = true;
    for (int v = 0; v < n; ++v) {
        const double l = x[v] - in.sizes[v].width() / 2, r = x[v] + in.sizes[v].width() / 2;
        minX = first ? l : std::min(minX, l);
        maxX = first ? r : std::max(maxX, r);
        first = false;
    }
    out.centers.resize(n);
    for (int v = 0; v < n; ++v)
        out.centers[v] = QPointF(x[v] - minX + kMargin, rankTop[rank[v]] + rankHeight[rank[v]] / 2);
    out.paths.resize(in.edges.size());
    for (size_t k = 0; k < in.edges.size(); ++k) {
        auto [a, b] = in.edges[k];
        if (a < 0 || b < 0 || a >= n || b >= n || a == b) continue;
        out.paths[k] = verticalBezier(out.centers[a] + QPointF(0, in.sizes[a].height() / 2),
                                      out.centers[b] - QPointF(0, in.sizes[b].height() / 2));
    }
    out.size = QSizeF(maxX - minX + 2 * kMargin, n ? rankTop[nRanks] - kRankSep + kMargin : 0);
    out.ok = true;
    return out;
}

} // namespace tl
