#include "ir/Rewriter.h"

#include "rewrite/Trace.h"

#include <algorithm>
#include <unordered_set>

namespace tl {

void Rewriter::addListener(RewriteListener* l) { m_listeners.push_back(l); }
void Rewriter::removeListener(RewriteListener* l) {
    m_listeners.erase(std::remove(m_listeners.begin(), m_listeners.end(), l), m_listeners.end());
}

Node* Rewriter::create(OpPtr op, std::vector<Variable*> inputs) {
    Node* n = m_graph.addNode(std::move(op), std::move(inputs));
    for (auto* l : m_listeners) l->nodeCreated(*n);
    return n;
}

Variable* Rewriter::constant(NDArray value, std::optional<Type> type) {
    Variable* c = m_graph.addConstant(std::move(value), std::move(type));
    for (auto* l : m_listeners) l->constantCreated(*c);
    return c;
}

namespace {
void checkCompatible(const Variable& old, const Variable& now) {
    if (!old.type().accepts(now.type()) && !now.type().accepts(old.type()))
        throw GraphError("cannot replace a " + old.type().toString() + " with a " + now.type().toString() +
                         (old.owner() ? " (output of " + old.owner()->label() + ")" : std::string()));
}
} // namespace

void Rewriter::replace(Variable* old, Variable* replacement) {
    if (old == replacement) return;
    checkCompatible(*old, *replacement);
    const std::vector<Client> clients = old->clients();
    for (const Client& c : clients) {
        if (c.isGraphOutput()) m_graph.setOutput(c.index, replacement);
        else m_graph.setInput(c.node, c.index, replacement);
    }
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
        bool dead = std::all_of(n->outputs().begin(), n->outputs().end(),
                                [](Variable* o) { return o->clients().empty(); });
        if (!dead) continue;
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
    case GraphEdit::Kind::CreateNode: {
        std::vector<Variable*> ins;
        for (VarId id : e.node.inputs) ins.push_back(var(id));
        Node* n = m_graph.addNode(e.node.op, std::move(ins), e.node.id, &e.node.outputTypes, &e.node.outputIds);
        for (size_t i = 0; i < e.node.outputNames.size() && i < n->outputs().size(); ++i)
            m_graph.setVariableName(n->output(static_cast<int>(i)), e.node.outputNames[i]);
        break;
    }
    case GraphEdit::Kind::EraseNode: m_graph.eraseNode(node(e.node.id)); break;
    case GraphEdit::Kind::AddConstant:
        m_graph.addConstant(e.constant.value, e.constant.type, {}, e.constant.id);
        break;
    case GraphEdit::Kind::EraseConstant: m_graph.eraseConstant(var(e.constant.id)); break;
    case GraphEdit::Kind::ReplaceVariable: {
        Variable* old = var(e.before);
        Variable* now = var(e.after);
        const std::vector<Client> clients = old->clients();
        for (const Client& c : clients) {
            if (c.isGraphOutput()) m_graph.setOutput(c.index, now);
            else m_graph.setInput(c.node, c.index, now);
        }
        break;
    }
    case GraphEdit::Kind::SetInput: m_graph.setInput(node(e.nodeId), e.index, var(e.after)); break;
    case GraphEdit::Kind::SetOutput: m_graph.setOutput(e.index, var(e.after)); break;
    case GraphEdit::Kind::SetOp: m_graph.setOp(node(e.nodeId), e.opAfter); break;
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
