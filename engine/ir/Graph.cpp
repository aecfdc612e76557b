#include "ir/Graph.h"

#include "ir/SliceValue.h"

#include "ir/GraphCopy.h"

#include <algorithm>
#include <limits>

namespace tl {

std::string Node::label() const { return m_op->name() + "#" + std::to_string(m_id); }

const std::string& Variable::noName() {
    static const std::string empty;
    return empty;
}

const NDArray& Variable::noValue() {
    static const NDArray none;
    return none;
}

namespace {
/// The id after `id`; the largest id is its own successor, so a graph that holds it
/// reports "used twice" for a fresh one instead of overflowing.
int64_t idAfter(int64_t id) { return id == std::numeric_limits<int64_t>::max() ? id : id + 1; }
} // namespace

Graph::Graph() = default;
Graph::~Graph() = default;

Variable* Graph::newVariable(Type type, std::optional<VarId> id) {
    VarId vid = id ? *id : m_nextVarId;
    if (m_varById.contains(vid)) throw GraphError("variable id " + std::to_string(vid) + " is used twice");
    m_nextVarId = std::max(m_nextVarId, idAfter(vid));
    if (m_vars.size() >= std::numeric_limits<uint32_t>::max()) throw GraphError("the graph has too many variables");
    auto v = std::make_unique<Variable>();
    v->m_graph = this;
    v->m_id = vid;
    v->m_type = std::move(type);
    v->m_slot = static_cast<uint32_t>(m_vars.size());
    Variable* raw = v.get();
    m_varById.insert(vid, raw);
    m_vars.push_back(std::move(v));
    return raw;
}

void Graph::eraseVariable(Variable* v) {
    if (v->isConstant()) {
        const size_t at = v->m_extras->constantSlot;
        m_constantList[at] = m_constantList.back();
        m_constantList[at]->m_extras->constantSlot = at;
        m_constantList.pop_back();
    }
    m_varById.erase(v->m_id);
    const size_t slot = v->m_slot;
    std::swap(m_vars[slot], m_vars.back());
    m_vars[slot]->m_slot = static_cast<uint32_t>(slot);
    m_vars.pop_back();
}

Variable* Graph::addInput(Type type, std::string name, std::optional<VarId> id) {
    Variable* v = newVariable(std::move(type), id);
    setVariableName(v, std::move(name));
    v->m_isInput = true;
    m_inputs.push_back(v);
    return v;
}

Variable* Graph::addConstant(NDArray value, std::optional<Type> type, std::string name, std::optional<VarId> id) {
    if (!value.valid()) throw GraphError("constant without a value");
    Type exact = Type::tensor(value.dtype(), StaticShape(value.shape().begin(), value.shape().end()));
    if (type) {
        if (!type->holdsNumbers()) {
            if (!valueFitsKind(value, *type))
                throw GraphError("constant of type " + type->toString() + " needs a " +
                                 (type->isSliceType() ? "slice value (ir/SliceValue.h)" : "None value"));
        } else if (type->isScalarType()) {
            if (value.ndim() != 0 || value.dtype() != type->dtype)
                throw GraphError("constant of type " + type->toString() + " needs a 0-d " +
                                 std::string(dtypeName(type->dtype)) + " value");
        } else if (!type->accepts(exact)) {
            throw GraphError("constant value of type " + exact.toString() + " does not fit type " + type->toString());
        }
    }
    Variable* v = newVariable(type ? *type : exact, id);
    Variable::Extras& extras = v->extras();
    extras.name = std::move(name);
    extras.constant = std::move(value);
    extras.constantSlot = m_constantList.size();
    m_constantList.push_back(v);
    return v;
}

Node* Graph::addNode(OpPtr op, std::vector<Variable*> inputs, std::optional<NodeId> id,
                     const std::vector<Type>* declared, const std::vector<VarId>* outputIds) {
    NodeId nid = id ? *id : m_nextNodeId;
    auto where = [&] { return op->name() + "#" + std::to_string(nid); };
    if (m_nodeById.contains(nid)) throw GraphError("node id " + std::to_string(nid) + " is used twice");
    if (m_nodes.size() >= std::numeric_limits<uint32_t>::max()) throw GraphError(where() + ": the graph has too many nodes");
    std::vector<const Type*> types;
    std::vector<const NDArray*> constants;
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (!inputs[i]) throw GraphError(where() + ": input " + std::to_string(i) + " is missing");
        if (&inputs[i]->graph() != this)
            throw GraphError(where() + ": input " + std::to_string(i) + " belongs to another graph");
        types.push_back(&inputs[i]->type());
        constants.push_back(inputs[i]->isConstant() ? &inputs[i]->constantValue() : nullptr);
    }
    std::vector<Type> outTypes;
    try {
        outTypes = op->inferTypesWithConstants(types, constants);
    } catch (const OpTypeError& e) {
        throw GraphError(where() + ": " + e.what());
    }
    if (declared) {
        if (declared->size() != outTypes.size())
            throw GraphError(where() + ": " + std::to_string(declared->size()) + " output types given, op has " +
                             std::to_string(outTypes.size()));
        for (size_t i = 0; i < outTypes.size(); ++i) {
            const Type& d = (*declared)[i];
            if (!d.accepts(outTypes[i]) && !outTypes[i].accepts(d))
                throw GraphError(where() + ": output " + std::to_string(i) + " declared " + d.toString() +
                                 " but the op computes " + outTypes[i].toString());
            outTypes[i] = d;
        }
    }
    if (outputIds && outputIds->size() != outTypes.size())
        throw GraphError(where() + ": " + std::to_string(outputIds->size()) + " output ids for " +
                         std::to_string(outTypes.size()) + " outputs");
    // Every check before the first object exists: a failure leaves the graph as it was.
    // (A merged Scan has thousands of outputs: no check here is quadratic in them.)
    InlineVector<VarId, 2> ids;
    for (size_t i = 0; i < outTypes.size(); ++i) {
        // Fresh ids count up from the next one; only the largest id has no successor.
        const VarId vid = outputIds ? (*outputIds)[i] : ids.empty() ? m_nextVarId : idAfter(ids.back());
        if (m_varById.contains(vid) || (!outputIds && !ids.empty() && vid == ids.back()))
            throw GraphError(where() + ": variable id " + std::to_string(vid) + " is used twice");
        ids.push_back(vid);
    }
    if (outputIds && ids.size() > 1) {
        std::vector<VarId> sorted(ids.begin(), ids.end());
        std::sort(sorted.begin(), sorted.end());
        if (auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end())
            throw GraphError(where() + ": variable id " + std::to_string(*twice) + " is used twice");
    }
    auto owned = std::make_unique<Node>();
    Node* node = owned.get();
    node->m_id = nid;
    m_nextNodeId = std::max(m_nextNodeId, idAfter(nid));
    node->m_op = std::move(op);
    node->m_inputs = NodeInputs(inputs.begin(), inputs.end());
    for (size_t i = 0; i < outTypes.size(); ++i) {
        Variable* v = newVariable(std::move(outTypes[i]), ids[i]);
        v->m_owner = node;
        v->m_index = static_cast<int>(i);
        node->m_outputs.push_back(v);
    }
    for (int i = 0; i < node->numInputs(); ++i) addClient(node->m_inputs[i], Client{node, i});
    node->m_slot = static_cast<uint32_t>(m_nodes.size());
    node->m_kind = node->m_op->kind();
    ++m_kindCounts[static_cast<size_t>(node->m_kind)];
    structureChanged();
    m_nodes.push_back(std::move(owned));
    m_nodeList.push_back(node);
    m_nodeById.insert(nid, node);
    return node;
}

