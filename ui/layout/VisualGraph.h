#pragma once
// What the canvas draws, before positions: boxes for ops, small ellipses for
// inputs and constants (one per use, so no long edges fan out of them), graph
// output markers, collapsed or expanded Scan clusters and collapsed
// elementwise chains. Built on the GUI thread from a Graph and the view's
// expansion state; laid out on a worker (LayoutEngine).
#include "ir/Graph.h"
#include "trace/GraphFacts.h"

#include <QSizeF>

class QFont;

#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace tl {

struct VNode {
    enum class Kind : uint8_t { Op, Input, Constant, Output, Chain, Cluster, InnerInput, InnerOutput, Ghost };
    Kind kind = Kind::Op;
    /// Stable across steps: "n17" (node 17), "n4/n2" (node 2 of the body of Scan 4),
    /// "v5@n17#0" (variable 5 as input 0 of node 17), "out0", "chain12", "n4/in1".
    std::string key;
    NodeId node = -1;      // engine node (Op, Cluster, Ghost; first node of a Chain)
    VarId var = -1;        // Input, Constant, Output, InnerInput, InnerOutput
    std::string title;     // "Scan{scan_fn, while_loop=False, inplace=all}"
    std::string subtitle;  // "[id 17]" / "float64 (7,)" / "sit_sot-0"
    OpFamily family = OpFamily::Other;
    QSizeF size;           // points
    int parent = -1;       // index of the enclosing Cluster node, -1 at top level
    std::vector<NodeId> members;  // Chain: the nodes it stands for, in order
};

struct VEdge {
    int from = -1, to = -1;  // indices into VisualGraph::nodes
    VarId var = -1;
    int toInput = -1;        // input index at `to` (op nodes)
    std::string label;       // "float64 (?, 7)"
    std::string link;        // inner<->outer category ("sit_sot-0"); empty for plain edges
    std::string key() const;
};

/// A step erasing more nodes than this (and not replacing them one for one) draws
/// them as one summary ghost.
inline constexpr size_t kMaxGhostBoxes = 40;

/// What is expanded; kept by the view across steps.
struct ExpansionState {
    std::set<std::string> expanded;   // cluster / chain keys the user opened
    std::set<std::string> collapsed;  // keys the user closed (overrides auto-expansion)
    /// Scans whose body has at most this many nodes start expanded (when the graph is small).
    int autoExpandBodyNodes = 40;
    /// ... and only when the outer graph has at most this many nodes.
    int autoExpandGraphNodes = 400;
    /// Elementwise chains at least this long start collapsed.
    int collapseChainLength = 6;
    /// Show Composite bodies as clusters when expanded.
    bool allowCompositeBodies = true;
};

class VisualGraph {
public:
    std::vector<VNode> nodes;
    std::vector<VEdge> edges;

    int indexOf(const std::string& key) const;
    /// The visual node standing for engine node `id` at top level (op, cluster or the chain holding it), or -1.
    int indexOfNode(NodeId id) const;
    /// Children of cluster `c` (-1: top level).
    std::vector<int> childrenOf(int c) const;
    /// Depth of nesting (0 top level).
    int depth(int i) const;
    /// The ancestor of `i` whose parent is `level` (or i itself); -1 if i is not inside level.
    int ancestorAt(int i, int level) const;
    void index();  // rebuilds the key maps after edits

    std::unordered_map<std::string, int> m_byKey;
    std::unordered_map<NodeId, int> m_byNode;
};

/// The canvas fonts; measureBox and the scene items agree on them.
const QFont& canvasTitleFont();
const QFont& canvasSmallFont();

/// Size of a box holding these lines of text in the canvas font (GUI thread).
QSizeF measureBox(const std::string& title, const std::string& subtitle, bool ellipse);

/// Builds the visual graph of `g`. With the diff of the step shown, the nodes it
/// erased are added as Ghost nodes, wired to what is left of their inputs, to
/// each other, and to the nodes that read them before the step, so a full
/// layout puts them where they were.
VisualGraph buildVisualGraph(const Graph& g, const ExpansionState& expansion, const struct StepDiff* diff = nullptr);

} // namespace tl
