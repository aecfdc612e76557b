#include "trace/TraceUndo.h"

#include "ir/Rewriter.h"
#include "trace/TraceRecorder.h"

#include <algorithm>
#include <unordered_set>

namespace tl {

namespace {

// The checks below run before any mutation, so a bad edit leaves the graph as it
// was (Graph's own mutators assume well-formed arguments: an input index out of
// range would be undefined behaviour, a reused output id a half-built node).
struct Problem {
    std::string what;
};

Node* needNode(const Graph& g, NodeId id) {
    Node* n = g.findNode(id);
    if (!n) throw Problem{"node " + std::to_string(id) + " does not exist"};
    return n;
}

Variable* needVariable(const Graph& g, VarId id) {
    Variable* v = g.findVariable(id);
    if (!v) throw Problem{"variable " + std::to_string(id) + " does not exist"};
    return v;
}

std::string clientName(const Client& c) {
    return c.isGraphOutput() ? "graph output " + std::to_string(c.index)
                             : c.node->label() + " input " + std::to_string(c.index);
}

void needUnused(const Node& n) {
    for (const Variable* o : n.outputs())
        if (!o->clients().empty())
            throw Problem{n.label() + " cannot be erased: output " + std::to_string(o->outputIndex()) +
                          " is still read by " + clientName(o->clients().front())};
}

void needFreshIds(const Graph& g, NodeId node, const std::vector<VarId>& outputs) {
    if (g.findNode(node)) throw Problem{"node id " + std::to_string(node) + " is already in use"};
    std::unordered_set<VarId> seen;
    for (VarId id : outputs)
        if (g.findVariable(id) || !seen.insert(id).second)
            throw Problem{"variable id " + std::to_string(id) + " is already in use"};
}

void needInputIndex(const Node& n, int index) {
    if (index < 0 || index >= n.numInputs())
        throw Problem{n.label() + " has no input " + std::to_string(index) + " (it has " +
                      std::to_string(n.numInputs()) + ")"};
}

void needOutputIndex(const Graph& g, int index) {
    if (index < 0 || index >= static_cast<int>(g.outputs().size()))
        throw Problem{"the graph has no output " + std::to_string(index) + " (it has " +
                      std::to_string(g.outputs().size()) + ")"};
}

// The rule Rewriter applies to every live replacement (one type accepts the
// other): a trace file may not do what no rewrite could.
bool interchangeable(const Type& a, const Type& b) { return a.accepts(b) || b.accepts(a); }

void needInterchangeable(const Variable& was, const Variable& now) {
    if (!interchangeable(was.type(), now.type()))
        throw Problem{"variable " + std::to_string(now.id()) + " (" + now.type().toString() + ") cannot take the place of variable " +
                      std::to_string(was.id()) + " (" + was.type().toString() + ")"};
}

void needOpFits(const Node& n, const OpPtr& op) {
    if (!op) throw Problem{n.label() + ": no op to set"};
    std::vector<const Type*> types;
    std::vector<const NDArray*> constants;
    for (const Variable* v : n.inputs()) {
        types.push_back(&v->type());
        constants.push_back(v->isConstant() ? &v->constantValue() : nullptr);
    }
    std::vector<Type> inferred;
    try {
        inferred = op->inferTypesWithConstants(types, constants);
    } catch (const std::exception& e) {
        throw Problem{n.label() + ": op " + op->name() + " does not accept its inputs: " + e.what()};
    }
    const size_t outputs = inferred.size();
    for (size_t k = 0; k < std::min(outputs, n.outputs().size()); ++k)
        if (!interchangeable(n.output(static_cast<int>(k))->type(), inferred[k]))
            throw Problem{n.label() + ": op " + op->name() + " makes output " + std::to_string(k) + " a " +
                          inferred[k].toString() + ", readers expect a " + n.output(static_cast<int>(k))->type().toString()};
    if (outputs != n.outputs().size())
        throw Problem{n.label() + ": op " + op->name() + " has " + std::to_string(outputs) + " outputs, the node " +
                      std::to_string(n.outputs().size())};
}

std::string editLabel(const GraphEdit& e, int index) {
    std::string s = "edit " + std::to_string(index) + " (" + graphEditKindName(e.kind);
    switch (e.kind) {
    case GraphEdit::Kind::CreateNode:
    case GraphEdit::Kind::EraseNode: s += " node " + std::to_string(e.node.id); break;
    case GraphEdit::Kind::AddConstant:
    case GraphEdit::Kind::EraseConstant: s += " constant " + std::to_string(e.constant.id); break;
    case GraphEdit::Kind::SetInput:
    case GraphEdit::Kind::SetOp: s += " node " + std::to_string(e.nodeId); break;
    default: break;
    }
    return s + ")";
}

} // namespace

std::string describeTraceStep(const TraceStep& step, int position) {
    std::string s = "step " + std::to_string(position + 1) + " (trace index " + std::to_string(position) + ", " +
                    (step.rewrite.empty() ? std::string("unnamed rewrite") : step.rewrite);
    if (!step.phase.empty()) s += " in phase " + step.phase;
    return s + ")";
}

void StepUndo::clear() {
    m_ops.clear();
    m_nodes.clear();
    m_constants.clear();
    m_opsBefore.clear();
    m_ready = false;
}

namespace {
std::string editLabelAt(const TraceStep& step, int index) {
    if (index >= 0 && index < static_cast<int>(step.edits.size())) return editLabel(step.edits[static_cast<size_t>(index)], index);
    return "edit " + std::to_string(index);
}
} // namespace

// Puts the graph back as it was before the step, then reports the bad edit.
void failApply(Rewriter& rw, const TraceStep& step, int position, int edit, const std::string& why, StepUndo& undo) {
    const std::string what = describeTraceStep(step, position) + " does not apply: " + editLabelAt(step, edit) + ": " + why;
    bool intact = true;
    try {
        undo.run(rw, undo.m_ops.size(), step, position);
    } catch (const std::exception&) {
        intact = false;
    }
    undo.clear();
    throw TraceReplayError(what, intact);
}

void applyTraceStep(Rewriter& rw, const TraceStep& step, int position, StepUndo& undo) {
    undo.clear();
    const Graph& g = rw.graph();
    using Op = StepUndo::Op;
    int i = 0;
    try {
        for (; i < static_cast<int>(step.edits.size()); ++i) {
            const GraphEdit& e = step.edits[static_cast<size_t>(i)];
            switch (e.kind) {
            case GraphEdit::Kind::CreateNode:
                needFreshIds(g, e.node.id, e.node.outputIds);
                for (VarId in : e.node.inputs) needVariable(g, in);
                if (!e.node.op) throw Problem{"node " + std::to_string(e.node.id) + " has no op"};
                rw.replayEdit(e);
                undo.m_ops.push_back(Op{Op::Kind::EraseNode, i, 0, e.node.id, 0});
                break;
            case GraphEdit::Kind::EraseNode: {
                const Node* n = needNode(g, e.node.id);
                needUnused(*n);
                undo.m_nodes.push_back(snapshotNode(*n));
                rw.replayEdit(e);
                undo.m_ops.push_back(Op{Op::Kind::RestoreNode, i, static_cast<int32_t>(undo.m_nodes.size() - 1), 0, 0});
                break;
            }
            case GraphEdit::Kind::AddConstant:
                if (g.findVariable(e.constant.id))
                    throw Problem{"variable id " + std::to_string(e.constant.id) + " is already in use"};
                rw.replayEdit(e);
                undo.m_ops.push_back(Op{Op::Kind::EraseConstant, i, 0, e.constant.id, 0});
                break;
            case GraphEdit::Kind::EraseConstant: {
                const Variable* c = needVariable(g, e.constant.id);
                if (!c->isConstant()) throw Problem{"variable " + std::to_string(c->id()) + " is not a constant"};
                if (!c->clients().empty())
                    throw Problem{"constant " + std::to_string(c->id()) + " is still read by " + clientName(c->clients().front())};
                undo.m_constants.push_back(ConstantSnapshot{c->id(), c->type(), c->constantValue(), c->name()});
                rw.replayEdit(e);
                undo.m_ops.push_back(
                    Op{Op::Kind::RestoreConstant, i, static_cast<int32_t>(undo.m_constants.size() - 1), 0, 0});
                break;
            }
            case GraphEdit::Kind::ReplaceVariable: {
                const Variable* before = needVariable(g, e.before);
                needInterchangeable(*before, *needVariable(g, e.after));
                // Which clients moved is not in the edit: read it off the graph.
                for (const Client& c : before->clients())
                    undo.m_ops.push_back(c.isGraphOutput() ? Op{Op::Kind::SetOutput, i, c.index, 0, e.before}
                                                           : Op{Op::Kind::SetInput, i, c.index, c.node->id(), e.before});
                rw.replayEdit(e);
                break;
            }
            case GraphEdit::Kind::SetInput: {
                const Node* n = needNode(g, e.nodeId);
                needInputIndex(*n, e.index);
                needInterchangeable(*n->input(e.index), *needVariable(g, e.after));
                const VarId was = n->input(e.index)->id();
                if (e.before >= 0 && e.before != was)
                    throw Problem{n->label() + " input " + std::to_string(e.index) + " is variable " + std::to_string(was) +
                                  ", the edit expects " + std::to_string(e.before)};
                rw.replayEdit(e);
                undo.m_ops.push_back(Op{Op::Kind::SetInput, i, e.index, e.nodeId, was});
                break;
            }
            case GraphEdit::Kind::SetOutput: {
                needOutputIndex(g, e.index);
                needInterchangeable(*g.output(e.index), *needVariable(g, e.after));
                const VarId was = g.output(e.index)->id();
                if (e.before >= 0 && e.before != was)
                    throw Problem{"graph output " + std::to_string(e.index) + " is variable " + std::to_string(was) +
                                  ", the edit expects " + std::to_string(e.before)};
                rw.replayEdit(e);
                undo.m_ops.push_back(Op{Op::Kind::SetOutput, i, e.index, 0, was});
                break;
            }
            case GraphEdit::Kind::SetOp: {
                const Node* n = needNode(g, e.nodeId);
                needOpFits(*n, e.opAfter);
                undo.m_opsBefore.push_back(n->opPtr());
                rw.replayEdit(e);
                undo.m_ops.push_back(Op{Op::Kind::SetOp, i, static_cast<int32_t>(undo.m_opsBefore.size() - 1), e.nodeId, 0});
                break;
            }
            }
        }
    } catch (const Problem& p) {
        failApply(rw, step, position, i, p.what, undo);
    } catch (const std::exception& ex) {
        // Graph's own checks (type inference of a created node...) also run before mutating.
        failApply(rw, step, position, i, ex.what(), undo);
    }
    undo.m_ready = true;
}

void StepUndo::run(Rewriter& rw, size_t count, const TraceStep& step, int position) const {
    const Graph& g = rw.graph();
    GraphEdit e;  // reused: the inverse edits Rewriter::replayEdit makes
    size_t k = count;
    try {
        for (; k-- > 0;) {
            const Op& op = m_ops[k];
            switch (op.kind) {
            case Op::Kind::EraseNode:
                needUnused(*needNode(g, op.id));
                e.kind = GraphEdit::Kind::EraseNode;
                e.node.id = op.id;
                rw.replayEdit(e);
                break;
            case Op::Kind::RestoreNode: {
                const NodeSnapshot& s = m_nodes[static_cast<size_t>(op.index)];
                needFreshIds(g, s.id, s.outputIds);
                for (VarId in : s.inputs) needVariable(g, in);
                rw.restoreNode(s);
                break;
            }
            case Op::Kind::EraseConstant: {
                const Variable* c = needVariable(g, op.id);
                if (!c->isConstant() || !c->clients().empty())
                    throw Problem{"constant " + std::to_string(op.id) + " is still read or is not a constant"};
                e.kind = GraphEdit::Kind::EraseConstant;
                e.constant.id = op.id;
                rw.replayEdit(e);
                break;
            }
            case Op::Kind::RestoreConstant: {
                const ConstantSnapshot& c = m_constants[static_cast<size_t>(op.index)];
                if (g.findVariable(c.id)) throw Problem{"variable id " + std::to_string(c.id) + " is already in use"};
                rw.restoreConstant(c);
                break;
            }
            case Op::Kind::SetInput:
                needInputIndex(*needNode(g, op.id), op.index);
                needVariable(g, op.var);
                e.kind = GraphEdit::Kind::SetInput;
                e.nodeId = op.id;
                e.index = op.index;
                e.after = op.var;
                rw.replayEdit(e);
                break;
            case Op::Kind::SetOutput:
                needOutputIndex(g, op.index);
                needVariable(g, op.var);
                e.kind = GraphEdit::Kind::SetOutput;
                e.index = op.index;
                e.after = op.var;
                rw.replayEdit(e);
                break;
            case Op::Kind::SetOp:
                needNode(g, op.id);
                e.kind = GraphEdit::Kind::SetOp;
                e.nodeId = op.id;
                e.opAfter = m_opsBefore[static_cast<size_t>(op.index)];
                rw.replayEdit(e);
                e.opAfter.reset();
                break;
            }
        }
    } catch (const Problem& p) {
        throw TraceReplayError("cannot undo " + describeTraceStep(step, position) + ": " + editLabelAt(step, m_ops[k].edit) +
                                   ": " + p.what,
                               false);
    } catch (const TraceReplayError&) {
        throw;
    } catch (const std::exception& ex) {
        throw TraceReplayError("cannot undo " + describeTraceStep(step, position) + ": " + editLabelAt(step, m_ops[k].edit) +
                                   ": " + ex.what(),
                               false);
    }
}

void undoTraceStep(Rewriter& rw, const TraceStep& step, int position, const StepUndo& undo) {
    if (!undo.m_ready) throw TraceReplayError("cannot undo " + describeTraceStep(step, position) + ": it was never applied", true);
    undo.run(rw, undo.m_ops.size(), step, position);
}

} // namespace tl