void Graph::setOutputs(std::vector<Variable*> outputs) {
    structureChanged();
    for (size_t i = 0; i < m_outputs.size(); ++i) removeClient(m_outputs[i], Client{nullptr, static_cast<int>(i)});
    m_outputs = std::move(outputs);
    for (size_t i = 0; i < m_outputs.size(); ++i) {
        if (!m_outputs[i] || &m_outputs[i]->graph() != this)
            throw GraphError("graph output " + std::to_string(i) + " is not a variable of this graph");
        addClient(m_outputs[i], Client{nullptr, static_cast<int>(i)});
    }
}

std::vector<Variable*> Graph::constants() const {
    // Each constant's id is read once: a comparison that read both variables' ids
    // would visit each of thousands of scattered variables log n times.
    std::vector<std::pair<VarId, Variable*>> byId;
    byId.reserve(m_constantList.size());
    VarId lo = std::numeric_limits<VarId>::max(), hi = std::numeric_limits<VarId>::min();
    for (Variable* c : m_constantList) {
        byId.emplace_back(c->id(), c);
        lo = std::min(lo, c->id());
        hi = std::max(hi, c->id());
    }
    std::vector<Variable*> out(byId.size());
    // Ids are unique, so when they lie close together (a graph built here: ids are
    // handed out densely) each constant's place is its id's offset among the range:
    // linear time, where merge, which asks on every pass, would sort 20,000 constants.
    // (The span in unsigned arithmetic: ids at both ends of int64 differ by more
    // than a signed difference holds.)
    const uint64_t span = byId.empty() ? 0 : static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
    if (!byId.empty() && span < 8 * byId.size()) {
        std::vector<Variable*> atOffset(span + 1, nullptr);
        for (const auto& [id, c] : byId) atOffset[static_cast<uint64_t>(id) - static_cast<uint64_t>(lo)] = c;
        size_t k = 0;
        for (Variable* c : atOffset)
            if (c) out[k++] = c;
        return out;
    }
    std::sort(byId.begin(), byId.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t k = 0; k < byId.size(); ++k) out[k] = byId[k].second;
    return out;
}

