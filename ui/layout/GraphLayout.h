#pragma once
// Positions for a whole VisualGraph. Laid out by parts: every expanded
// cluster body first (deepest first), each then a fixed-size box one level up,
// and the top level split into connected components. Small parts go to dot,
// big ones to the layered layout. Stepping reuses remembered positions
// (layoutIncrementally) so unchanged nodes do not move.
#include "layout/PartLayout.h"
#include "layout/VisualGraph.h"

#include <QRectF>

#include <algorithm>
#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tl {

struct GraphLayout {
    std::vector<QRectF> rects;        // per VisualGraph node, scene coordinates
    std::vector<QPainterPath> paths;  // per VisualGraph edge, ending at the arrow tip
    QRectF bounds;
    bool ok = false;
    int dotParts = 0, layeredParts = 0;  // how the parts were laid out (status bar, bench)
};

struct LayoutSettings {
    enum class Method : uint8_t { Auto, Dot, Layered };
    Method method = Method::Auto;
    /// Auto: parts up to this many nodes go to dot (a few hundred ms at most).
    int dotMaxNodes = 160;
};

/// Cluster boxes: room for the header line, a gap under it where the category
/// labels of the links entering the body sit (EdgeItem), and a margin around the body.
inline constexpr double kClusterHeader = 40.0;
inline constexpr double kClusterMargin = 10.0;

/// The header height of a frame: its wrapped title and the link labels under it.
double clusterHeader(const VNode& cluster);

/// The path of edge `e` for boxes at `rects`: a vertical curve between siblings,
/// and for links into or out of a body a straight drop through each frame it
/// crosses, so it enters its own placeholder and leaves its own output marker.
QPainterPath routeEdge(const VisualGraph& vg, const std::vector<QRectF>& rects, const VEdge& e);

using LayoutProgress = std::function<void(int done, int total)>;

/// Full layout. Checks `cancel` between parts (a single dot call is not interruptible,
/// which is why parts are kept small); returns ok=false when cancelled.
GraphLayout layoutVisualGraph(const VisualGraph& vg, const LayoutSettings& settings,
                              const std::atomic<bool>* cancel = nullptr, const LayoutProgress& progress = {});

/// "fromKey>toKey@var": the edge's identity across steps, spelt out (messages, tests).
std::string edgeKey(const VisualGraph& vg, const VEdge& e);

/// The interned key of an edge (VEdge::keyId); throws when the picture was not indexed.
int edgeKeyId(const VEdge& e);

/// Where things were last drawn, by key (keyIdOf: arrays, not hash maps, since
/// every step looks up every box and route). Never forgets (ghosts of erased
/// nodes reappear where the node was).
class PositionCache {
public:
    void remember(const VisualGraph& vg, const GraphLayout& layout);
    void setRect(int keyId, const QRectF& r);
    void setPath(int keyId, const QPainterPath& p);
    void eraseRect(int keyId);
    void erasePath(int keyId);
    const QRectF* rect(int keyId) const {
        return keyId >= 0 && static_cast<size_t>(keyId) < m_hasRect.size() && m_hasRect[keyId] ? &m_rects[keyId] : nullptr;
    }
    const QPainterPath* path(int keyId) const {
        return keyId >= 0 && static_cast<size_t>(keyId) < m_hasPath.size() && m_hasPath[keyId] ? &m_paths[keyId] : nullptr;
    }
    // Boxes by key text (hints, tests): the same entries.
    void setRect(const std::string& key, const QRectF& r) { setRect(keyIdOf(key), r); }
    const QRectF* rect(const std::string& key) const { return rect(findKeyId(key)); }
    void clear();
    /// Nodes with a rect.
    size_t size() const { return m_rectCount; }

private:
    std::vector<QRectF> m_rects;
    std::vector<char> m_hasRect;
    std::vector<QPainterPath> m_paths;
    std::vector<char> m_hasPath;
    size_t m_rectCount = 0;
};

/// Turns a fresh `layout` of `vg` to match `picture` (what was on screen): each
/// level is mirrored where that keeps the nodes both show closer to where they
/// were (Graphviz may flip a graph after a small change), and the whole is moved
/// so those nodes stay in place. Returns how many levels were mirrored.
int alignToPicture(const VisualGraph& vg, GraphLayout& layout, const PositionCache& picture);

struct IncrementalLayout {
    GraphLayout layout;
    int reused = 0;  // nodes kept where they were
    int placed = 0;  // nodes new to the cache, put at a hint or next to their neighbours
    int hinted = 0;  // of those, put where the node they stand for was
    /// Nodes inside expanded bodies that had neither a remembered position nor a
    /// hint, or a node overlapping a body frame it is not part of: the picture
    /// would be misleading, lay it out again instead.
    bool needsFullLayout = false;

    /// Whether the window shows this layout rather than laying the graph out again:
    /// not when it would mislead, nor when the step redrew much of the picture
    /// (more than a tenth placed anew, or more placed than kept: then there is
    /// little to keep stable and a fresh layout reads better).
    bool keepsPositions(int visualNodes) const {
        const int fresh = placed - hinted;
        return !needsFullLayout && fresh <= std::max(8, visualNodes / 10) && reused + hinted >= fresh;
    }
};

/// Where new keys should start: `exact[newKey] = oldKey`, and key prefixes
/// (`"n18/" -> "n13/"`: the body of a rebuilt Scan where the old body was).
struct PlacementHints {
    std::unordered_map<std::string, std::string> exact;
    std::vector<std::pair<std::string, std::string>> prefixes;
    /// Body nodes the step added: placed next to their neighbours without a full layout.
    std::unordered_map<std::string, bool> near;
};

/// Hints for the step `diff` leads to: each replacement (StepDiff::replacedBy)
/// starts where the node it replaces was, a rebuilt Scan's body where the old body
/// was, and with the step's body changes, body nodes where the node they stand for was.
PlacementHints placementHints(const struct StepDiff* diff, const StepChanges* changes = nullptr);
/// Hints for going back over the step `diff` describes (from its picture to the one
/// before it): a replaced node reappears where its replacement is, an erased body
/// node where its ghost is.
PlacementHints placementHintsBack(const struct StepDiff* diff, const StepChanges* changes = nullptr);

/// Keeps every remembered node where it was and places new ones at their hint's
/// old position, or else next to their neighbours.
IncrementalLayout layoutIncrementally(const VisualGraph& vg, const PositionCache& cache, const PlacementHints& hints = {});

} // namespace tl
