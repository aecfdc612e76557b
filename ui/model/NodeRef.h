#pragma once
// Which node a view means: a path of node ids from the outer graph inward, so
// node 5 of the graph and node 5 of a Scan's body are never the same thing.
// {17} is outer node 17, {4, 2} node 2 of the body of node 4, {4, 2, 1} node 1
// of the body of that node (a Composite inside a Scan body).
#include "ir/Graph.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tl {

struct NodeRef {
    std::vector<NodeId> path;

    NodeRef() = default;
    explicit NodeRef(std::vector<NodeId> p) : path(std::move(p)) {}
    /// An outer node.
    static NodeRef outer(NodeId id) { return NodeRef({id}); }

    bool valid() const { return !path.empty(); }
    bool isOuter() const { return path.size() == 1; }
    /// The node's own id (in the graph that holds it).
    NodeId leaf() const { return path.empty() ? -1 : path.back(); }
    /// The outer node holding it (itself for an outer node).
    NodeId outerNode() const { return path.empty() ? -1 : path.front(); }
    /// The node whose body holds this one ({4} for {4, 2}); invalid for an outer node.
    NodeRef parent() const;
    /// A node of this node's body.
    NodeRef child(NodeId id) const;

    /// The canvas key of the node's box: "n17", "n4/n2".
    std::string key() const;
    /// Parses a key made by key() (also the key of a body placeholder's owner, "n4/in1" -> nullopt).
    static std::optional<NodeRef> fromKey(const std::string& key);
    /// "#17", "#4 / #2" for messages and links.
    std::string label() const;

    friend bool operator==(const NodeRef&, const NodeRef&) = default;
    friend auto operator<=>(const NodeRef& a, const NodeRef& b) { return a.path <=> b.path; }
};

/// The graph holding the node `ref` names (g itself for an outer node, else the
/// body of its parent), or null when a node on the way is gone or has no body.
const Graph* graphHolding(const Graph& g, const NodeRef& ref);
/// The node `ref` names in `g`, or null when it is not there.
const Node* resolveNode(const Graph& g, const NodeRef& ref);

/// What the canvas writes on outer nodes beyond their op (why an imported node is
/// opaque: "opaque: body not in the text"), by node id.
using NodeNotes = std::unordered_map<NodeId, std::string>;

/// Refs of outer nodes.
std::vector<NodeRef> outerRefs(const std::vector<NodeId>& ids);

} // namespace tl
