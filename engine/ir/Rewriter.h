#pragma once
// The only way to edit a Graph after construction. Every edit is announced to
// listeners (trace recorder, validator, GUI live view), as MLIR's
// RewriterBase::Listener.
#include "ir/Graph.h"
#include "ir/GraphEdit.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tl {

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
    /// A rewrite looked at `node` and did not fire, for this reason. Only listeners
    /// whose wantsMatchFailures() is true are told (and only then are reasons built).
    virtual bool wantsMatchFailures() const { return false; }
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
    Rewriter(const Rewriter&) = delete;
    Rewriter& operator=(const Rewriter&) = delete;
    /// The graph, for reading: every change goes through the methods below.
    const Graph& graph() const { return m_graph; }

    void addListener(RewriteListener* l);
    void removeListener(RewriteListener* l);

    /// A new node (types inferred); announced with nodeCreated. `declared` output types,
    /// when given, must be compatible with the inferred ones: a rewrite gives them where
    /// PyTensor's make_node knows more of a shape than the op's own rule.
    Node* create(OpPtr op, std::vector<Variable*> inputs, const std::vector<Type>* declared = nullptr);
    Variable* constant(NDArray value, std::optional<Type> type = {});
    /// Redirects every client of `old` (nodes and graph outputs) to `replacement`,
    /// then erases nodes left without clients. Types must be compatible; a replacement
    /// that knows less of the shape than `old` goes through the converter when one is set.
    void replace(Variable* old, Variable* replacement);
    /// How replace() makes a less specific replacement fit: returns a variable computing
    /// the same value with a type `want` accepts. PyTensor's FunctionGraph.replace does
    /// this for every rewrite (TensorType.convert_variable wraps it in SpecifyShape), so
    /// no reader ever sees its input's type lose a static dim. The ops that do it live
    /// above this layer: the rewrite layer installs it (rw::convertLessSpecificReplacements);
    /// without one, replace() takes the replacement as it is (trace replay: the recorded
    /// edits already hold the conversions).
    using ReplacementConverter = Variable* (*)(Rewriter&, Variable* replacement, const Type& want);
    void setReplacementConverter(ReplacementConverter converter) { m_converter = converter; }
    void setInput(Node* node, int index, Variable* v);
    void setOutput(int index, Variable* v);
    /// Swaps a node's op for one with the same number of outputs and compatible types.
    void setOp(Node* node, OpPtr op);
    /// Erases every node and constant no graph output depends on.
    void pruneDead();

    /// Re-applies one recorded edit exactly (no pruning), announcing it to the
    /// listeners like the live edit it records: trace replay and undo.
    void replayEdit(const GraphEdit& edit);
    /// Recreates a node or constant with the ids, types and names it had (a
    /// replayed creation, or an erasure being undone); announced as created.
    Node* restoreNode(const NodeSnapshot& node);
    Variable* restoreConstant(const ConstantSnapshot& constant);

    void beginRewrite(std::string_view name, const Node* root);
    void endRewrite(std::string_view name, bool changed);
    /// True when some listener records why rewrites did not fire (--explain):
    /// only then is a reason worth building.
    bool wantsMatchFailures() const { return m_failureListeners > 0; }
    /// A rewrite looked at `node` and did not fire. `reason` is called (and its
    /// text built) only when a listener wants it, as MLIR's notifyMatchFailure.
    template <typename ReasonFn>
    void notifyMatchFailure(std::string_view rewrite, const Node& node, ReasonFn&& reason) {
        if (!wantsMatchFailures()) return;
        const std::string text = reason();
        matchFailure(rewrite, node, text);
    }
    void matchFailure(std::string_view rewrite, const Node& node, std::string_view reason);
    /// Records a named fact about `node` with the current step (see RewriteListener::attributeChanged).
    void attribute(NodeId node, std::string_view key, std::string_view before, std::string_view after,
                   std::string_view detail = {});
    /// Records that node `created` is a clone of node `source`.
    void cloned(NodeId created, NodeId source);

private:
    void pruneFrom(std::vector<Variable*> candidates);
    Graph& m_graph;
    ReplacementConverter m_converter = nullptr;
    std::vector<RewriteListener*> m_listeners;
    int m_failureListeners = 0;
};

/// One rewrite step: beginRewrite now, endRewrite when the scope ends (also when
/// the rewrite throws), with whatever setChanged said.
class RewriteScope {
public:
    RewriteScope(Rewriter& rw, std::string_view name, const Node* root) : m_rw(rw), m_name(name) {
        m_rw.beginRewrite(m_name, root);
    }
    ~RewriteScope() { m_rw.endRewrite(m_name, m_changed); }
    RewriteScope(const RewriteScope&) = delete;
    RewriteScope& operator=(const RewriteScope&) = delete;
    void setChanged(bool changed = true) { m_changed = changed; }
    bool changed() const { return m_changed; }

private:
    Rewriter& m_rw;
    std::string_view m_name;
    bool m_changed = false;
};

/// A listener registered for the scope's lifetime (removed also when the scope is left by an exception).
class ScopedListener {
public:
    ScopedListener(Rewriter& rw, RewriteListener* listener) : m_rw(rw), m_listener(listener) {
        m_rw.addListener(m_listener);
    }
    ~ScopedListener() { m_rw.removeListener(m_listener); }
    ScopedListener(const ScopedListener&) = delete;
    ScopedListener& operator=(const ScopedListener&) = delete;

private:
    Rewriter& m_rw;
    RewriteListener* m_listener;
};

} // namespace tl
