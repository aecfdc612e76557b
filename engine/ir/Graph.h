#pragma once
// The graph IR: variables, Apply nodes and the graph that owns them with exact
// client lists (PyTensor's FunctionGraph). A graph is built by a GraphAssembler
// (ir/GraphAssembler.h) and from then on edited only through a Rewriter
// (ir/Rewriter.h), which notifies listeners (trace recorder, validator, GUI):
// Graph's own mutators are private to those two.
#include "core/InlineVector.h"
#include "ir/ClientList.h"
#include "core/NDArray.h"
#include "ir/Type.h"
#include "ir/Op.h"
#include "ir/IdIndex.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tl {

using NodeId = int64_t;
using VarId = int64_t;

class Graph;
class Node;

/// Thrown when a graph would become ill-formed; the message names the node.
struct GraphError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Variable {
public:
    VarId id() const { return m_id; }
    const Type& type() const { return m_type; }
    /// The node computing this variable, or null for inputs and constants.
    Node* owner() const { return m_owner; }
    int outputIndex() const { return m_index; }
    const std::string& name() const { return m_extras ? m_extras->name : noName(); }
    bool isConstant() const { return m_extras && m_extras->constant.valid(); }
    const NDArray& constantValue() const { return m_extras ? m_extras->constant : noValue(); }
    bool isGraphInput() const { return m_isInput; }
    /// The value a graph input holds when a run gives it none: a PyTensor shared
    /// variable's (pytensor.shared, PyMC's pm.Data) as it was exported. Invalid when
    /// the input has none (an input the caller must give).
    const NDArray& sharedValue() const { return m_extras ? m_extras->sharedValue : noValue(); }
    const ClientList& clients() const { return m_clients; }
    const Graph& graph() const { return *m_graph; }
    /// This variable's position among its graph's variables, 0 .. numVariables() - 1:
    /// an index for per-variable arrays while the graph is not edited (erasing a
    /// variable moves another into its slot).
    size_t slot() const { return m_slot; }

private:
    friend class Graph;
    // A name or a value is rare on the outputs of nodes, which are most variables:
    // kept apart, they leave the fields every walk reads in two cache lines.
    struct Extras {
        std::string name;
        NDArray constant;
        size_t constantSlot = 0;  // position in Graph::m_constantList
        NDArray sharedValue;      // a graph input's value when a run gives none
    };
    static const std::string& noName();
    static const NDArray& noValue();
    Extras& extras() {
        if (!m_extras) m_extras = std::make_unique<Extras>();
        return *m_extras;
    }

    // The fields walks read first come first.
    Node* m_owner = nullptr;
    VarId m_id = 0;
    ClientList m_clients;
    Type m_type;
    Graph* m_graph = nullptr;
    int m_index = 0;
    uint32_t m_slot = 0;  // position in Graph::m_vars, for O(1) erase
    bool m_isInput = false;
    std::unique_ptr<Extras> m_extras;
};

/// A node's inputs and outputs, inline up to the common sizes.
using NodeInputs = InlineVector<Variable*, 3>;
using NodeOutputs = InlineVector<Variable*, 1>;

class Node {
public:
    NodeId id() const { return m_id; }
    const Op& op() const { return *m_op; }
    /// op().kind(), kept on the node: drivers dispatch every node on it, and the op
    /// itself is another cache line.
    OpKind kind() const { return m_kind; }
    const OpPtr& opPtr() const { return m_op; }
    const NodeInputs& inputs() const { return m_inputs; }
    const NodeOutputs& outputs() const { return m_outputs; }
    Variable* input(int i) const { return m_inputs[i]; }
    Variable* output(int i) const { return m_outputs[i]; }
    int numInputs() const { return static_cast<int>(m_inputs.size()); }
    int numOutputs() const { return static_cast<int>(m_outputs.size()); }
    /// "Elemwise#12": how errors and logs name a node.
    std::string label() const;
    /// This node's position in its graph's node list, 0 .. numNodes() - 1: an index
    /// for per-node arrays (erasing a node moves another into its slot).
    size_t slot() const { return m_slot; }

private:
    friend class Graph;
    // What a driver reads of every node it queues (id, kind) and what a walk reads
    // first (slot, op) share the first 32 bytes, one cache line wherever the
    // 96-byte node starts.
    NodeId m_id = 0;
    uint32_t m_slot = 0;  // position in Graph::m_nodes, for O(1) erase
    OpKind m_kind{};
    OpPtr m_op;
    NodeInputs m_inputs;
    NodeOutputs m_outputs;
};

class Graph {
public:
    Graph();
    ~Graph();
    Graph(const Graph&) = delete;
    Graph& operator=(const Graph&) = delete;