Node* Graph::findNode(NodeId id) const {
    return m_nodeById.find(id);
}

Variable* Graph::findVariable(VarId id) const {
    return m_varById.find(id);
}

std::vector<Node*> Graph::toposort() const {
    std::lock_guard<std::mutex> lock(m_toposortMutex);
    if (!m_toposortValid.load(std::memory_order_relaxed)) {
        m_toposort = computeToposort();
        m_toposortValid.store(true, std::memory_order_relaxed);
    }
    return m_toposort;
}

std::vector<Node*> Graph::computeToposort() const {
    const size_t n = m_nodeList.size();
    // Each node's producers as slots, gathered first in one sweep over the node list:
    // the sweep's loads are independent of one another, so the processor overlaps
    // their misses, where a walk following inputs waits on each load before the next.
    // The depth-first walk below then reads only these arrays (a few bytes a node,
    // which stay in cache on graphs whose nodes do not).
    constexpr uint32_t kNoProducer = UINT32_MAX;
    std::vector<uint32_t> firstDep(n + 1);
    std::vector<uint32_t> deps;
    deps.reserve(2 * n);
    for (size_t s = 0; s < n; ++s) {
        firstDep[s] = static_cast<uint32_t>(deps.size());
        for (const Variable* in : m_nodeList[s]->m_inputs) deps.push_back(in->m_owner ? in->m_owner->m_slot : kNoProducer);
    }
    firstDep[n] = static_cast<uint32_t>(deps.size());

    std::vector<Node*> order;
    order.reserve(n);
    enum : uint8_t { kNew = 0, kOnStack = 1, kDone = 2 };
    std::vector<uint8_t> mark(n, kNew);
    // Explicit stack, no recursion on depth: a node's unvisited producers go on the
    // stack (input 0 on top) above the node's own "emit" frame. A producer reached
    // again meanwhile is skipped when its frame comes up, which is when the recursive
    // walk would have looked at it: the order is the recursive depth-first post-order.
    struct Frame {
        uint32_t slot;
        bool expanded;
    };
    std::vector<Frame> stack;
    auto visit = [&](uint32_t root) {
        if (mark[root] != kNew) return;
        stack.push_back({root, false});
        while (!stack.empty()) {
            const Frame f = stack.back();
            stack.pop_back();
            if (f.expanded) {
                mark[f.slot] = kDone;
                order.push_back(m_nodeList[f.slot]);
                continue;
            }
            // Already visited, or an ancestor being expanded (a cycle, which
            // validate() reports): skipped, as the recursive walk would.
            if (mark[f.slot] != kNew) continue;
            mark[f.slot] = kOnStack;
            stack.push_back({f.slot, true});
            for (uint32_t k = firstDep[f.slot + 1]; k-- > firstDep[f.slot];) {
                const uint32_t dep = deps[k];
                if (dep != kNoProducer && mark[dep] == kNew) stack.push_back({dep, false});
            }
        }
    };
    for (Variable* out : m_outputs)
        if (out->m_owner) visit(out->m_owner->m_slot);
    if (order.size() != n) {
        std::vector<Node*> rest;
        for (Node* node : m_nodeList)
            if (mark[node->m_slot] == kNew) rest.push_back(node);
        std::sort(rest.begin(), rest.end(), [](auto* a, auto* b) { return a->id() < b->id(); });
        for (Node* node : rest) visit(node->m_slot);
    }
    return order;
}

