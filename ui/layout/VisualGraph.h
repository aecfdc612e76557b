#pragma once
// What the canvas draws, before positions: boxes for ops, small ellipses for
// inputs and constants (one per use, so no long edges fan out of them), graph
// output markers, collapsed or expanded Scan clusters and collapsed
// elementwise chains. Built on the GUI thread from a Graph and the view's
// expansion state; laid out on a worker (LayoutEngine).
#include "ir/Graph.h"
#include "model/InnerGraphDiff.h"
#include "model/NodeRef.h"
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
    int keyId = -1;        // keyIdOf(key), set by VisualGraph::index()
    NodeId node = -1;      // engine node (Op, Cluster, Ghost; first node of a Chain), in the graph holding it
    /// The node by path from the outer graph (Op, Cluster, Ghost, Chain: its first
    /// member); a body node's `node` alone is an id of the body, not of the graph.
    NodeRef ref;
    VarId var = -1;        // Input, Constant, Output, InnerInput, InnerOutput
    std::string title;     // "Scan{scan_fn, while_loop=False, inplace=all}" (boxes: cut to fit)
    std::string subtitle;  // "[id 17]" / "float64 (7,)" / "sit_sot-0"
    std::string tooltip;   // the whole text, where the title was cut
    OpFamily family = OpFamily::Other;
    QSizeF size;           // points
    int parent = -1;       // index of the enclosing Cluster node, -1 at top level
    std::vector<NodeId> members;  // Chain: the nodes it stands for, in order
    /// Cluster: the header's lines (the title wrapped to the frame) and their height.
    std::vector<std::string> headerLines;
    double header = 0;
    /// Inside a body: body inputs (placeholders) on the top row, outputs on the bottom
    /// row, so links enter and leave the frame straight (-1 top, +1 bottom, 0 free).
    int8_t rankPin = 0;
};

struct VEdge {
    int from = -1, to = -1;  // indices into VisualGraph::nodes
    VarId var = -1;
    int toInput = -1;        // input index at `to` (op nodes)
    std::string label;       // "float64 (?, 7)"
    std::string link;        // inner<->outer category ("sit_sot-0"); empty for plain edges
    /// The same edge's id in every step (edgeKeyIdOf its ends' keys and variable),
    /// set by VisualGraph::index(); edgeKey() spells it out.
    int keyId = -1;
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
    /// The visual node standing for `ref` at any depth (its box, its frame, or the
    /// collapsed chain holding it), or -1 when it is not drawn (inside a collapsed body).
    int indexOfRef(const NodeRef& ref) const;
    /// The drawn node standing for `ref`: itself, or the nearest enclosing node drawn
    /// (the collapsed Scan whose body holds it); -1 when none.
    int indexOfRefOrOwner(const NodeRef& ref) const;
    /// Children of cluster `c` (-1: top level).
    std::vector<int> childrenOf(int c) const;
    /// Depth of nesting (0 top level).
    int depth(int i) const;
    /// The ancestor of `i` whose parent is `level` (or i itself); -1 if i is not inside level.
    int ancestorAt(int i, int level) const;
    void index();  // rebuilds the key maps (and the edges' stable keys) after edits

    std::unordered_map<std::string, int> m_byKey;
    std::unordered_map<NodeId, int> m_byNode;
    std::unordered_map<std::string, int> m_byRef;  // NodeRef::key() -> index, chain members included
};

/// Picture keys (node keys, edge keys) as small integers, the same for the same
/// key in every picture of the process: position caches and the layout history
/// index arrays with them instead of hashing strings on every step. Ids are dense
/// from 0 and never reused; any thread.
int keyIdOf(const std::string& key);
/// The id `key` was given, or -1 when it never was (no picture holds it).
int findKeyId(const std::string& key);
/// Edges likewise, by the key ids of their ends and their variable (`rank` tells
/// apart the same variable read twice by one node, x + x); ids of their own.
int edgeKeyIdOf(int fromKeyId, int toKeyId, VarId var, int rank = 0);

/// The canvas fonts; measureBox and the scene items agree on them.
const QFont& canvasTitleFont();
const QFont& canvasSmallFont();

/// Size of a box holding these lines of text in the canvas font (GUI thread).
QSizeF measureBox(const std::string& title, const std::string& subtitle, bool ellipse);

/// Under a frame's title: room for the category labels of the links entering the body.
inline constexpr double kLinkLabelRoom = 20.0;

/// A frame's header wraps at this width (the title of 80 merged loops is long).
inline constexpr double kClusterHeaderWrap = 560.0;

/// Builds the visual graph of `g`. With the diff of the step shown, the nodes it
/// erased are added as Ghost nodes, wired to what is left of their inputs, to
/// each other, and to the nodes that read them before the step, so a full
/// layout puts them where they were; with its body changes, the same inside
/// every expanded body. `notes` (outer node id -> text) go under the node's id.
VisualGraph buildVisualGraph(const Graph& g, const ExpansionState& expansion, const struct StepDiff* diff = nullptr,
                             const StepChanges* changes = nullptr, const NodeNotes* notes = nullptr);

} // namespace tl