    // ---- queries --------------------------------------------------------
    const std::vector<Variable*>& inputs() const { return m_inputs; }
    const std::vector<Variable*>& outputs() const { return m_outputs; }
    Variable* output(int i) const { return m_outputs[i]; }
    /// Nodes in no particular order.
    const std::vector<Node*>& nodes() const { return m_nodeList; }
    size_t numNodes() const { return m_nodeList.size(); }
    /// Inputs, constants and node outputs (Variable::slot() is below it).
    size_t numVariables() const { return m_vars.size(); }
    /// How many nodes have an op of `kind`: a pass whose rewrites start at kinds the
    /// graph lacks has nothing to do.
    size_t countOfKind(OpKind kind) const { return m_kindCounts[static_cast<size_t>(kind)]; }
    /// Constants owned by this graph.
    std::vector<Variable*> constants() const;
    /// Inputs before consumers; deterministic (depth first from the outputs, inputs in
    /// order, then unreachable nodes by id). Iterative: no recursion on graph depth.
    /// Remembered until the next structural edit: most passes of a pipeline change
    /// nothing, and each starts with this walk.
    std::vector<Node*> toposort() const;
    Node* findNode(NodeId id) const;
    Variable* findVariable(VarId id) const;
    NodeId nextNodeId() const { return m_nextNodeId; }
    VarId nextVarId() const { return m_nextVarId; }
    /// Deep copy with the same ids (ops are shared: they are immutable).
    std::unique_ptr<Graph> clone() const;

    /// Checks clients, owners, types against op.inferTypes, acyclicity. Returns
    /// the problems found (empty when valid).
    std::vector<std::string> validate() const;

private:
    friend class Rewriter;
    friend class GraphAssembler;
    // Construction (GraphAssembler) and the primitive edits (Rewriter).
    Variable* addInput(Type type, std::string name = {}, std::optional<VarId> id = {});
    Variable* addConstant(NDArray value, std::optional<Type> type = {}, std::string name = {},
                          std::optional<VarId> id = {});
    Node* addNode(OpPtr op, std::vector<Variable*> inputs, std::optional<NodeId> id = {},
                  const std::vector<Type>* declared = nullptr, const std::vector<VarId>* outputIds = nullptr);
    void setOutputs(std::vector<Variable*> outputs);
    void setVariableName(Variable* v, std::string name) {
        if (!name.empty() || v->m_extras) v->extras().name = std::move(name);
    }
    void setSharedValue(Variable* input, NDArray value);
    void reserveIds(NodeId nextNode, VarId nextVar) {
        if (nextNode > m_nextNodeId) m_nextNodeId = nextNode;
        if (nextVar > m_nextVarId) m_nextVarId = nextVar;
    }
    Variable* newVariable(Type type, std::optional<VarId> id);
    void addClient(Variable* v, Client c);
    void removeClient(Variable* v, Client c);
    void setInput(Node* node, int index, Variable* v);
    void setOutput(int index, Variable* v);
    /// Every client of `old` (nodes and graph outputs) now reads `now`, appended to
    /// now's clients in old's order (as one setInput/setOutput per client would do),
    /// in time linear in the number of clients.
    void moveClients(Variable* old, Variable* now);
    void setOp(Node* node, OpPtr op);
    void eraseNode(Node* node);  // outputs must have no clients
    void eraseConstant(Variable* v);  // must have no clients

    void eraseVariable(Variable* v);
    std::vector<Node*> computeToposort() const;
    void structureChanged() { m_toposortValid.store(false, std::memory_order_relaxed); }

    std::vector<std::unique_ptr<Node>> m_nodes;  // owning, m_nodes[i]->m_slot == i
    std::vector<Node*> m_nodeList;               // same order as m_nodes
    std::array<uint32_t, kNumOpKinds> m_kindCounts{};  // 4 bytes each: every loop body and Composite is a Graph
    std::vector<std::unique_ptr<Variable>> m_vars;  // owning, m_vars[i]->m_slot == i
    std::vector<Variable*> m_constantList;          // constants in no particular order
    IdIndex<Node> m_nodeById;
    IdIndex<Variable> m_varById;
    std::vector<Variable*> m_inputs;
    std::vector<Variable*> m_outputs;
    NodeId m_nextNodeId = 0;
    VarId m_nextVarId = 0;
    // toposort()'s last result; the mutex because a loop body is one graph shared by
    // every copy of its op, which different threads may walk at once.
    mutable std::mutex m_toposortMutex;
    mutable std::vector<Node*> m_toposort;
    mutable std::atomic<bool> m_toposortValid{false};
};

} // namespace tl
