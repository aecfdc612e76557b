#include "model/InnerGraphDiff.h"

#include "ir/Fingerprint.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace tl {

const InnerGraphDiff* StepChanges::innerOf(const NodeRef& owner) const {
    for (const InnerGraphDiff& d : inner)
        if (d.owner == owner) return &d;
    return nullptr;
}

bool InnerGraphDiff::isAdded(NodeId id) const { return std::find(added.begin(), added.end(), id) != added.end(); }

namespace {

// Constants of two bodies stand for each other when they hold the same value.
bool sameConstant(const Variable& a, const Variable& b) {
    if (!a.isConstant() || !b.isConstant() || !(a.type() == b.type())) return false;
    const NDArray& x = a.constantValue();
    const NDArray& y = b.constantValue();
    return x.shape() == y.shape() && x.toDoubles() == y.toDoubles();
}

struct Matcher {
    const Graph& before;
    const Graph& after;
    std::unordered_map<const Variable*, const Variable*> varAfterOf;  // before variable -> after variable
    std::unordered_map<const Node*, const Node*> nodeBeforeOf;        // after node -> before node
    std::unordered_set<const Node*> matchedBefore;

    void matchVariables(const Node& b, const Node& a) {
        for (int j = 0; j < b.numOutputs() && j < a.numOutputs(); ++j) varAfterOf[b.output(j)] = a.output(j);
    }

    // The after variable a before variable stands for, or null.
    const Variable* mapped(const Variable* v) const {
        auto it = varAfterOf.find(v);
        return it == varAfterOf.end() ? nullptr : it->second;
    }

    bool sameSource(const Variable* vb, const Variable* va) const {
        if (const Variable* m = mapped(vb)) return m == va;
        return vb->isConstant() && sameConstant(*vb, *va);
    }

    void run() {
        // Inputs: by id when the body kept them, else by position (a rebuilt Scan
        // renumbers its placeholders but keeps their order).
        const auto& bi = before.inputs();
        const auto& ai = after.inputs();
        std::unordered_map<VarId, const Variable*> afterInputById;
        for (const Variable* v : ai) afterInputById[v->id()] = v;
        bool byId = true;
        for (const Variable* v : bi) byId = byId && afterInputById.count(v->id());
        for (size_t i = 0; i < bi.size(); ++i) {
            if (byId) varAfterOf[bi[i]] = afterInputById[bi[i]->id()];
            else if (i < ai.size() && bi.size() == ai.size()) varAfterOf[bi[i]] = ai[i];
        }
        for (const Variable* c : before.constants())
            if (const Variable* same = after.findVariable(c->id()); same && same->isConstant()) varAfterOf[c] = same;

        // Nodes in order, so inputs are matched before their readers.
        std::unordered_map<std::string, std::vector<const Node*>> unmatchedByOp;
        const std::vector<Node*> orderBefore = before.toposort();
        for (const Node* a : after.toposort()) {
            const Node* b = before.findNode(a->id());
            if (b && b->op().kind() == a->op().kind() && !matchedBefore.count(b)) {
                accept(*b, *a);
                continue;
            }
            // Fresh ids: the same op on the same inputs.
            if (unmatchedByOp.empty())
                for (const Node* nb : orderBefore)
                    if (!after.findNode(nb->id()) || after.findNode(nb->id())->op().kind() != nb->op().kind())
                        unmatchedByOp[nb->op().name()].push_back(nb);
            auto it = unmatchedByOp.find(a->op().name());
            if (it == unmatchedByOp.end()) continue;
            for (const Node* cand : it->second) {
                if (matchedBefore.count(cand) || cand->numInputs() != a->numInputs()) continue;
                bool same = true;
                for (int i = 0; i < a->numInputs() && same; ++i) same = sameSource(cand->input(i), a->input(i));
                if (same) {
                    accept(*cand, *a);
                    break;
                }
            }
        }
    }

    void accept(const Node& b, const Node& a) {
        nodeBeforeOf[&a] = &b;
        matchedBefore.insert(&b);
        matchVariables(b, a);
    }
};

} // namespace

