#pragma once
// Rects on a coarse grid, to ask "is this spot free?" in constant time per
// neighbour: placing thousands of labels and badges must not be quadratic.
#include <QRectF>

#include <cmath>
#include <unordered_map>
#include <vector>

namespace tl {

class RectGrid {
public:
    void add(const QRectF& r) {
        const int id = static_cast<int>(m_rects.size());
        m_rects.push_back(r);
        forCells(r, [&](long long k) { m_cells[k].push_back(id); });
    }
    /// No rect added so far intersects `r`.
    bool free(const QRectF& r) const {
        bool ok = true;
        forCells(r, [&](long long k) {
            if (!ok) return;
            auto it = m_cells.find(k);
            if (it == m_cells.end()) return;
            for (int id : it->second)
                if (m_rects[id].intersects(r)) {
                    ok = false;
                    return;
                }
        });
        return ok;
    }

private:
    template <typename F> void forCells(const QRectF& r, F&& f) const {
        const long long x0 = static_cast<long long>(std::floor(r.left() / kCell)), x1 = static_cast<long long>(std::floor(r.right() / kCell));
        const long long y0 = static_cast<long long>(std::floor(r.top() / kCell)), y1 = static_cast<long long>(std::floor(r.bottom() / kCell));
        for (long long x = x0; x <= x1; ++x)
            for (long long y = y0; y <= y1; ++y) f((x << 32) ^ (y & 0xffffffffLL));
    }
    static constexpr double kCell = 120.0;
    std::unordered_map<long long, std::vector<int>> m_cells;
    std::vector<QRectF> m_rects;
};

} // namespace tl
