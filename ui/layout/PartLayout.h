#pragma once
// Laying out one part of the canvas (a cluster body, a connected component):
// boxes of given sizes, directed edges, top to bottom. Two engines: Graphviz
// `dot` in-process (good drawings, slow on big parts) and a layered
// longest-path layout (linear time, for what dot cannot do in time).
#include <QPainterPath>
#include <QPointF>
#include <QSizeF>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

namespace tl {

struct PartInput {
    std::vector<QSizeF> sizes;                 // points
    std::vector<std::pair<int, int>> edges;    // (from, to) indices into sizes
    /// Per node (or empty): -1 on the top row, +1 on the bottom row, 0 anywhere.
    std::vector<int8_t> pins;
};

struct PartOutput {
    std::vector<QPointF> centers;      // per node, origin at the part's top-left, y down
    std::vector<QPainterPath> paths;   // per edge, ending at the arrow tip
    QSizeF size;                       // extent of the part
    bool ok = false;                   // false when cancelled or Graphviz failed
};

/// The one lock around every Graphviz call: libgvc/cgraph keep global state
/// and are not thread-safe (KGraphViewer does the same).
std::mutex& graphvizMutex();

/// Graphviz `dot` through libgvc (no subprocess). Holds graphvizMutex while it
/// runs; returns ok=false when `cancel` was set before it started.
PartOutput layoutWithDot(const PartInput& in, const std::atomic<bool>* cancel = nullptr);

/// Layered layout: longest-path ranks (sources pulled down next to their first
/// reader), barycenter ordering sweeps, median-ish x placement; O((V + E) * sweeps).
PartOutput layoutLayered(const PartInput& in);

/// A vertical cubic from the bottom of one box to the top of another.
QPainterPath verticalBezier(QPointF from, QPointF to);

} // namespace tl
