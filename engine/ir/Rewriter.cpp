#include "ir/Rewriter.h"

#include <algorithm>
#include <unordered_set>

namespace tl {

void Rewriter::addListener(RewriteListener* l) {
    m_listeners.push_back(l);
    if (l->wantsMatchFailures()) ++m_failureListeners;
}
void Rewriter::removeListener(RewriteListener* l) {
    auto it = std::find(m_listeners.begin(), m_listeners.end(), l);
    if (it == m_listeners.end()) return;
    m_listeners.erase(it);
    if (l->wantsMatchFailures()) --m_failureListeners;
}

Node* Rewriter::create(OpPtr op, std::vector<Variable*> inputs, const std::vector<Type>* declared) {
    Node* n = m_graph.addNode(std::move(op), std::move(inputs), std::nullopt, declared);
    for (auto* l : m_listeners) l->nodeCreated(*n);
    return n;
}

Variable* Rewriter::constant(NDArray value, std::optional<Type> type) {
    Variable* c = m_graph.addConstant(std::move(value), std::move(type));
    for (auto* l : m_listeners) l->constantCreated(*c);
    return c;
}

namespace {
// Whether no output of `n` has a reader. Rewrites replace a node's outputs one at a
// time, in order or in reverse, and a merged loop has thousands: looking outwards
// from the output just released finds a live neighbour at once, so releasing every
// output costs about k log k, not k^2, checks.
bool allOutputsUnused(const Node& n, int released) {
    const int k = n.numOutputs();
    for (int d = 0; released - d >= 0 || released + d < k; ++d) {
        if (released + d < k && !n.output(released + d)->clients().empty()) return false;
        if (d > 0 && released - d >= 0 && !n.output(released - d)->clients().empty()) return false;
    }
    return true;
}

void checkCompatible(const Variable& old, const Variable& now) {
    if (!old.type().accepts(now.type()) && !now.type().accepts(old.type()))
        throw GraphError("cannot replace a " + old.type().toString() + " with a " + now.type().toString() +
                         (old.owner() ? " (output of " + old.owner()->label() + ")" : std::string()));
}
} // namespace

void Rewriter::replace(Variable* old, Variable* replacement) {
    if (old == replacement) return;
    // With a converter, a replacement whose static shape is neither more nor less
    // specific than old's (old (1, ?), replacement (?, 4)) is converted too: the
    // converter states old's dims on it, and the check below sees the result.
    if (m_converter && !old->type().accepts(replacement->type())) {
        try {
            replacement = m_converter(*this, replacement, old->type());
        } catch (const GraphError&) {
            checkCompatible(*old, *replacement);  // names old's producer
            throw;
        }
    }
    checkCompatible(*old, *replacement);
    m_graph.moveClients(old, replacement);
    for (auto* l : m_listeners) l->variableReplaced(*old, *replacement);
    pruneFrom({old});
}

void Rewriter::setInput(Node* node, int index, Variable* v) {
    Variable* old = node->input(index);
    if (old == v) return;
    checkCompatible(*old, *v);
    m_graph.setInput(node, index, v);
    for (auto* l : m_listeners) l->inputChanged(*node, index, *old, *v);
    pruneFrom({old});
}

void Rewriter::setOutput(int index, Variable* v) {
    Variable* old = m_graph.output(index);
    if (old == v) return;
    m_graph.setOutput(index, v);
    for (auto* l : m_listeners) l->outputChanged(index, *old, *v);
    pruneFrom({old});
}

void Rewriter::setOp(Node* node, OpPtr op) {
    std::vector<const Type*> types;
    std::vector<const NDArray*> constants;
    for (Variable* v : node->inputs()) {
        types.push_back(&v->type());
        constants.push_back(v->isConstant() ? &v->constantValue() : nullptr);
    }
    std::vector<Type> out;
    try {
        out = op->inferTypesWithConstants(types, constants);
    } catch (const OpTypeError& e) {
        throw GraphError(node->label() + ": new op " + op->name() + ": " + e.what());
    }
    if (static_cast<int>(out.size()) != node->numOutputs())
        throw GraphError(node->label() + ": new op " + op->name() + " has a different number of outputs");
    OpPtr old = node->opPtr();
    m_graph.setOp(node, std::move(op));
    for (auto* l : m_listeners) l->opChanged(*node, old, node->opPtr());
}

void Rewriter::pruneFrom(std::vector<Variable*> candidates) {
    // Iterative: a long dead chain must not recurse.
    // Ids, not pointers: erasing a node frees all its outputs, and another of
    // them may still be waiting in the list.
    std::vector<VarId> ids;
    for (Variable* v : candidates) ids.push_back(v->id());
    while (!ids.empty()) {
        Variable* v = m_graph.findVariable(ids.back());
        ids.pop_back();
        if (!v || !v->clients().empty() || v->isGraphInput()) continue;
        if (v->isConstant()) {
            for (auto* l : m_listeners) l->constantErased(*v);
            m_graph.eraseConstant(v);
            continue;
        }
        Node* n = v->owner();
        if (!n) continue;
        if (!allOutputsUnused(*n, v->outputIndex())) continue;
        for (auto* l : m_listeners) l->nodeErased(*n);
        for (Variable* in : n->inputs()) ids.push_back(in->id());
        m_graph.eraseNode(n);
    }
}

void Rewriter::pruneDead() {
    std::vector<Variable*> candidates;
    for (Node* n : m_graph.nodes())
        for (Variable* o : n->outputs())
            if (o->clients().empty()) candidates.push_back(o);
    for (Variable* c : m_graph.constants())
        if (c->clients().empty()) candidates.push_back(c);
    pruneFrom(std::move(candidates));
}

Node* Rewriter::restoreNode(const NodeSnapshot& s) {
    std::vector<Variable*> ins;
    ins.reserve(s.inputs.size());
    for (VarId id : s.inputs) {
        Variable* v = m_graph.findVariable(id);
        if (!v) throw GraphError("node " + std::to_string(s.id) + ": input variable " + std::to_string(id) + " does not exist");
        ins.push_back(v);
    }
    Node* n = m_graph.addNode(s.op, std::move(ins), s.id, &s.outputTypes, &s.outputIds);
    for (size_t i = 0; i < s.outputNames.size() && i < n->outputs().size(); ++i)
        if (!s.outputNames[i].empty()) m_graph.setVariableName(n->output(static_cast<int>(i)), s.outputNames[i]);
    for (auto* l : m_listeners) l->nodeCreated(*n);
    return n;
}

Variable* Rewriter::restoreConstant(const ConstantSnapshot& c) {
    Variable* v = m_graph.addConstant(c.value, c.type, c.name, c.id);
    for (auto* l : m_listeners) l->constantCreated(*v);
    return v;
}

void Rewriter::replayEdit(const GraphEdit& e) {
    auto var = [&](VarId id) {
        Variable* v = m_graph.findVariable(id);
        if (!v) throw GraphError("trace replay: variable " + std::to_string(id) + " does not exist");
        return v;
    };
    auto node = [&](NodeId id) {
        Node* n = m_graph.findNode(id);
        if (!n) throw GraphError("trace replay: node " + std::to_string(id) + " does not exist");
        return n;
    };
    switch (e.kind) {
    case GraphEdit::Kind::CreateNode: restoreNode(e.node); break;
    case GraphEdit::Kind::EraseNode: {
        Node* n = node(e.node.id);
        for (auto* l : m_listeners) l->nodeErased(*n);
        m_graph.eraseNode(n);
        break;
    }
    case GraphEdit::Kind::AddConstant: restoreConstant(e.constant); break;
    case GraphEdit::Kind::EraseConstant: {
        Variable* c = var(e.constant.id);
        for (auto* l : m_listeners) l->constantErased(*c);
        m_graph.eraseConstant(c);
        break;
    }
    case GraphEdit::Kind::ReplaceVariable: {
        Variable* old = var(e.before);
        Variable* now = var(e.after);
        m_graph.moveClients(old, now);
        for (auto* l : m_listeners) l->variableReplaced(*old, *now);
        break;
    }
    case GraphEdit::Kind::SetInput: {
        Node* n = node(e.nodeId);
        Variable* old = n->input(e.index);
        Variable* now = var(e.after);
        m_graph.setInput(n, e.index, now);
        for (auto* l : m_listeners) l->inputChanged(*n, e.index, *old, *now);
        break;
    }
    case GraphEdit::Kind::SetOutput: {
        Variable* old = m_graph.output(e.index);
        Variable* now = var(e.after);
        m_graph.setOutput(e.index, now);
        for (auto* l : m_listeners) l->outputChanged(e.index, *old, *now);
        break;
    }
    case GraphEdit::Kind::SetOp: {
        Node* n = node(e.nodeId);
        OpPtr old = n->opPtr();
        m_graph.setOp(n, e.opAfter);
        for (auto* l : m_listeners) l->opChanged(*n, old, n->opPtr());
        break;
    }
    }
}

void Rewriter::beginRewrite(std::string_view name, const Node* root) {
    for (auto* l : m_listeners) l->rewriteBegin(name, root);
}
void Rewriter::endRewrite(std::string_view name, bool changed) {
    for (auto* l : m_listeners) l->rewriteEnd(name, changed);
}
void Rewriter::matchFailure(std::string_view rewrite, const Node& node, std::string_view reason) {
    for (auto* l : m_listeners) l->matchFailure(rewrite, node, reason);
}
void Rewriter::attribute(NodeId node, std::string_view key, std::string_view before, std::string_view after,
                         std::string_view detail) {
    for (auto* l : m_listeners) l->attributeChanged(node, key, before, after, detail);
}

void Rewriter::cloned(NodeId created, NodeId source) {
    for (auto* l : m_listeners) l->nodeCloned(created, source);
}

} // namespace tl