void diffBodies(const Graph& before, const Graph& after, const NodeRef& ownerBefore, const NodeRef& owner,
                std::vector<InnerGraphDiff>& out) {
    Matcher m{before, after, {}, {}, {}};
    m.run();
    InnerGraphDiff d;
    d.owner = owner;
    d.ownerBefore = ownerBefore;
    d.nodesBefore = static_cast<int>(before.numNodes());
    d.nodesAfter = static_cast<int>(after.numNodes());
    std::vector<std::pair<const Node*, const Node*>> nested;  // (before, after) with differing bodies
    for (const Node* a : after.toposort()) {
        auto it = m.nodeBeforeOf.find(a);
        if (it == m.nodeBeforeOf.end()) {
            d.added.push_back(a->id());
            continue;
        }
        const Node* b = it->second;
        d.matchedFrom[a->id()] = b->id();
        if (b->op().name() != a->op().name()) d.opChanged.push_back(a->id());
        else if (&b->op() != &a->op() && fingerprint(b->op()) != fingerprint(a->op())) d.opChanged.push_back(a->id());
        if (b->op().innerGraph() && a->op().innerGraph() && b->op().innerGraph() != a->op().innerGraph()) nested.emplace_back(b, a);
        for (int i = 0; i < a->numInputs() && i < b->numInputs(); ++i)
            if (!m.sameSource(b->input(i), a->input(i))) d.rewired.push_back({a->id(), i, b->input(i)->id(), a->input(i)->id()});
    }
    for (const Node* b : before.toposort())
        if (!m.matchedBefore.count(b)) d.erased.push_back(snapshotNode(*b));
    const auto& bo = before.outputs();
    const auto& ao = after.outputs();
    if (bo.size() == ao.size())
        for (size_t j = 0; j < ao.size(); ++j)
            if (!m.sameSource(bo[j], ao[j])) d.rewired.push_back({-1, static_cast<int>(j), bo[j]->id(), ao[j]->id()});

    // An erased node whose readers now read an added node of the same kind of op
    // (a Scan or Composite rebuilt, a node re-created under a new id) is drawn replaced.
    std::unordered_map<VarId, NodeId> erasedOutput;  // before variable -> erased node
    std::unordered_map<NodeId, const NodeSnapshot*> erasedById;
    for (const NodeSnapshot& s : d.erased) {
        erasedById[s.id] = &s;
        for (VarId v : s.outputIds) erasedOutput[v] = s.id;
    }
    std::set<NodeId> taken;
    for (const InnerRewiredEdge& e : d.rewired) {
        auto er = erasedOutput.find(e.before);
        const Variable* now = after.findVariable(e.after);
        if (er == erasedOutput.end() || !now || !now->owner() || !d.isAdded(now->owner()->id())) continue;
        const NodeSnapshot* s = erasedById[er->second];
        const Node* n = now->owner();
        if (d.replacedBy.count(s->id) || taken.count(n->id()) || !s->op) continue;
        const bool sameKind = s->op->kind() == n->op().kind();
        const bool bodies = s->op->innerGraph() && n->op().innerGraph();
        if (!sameKind || (!bodies && s->op->name() != n->op().name())) continue;
        d.replacedBy[s->id] = n->id();
        d.matchedFrom[n->id()] = s->id;
        taken.insert(n->id());
        if (bodies) nested.emplace_back(nullptr, n);
    }
    const bool changed = !d.empty();
    // Nested bodies after this one, so a reader meets the outer body first.
    std::vector<std::pair<const Node*, const Node*>> todo;
    for (auto [b, a] : nested) {
        if (!b) {
            // A replaced node with a body: compare with the body it replaced.
            for (const auto& [was, now] : d.replacedBy)
                if (now == a->id())
                    if (const NodeSnapshot* s = erasedById[was]; s && s->op && s->op->innerGraph())
                        diffBodies(*s->op->innerGraph(), *a->op().innerGraph(), ownerBefore.child(was), owner.child(a->id()), out);
            continue;
        }
        todo.emplace_back(b, a);
    }
    if (changed) out.push_back(std::move(d));
    for (auto [b, a] : todo) diffBodies(*b->op().innerGraph(), *a->op().innerGraph(), ownerBefore.child(b->id()), owner.child(a->id()), out);
}