void Graph::setSharedValue(Variable* input, NDArray value) {
    if (!input->isGraphInput() || &input->graph() != this) throw GraphError("a shared value belongs to an input of the graph");
    const Type& t = input->type();
    bool fits = value.valid() && t.holdsNumbers() && value.dtype() == t.dtype &&
                value.ndim() == (t.isScalarType() ? 0 : t.ndim());
    for (int d = 0; fits && d < t.ndim(); ++d) fits = t.shape[d] == kUnknownDim || t.shape[d] == value.dim(d);
    if (!fits)
        throw GraphError("input " + (input->name().empty() ? std::to_string(input->id()) : "'" + input->name() + "'") + " of type " +
                         t.toString() + " cannot hold a shared value of shape " + shapeToString(value.shape()) +
                         (value.valid() ? " and dtype " + std::string(dtypeName(value.dtype())) : std::string()));
    input->extras().sharedValue = std::move(value);
}

std::unique_ptr<Graph> Graph::clone() const {
    GraphAssembler a;
    VariableMap map;
    for (Variable* in : m_inputs) {
        map[in] = a.addInput(in->type(), in->name(), in->id());
        if (in->sharedValue().valid()) a.setSharedValue(map[in], in->sharedValue());
    }
    copyGraphInto(a, *this, map, CopyIds::Keep);
    std::vector<Variable*> outs;
    for (Variable* o : m_outputs) outs.push_back(map.at(o));
    a.setOutputs(std::move(outs));
    a.reserveIds(m_nextNodeId, m_nextVarId);
    return a.finish();
}

void Graph::addClient(Variable* v, Client c) { v->m_clients.push_back(c); }

void Graph::removeClient(Variable* v, Client c) { v->m_clients.remove(c); }

void Graph::setInput(Node* node, int index, Variable* v) {
    structureChanged();
    removeClient(node->m_inputs[index], Client{node, index});
    node->m_inputs[index] = v;
    addClient(v, Client{node, index});
}

void Graph::setOutput(int index, Variable* v) {
    structureChanged();
    removeClient(m_outputs[index], Client{nullptr, index});
    m_outputs[index] = v;
    addClient(v, Client{nullptr, index});
}

void Graph::moveClients(Variable* old, Variable* now) {
    if (old == now) return;
    structureChanged();
    ClientList moved = std::move(old->m_clients);
    old->m_clients.clear();
    for (const Client& c : moved) {
        if (c.isGraphOutput()) m_outputs[c.index] = now;
        else c.node->m_inputs[c.index] = now;
    }
    now->m_clients.append(moved);
}

void Graph::setOp(Node* node, OpPtr op) {
    --m_kindCounts[static_cast<size_t>(node->m_kind)];
    node->m_kind = op->kind();
    ++m_kindCounts[static_cast<size_t>(node->m_kind)];
    node->m_op = std::move(op);
}

void Graph::eraseNode(Node* node) {
    for (Variable* o : node->m_outputs)
        if (!o->m_clients.empty()) throw GraphError("erasing " + node->label() + " whose outputs are still used");
    for (int i = 0; i < node->numInputs(); ++i) removeClient(node->m_inputs[i], Client{node, i});
    for (Variable* o : node->m_outputs) eraseVariable(o);
    m_nodeById.erase(node->m_id);
    --m_kindCounts[static_cast<size_t>(node->m_kind)];
    structureChanged();
    const size_t slot = node->m_slot;
    std::swap(m_nodes[slot], m_nodes.back());
    m_nodes[slot]->m_slot = static_cast<uint32_t>(slot);
    m_nodeList[slot] = m_nodes[slot].get();
    m_nodes.pop_back();
    m_nodeList.pop_back();
}

void Graph::eraseConstant(Variable* v) {
    if (!v->isConstant() || !v->m_clients.empty()) throw GraphError("erasing a constant that is still used");
    eraseVariable(v);
}

} // namespace tl
