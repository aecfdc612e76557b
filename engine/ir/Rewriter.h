#pragma once
// The only way to edit a Graph after construction. Every edit is announced to
// listeners (trace recorder, validator, GUI live view), as MLIR's
// RewriterBase::Listener.
#include "ir/Graph.h"

#include <string_view>
#include <vector>

namespace tl {

struct GraphEdit;  // rewrite/Trace.h

class RewriteListener {
public:
    virtual ~RewriteListener() = default;
    virtual void nodeCreated(const Node&) {}
    virtual void constantCreated(const Variable&) {}
    /// Called just before the constant is destroyed.
    virtual void constantErased(const Variable&) {}
    /// Called just before the node is destroyed.
    virtual void nodeErased(const Node&) {}
    /// Every client of `old` now uses `replacement`.
    virtual void variableReplaced(const Variable& /*old*/, const Variable& /*replacement*/) {}
    virtual void inputChanged(const Node&, int /*index*/, const Variable& /*old*/, const Variable& /*now*/) {}
    virtual void outputChanged(int /*index*/, const Variable& /*old*/, const Variable& /*now*/) {}
    /// The node's op was swapped for an equivalent one (inplace, resized buffer, renamed scan).
    virtual void opChanged(const Node&, const OpPtr& /*old*/, const OpPtr& /*now*/) {}
    virtual void rewriteBegin(std::string_view /*rewrite*/, const Node* /*root*/) {}
    virtual void rewriteEnd(std::string_view /*rewrite*/, bool /*changed*/) {}
    /// A rewrite looked at `node` and did not fire, for this reason.
    virtual void matchFailure(std::string_view /*rewrite*/, const Node&, std::string_view /*reason*/) {}
    /// A named fact about a node that changed, recorded with the current step:
    /// ("buffer_shape", "(11, 7)", "(1, 7)", "exact: the oldest tap is read elementwise").
    virtual void attributeChanged(NodeId /*node*/, std::string_view /*key*/, std::string_view /*before*/,
                                  std::string_view /*after*/, std::string_view /*detail*/) {}
    /// Marks `created` as a clone of `source` (provenance through ScanMerge, inner-graph rebuilds).
    virtual void nodeCloned(NodeId /*created*/, NodeId /*source*/) {}
};

class Rewriter {
public:
    explicit Rewriter(Graph& graph) : m_graph(graph) {}
    Graph& graph() const { return m_graph; }

    void addListener(RewriteListener* l);
    void removeListener(RewriteListener* l);

    /// A new node (types inferred); announced with nodeCreated.
    Node* create(OpPtr op, std::vector<Variable*> inputs);
    Variable* constant(NDArray value, std::optional<Type> type = {});
    /// Redirects every client of `old` (nodes and graph outputs) to `replacement`,
    /// then erases nodes left without clients. Types must be compatible.
    void replace(Variable* old, Variable* replacement);
    void setInput(Node* node, int index, Variable* v);
    void setOutput(int index, Variable* v);
    /// Swaps a node's op for one with the same number of outputs and compatible types.
    void setOp(Node* node, OpPtr op);
    /// Erases every node and constant no graph output depends on.
    void pruneDead();

    /// Re-applies one recorded edit exactly (no pruning, no listeners): trace replay.
    void replayEdit(const GraphEdit& edit);

    void beginRewrite(std::string_view name, const Node* root);
    void endRewrite(std::string_view name, bool changed);
    void matchFailure(std::string_view rewrite, const Node& node, std::string_view reason);
    /// Records a named fact about `node` with the current step (see RewriteListener::attributeChanged).
    void attribute(NodeId node, std::string_view key, std::string_view before, std::string_view after,
                   std::string_view detail = {});
    /// Records that node `created` is a clone of node `source`.
    void cloned(NodeId created, NodeId source);

private:
    void pruneFrom(std::vector<Variable*> candidates);
    Graph& m_graph;
    std::vector<RewriteListener*> m_listeners;
};

} // namespace tl