std::vector<InnerGraphDiff> innerGraphDiffs(const TraceStep& step, const StepDiff& diff, const Graph& after) {
    std::vector<InnerGraphDiff> out;
    // The op each node had before the step (first SetOp) and has after it.
    std::map<NodeId, OpPtr> opBefore;
    for (const GraphEdit& e : step.edits)
        if (e.kind == GraphEdit::Kind::SetOp && e.opBefore) opBefore.try_emplace(e.nodeId, e.opBefore);
    for (const auto& [id, was] : opBefore) {
        const Node* n = after.findNode(id);
        // A node the steps created has no body before them: it is all new.
        if (!n || diff.isAdded(id) || !was->innerGraph() || !n->op().innerGraph() || was->innerGraph() == n->op().innerGraph()) continue;
        diffBodies(*was->innerGraph(), *n->op().innerGraph(), NodeRef::outer(id), NodeRef::outer(id), out);
    }
    std::map<NodeId, const NodeSnapshot*> erased;
    for (const NodeSnapshot& s : diff.erased) erased[s.id] = &s;
    for (const auto& [was, now] : diff.replacedBy) {
        auto it = erased.find(was);
        const Node* n = after.findNode(now);
        if (it == erased.end() || !n || !it->second->op) continue;
        const auto bodyBefore = it->second->op->innerGraph();
        const auto bodyAfter = n->op().innerGraph();
        if (!bodyBefore || !bodyAfter || bodyBefore == bodyAfter) continue;
        diffBodies(*bodyBefore, *bodyAfter, NodeRef::outer(was), NodeRef::outer(now), out);
    }
    return out;
}

std::vector<NodeId> sameNameOpChanges(const TraceStep& step, const StepDiff& diff, const Graph& after) {
    std::map<NodeId, OpPtr> opBefore;
    for (const GraphEdit& e : step.edits)
        if (e.kind == GraphEdit::Kind::SetOp && e.opBefore) opBefore.try_emplace(e.nodeId, e.opBefore);
    std::vector<NodeId> out;
    for (const auto& [id, was] : opBefore) {
        const Node* n = after.findNode(id);
        if (!n || diff.isAdded(id) || was->name() != n->op().name() || was.get() == &n->op()) continue;
        if (fingerprint(*was) != fingerprint(n->op())) out.push_back(id);
    }
    return out;
}

bool stepChangesNothing(const TraceStep& step, const std::function<const NDArray*(VarId)>& constantValue) {
    if (!step.attributes.empty()) return false;
    auto equalConstants = [&](VarId a, VarId b) {
        const NDArray* x = constantValue(a);
        const NDArray* y = constantValue(b);
        return x && y && x->dtype() == y->dtype() && x->shape() == y->shape() && x->toDoubles() == y->toDoubles();
    };
    for (const GraphEdit& e : step.edits) {
        switch (e.kind) {
        case GraphEdit::Kind::CreateNode:
        case GraphEdit::Kind::EraseNode: return false;
        case GraphEdit::Kind::ReplaceVariable:
        case GraphEdit::Kind::SetInput:
        case GraphEdit::Kind::SetOutput:
            // Reading an equal constant instead (merge) computes and draws the same.
            if (e.before != e.after && !equalConstants(e.before, e.after)) return false;
            break;
        case GraphEdit::Kind::SetOp:
            if (!e.opBefore || !e.opAfter) return false;
            if (e.opBefore != e.opAfter && fingerprint(*e.opBefore) != fingerprint(*e.opAfter)) return false;
            break;
        case GraphEdit::Kind::AddConstant:
        case GraphEdit::Kind::EraseConstant: break;  // constants show only through their readers
        }
    }
    return true;
}

} // namespace tl
