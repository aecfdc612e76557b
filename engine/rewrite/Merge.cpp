// merge: common-subexpression elimination, as PyTensor's MergeOptimizer.
//   c1 = 2.0, c2 = 2.0            -> one constant 2.0
//   a = exp(x), b = exp(x)        -> b's clients use a
// Constants merge when type and bytes are equal; nodes when their ops are equivalent
// (inner graphs of Scan/Composite compared structurally, rewrite/GraphEquality.h) and
// their inputs are the same variables. One pass of hash-consing in topological
// order finds every merge (inputs are merged before their clients are looked at), so
// the pass is linear in the graph's size.
//
// Never merged (each a deliberate decision, see docs/rewrites/merge.md):
// - nodes that destroy an input (two destroyers of one value cannot both run);
// - nodes whose fresh output some node destroys (the merge would hand that buffer
//   to the other node's readers too);
// - fresh buffers meant to be overwritten: AllocEmpty, Alloc feeding input 0 of an
//   IncSubtensor/SetSubtensor (PyTensor's Alloc rule), and a SetSubtensor into such a
//   buffer (a Scan's initial trace). Merging two saves no work and leaves only one of
//   their writers (two Scans, two inplace SetSubtensors) able to work in place.
//   Their clients still compare them by value: two identical Scans reading
//   SetSubtensor(AllocEmpty(11, 7), x0) each merge into one, and the second buffer,
//   then unused, is pruned;
// - DeepCopyOp (it exists to make distinct arrays) and Opaque ops (nothing says they
//   are pure);
// - in final_merge (after output protection): two nodes that both produce graph
//   outputs, which would make two outputs one array again.
//
// Trace: constants merge in one step per value (all copies of `2.0` at once: one
// fact); nodes in one step per merged node, rooted at the survivor, so the GUI
// shows each duplicate disappear.
#include "analysis/DestroyHandler.h"
#include "core/HashMix.h"
#include "analysis/GraphEquality.h"
#include "rewrite/MergeTable.h"
#include "rewrite/Rewrites.h"

#include <string>
#include <unordered_map>
#include <unordered_set>

namespace tl {

namespace {

class MergePass final : public GraphPass {
public:
    explicit MergePass(bool afterOutputProtection) : m_final(afterOutputProtection) {}
    std::string_view name() const override { return "merge"; }
    std::vector<std::string> tags() const override { return {"fast_run", "fast_compile", "merge"}; }
    bool run(Rewriter& rewriter, const RewriteOptions& options) override;

private:
    bool mergeConstants(Rewriter& rewriter);
    bool mergeNodes(Rewriter& rewriter);
    bool m_final;
};

bool hasGraphOutput(const Node& n) {
    for (const Variable* o : n.outputs())
        for (const Client& c : o->clients())
            if (c.isGraphOutput()) return true;
    return false;
}

// Unreachable leftovers of an imported graph are not merged: nothing would move.
bool hasClients(const Node& n) {
    for (const Variable* o : n.outputs())
        if (!o->clients().empty()) return true;
    return false;
}

bool feedsIncSubtensorTarget(const Node& n) {
    for (const Client& c : n.output(0)->clients())
        if (c.node && c.index == 0 && c.node->op().kind() == OpKind::IncSubtensor) return true;
    return false;
}

/// A node making a fresh buffer that its clients may overwrite: AllocEmpty, an Alloc
/// feeding input 0 of an IncSubtensor, and a (not inplace) Set/IncSubtensor into such
/// a buffer (a Scan's initial trace). Never merged itself, but compared by value in
/// its clients' keys. `freshVars` holds the outputs of such nodes seen so far.
bool isFreshBuffer(const Node& n, const std::unordered_set<VarId>& freshVars) {
    switch (n.op().kind()) {
    case OpKind::AllocEmpty: return true;
    case OpKind::Alloc: return feedsIncSubtensorTarget(n);
    case OpKind::IncSubtensor: return n.op().destroyMap().empty() && freshVars.count(n.input(0)->id()) > 0;
    default: return false;
    }
}

bool mergeable(const Node& n, const std::unordered_set<const Variable*>& destroyedRoots) {
    if (n.op().kind() == OpKind::AllocEmpty || n.op().kind() == OpKind::DeepCopy || n.op().kind() == OpKind::Opaque)
        return false;
    if (!n.op().destroyMap().empty()) return false;
    for (const Variable* o : n.outputs())
        if (destroyedRoots.count(o)) return false;
    return hasClients(n);
}

bool MergePass::run(Rewriter& rewriter, const RewriteOptions&) {
    const bool constants = mergeConstants(rewriter);
    const bool nodes = mergeNodes(rewriter);
    return constants || nodes;
}

bool MergePass::mergeConstants(Rewriter& rewriter) {
    const Graph& g = rewriter.graph();
    // Groups of equal constants in id order: the oldest copy survives.
    std::unordered_multimap<size_t, Variable*> seen;
    std::vector<std::vector<Variable*>> groups;  // [survivor, copies...]
    std::unordered_map<Variable*, size_t> groupOf;
    for (Variable* c : g.constants()) {
        if (c->clients().empty()) continue;
        const size_t h = constantHash(*c);
        auto [lo, hi] = seen.equal_range(h);
        Variable* same = nullptr;
        for (auto it = lo; it != hi && !same; ++it)
            if (constantsEqual(*it->second, *c)) same = it->second;
        if (!same) {
            seen.emplace(h, c);
            continue;
        }
        auto gi = groupOf.find(same);
        if (gi == groupOf.end()) {
            gi = groupOf.emplace(same, groups.size()).first;
            groups.push_back({same});
        }
        groups[gi->second].push_back(c);
    }
    for (const std::vector<Variable*>& group : groups) {
        Variable* keep = group.front();
        const Node* root = nullptr;
        for (const Client& c : keep->clients())
            if (c.node) {
                root = c.node;
                break;
            }
        {
            RewriteScope step(rewriter, name(), root);
            for (size_t i = 1; i < group.size(); ++i) rewriter.replace(group[i], keep);
            step.setChanged();
        }
    }
    return !groups.empty();
}

bool MergePass::mergeNodes(Rewriter& rewriter) {
    const Graph& g = rewriter.graph();
    // Values some node destroys (through any chain of views): their producers stay apart.
    std::unordered_set<const Variable*> destroyedRoots;
    for (const Node* n : g.nodes())
        for (const auto& [k, ins] : n->op().destroyMap())
            for (int i : ins)
                if (i >= 0 && i < n->numInputs()) destroyedRoots.insert(aliasRoot(*n->input(i)));

    StructuralNumbering ops;  // op equivalence classes (structural for inner graphs)
    struct Key {
        int64_t opClass;
        std::vector<VarId> inputs;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        size_t operator()(const Key& k) const {
            return hashMix(IntListHash{}(k.inputs), static_cast<uint64_t>(k.opClass));
        }
    };
    MergeTable table(ops, g.numNodes());
    std::unordered_map<Key, VarId, KeyHash> freshBuffers;  // key -> output of the first such buffer
    std::unordered_map<VarId, VarId> byValue;              // a fresh buffer's output -> that first one
    std::unordered_set<VarId> freshVars;

    std::vector<NodeId> order;
    order.reserve(g.numNodes());
    for (Node* n : g.toposort()) order.push_back(n->id());
    bool changed = false;
    std::vector<VarId> inputs;
    for (NodeId id : order) {
        Node* node = g.findNode(id);
        if (!node) continue;
        inputs.clear();
        for (const Variable* in : node->inputs()) {
            auto alias = byValue.find(in->id());
            inputs.push_back(alias == byValue.end() ? in->id() : alias->second);
        }
        if (isFreshBuffer(*node, freshVars)) {
            freshVars.insert(node->output(0)->id());
            auto [fb, first] = freshBuffers.emplace(Key{ops.opClass(node->opPtr()), inputs}, node->output(0)->id());
            if (!first) byValue[node->output(0)->id()] = fb->second;
            continue;
        }
        if (!mergeable(*node, destroyedRoots)) continue;
        auto [representative, fresh] = table.emplace(*node, inputs);
        if (fresh) continue;
        Node* rep = g.findNode(representative);
        if (!rep || !mergeable(*rep, destroyedRoots)) {
            representative = id;
            continue;
        }
        if (m_final && hasGraphOutput(*rep) && hasGraphOutput(*node)) {
            rewriter.notifyMatchFailure(name(), *node, [&] {
                return "computes what " + rep->label() + " computes, but both are graph outputs: one array for two outputs would alias them";
            });
            continue;
        }
        // Keep the node with the more specific static types (PyTensor keeps the most
        // specific type so no inference is undone); skip when neither is.
        bool repAtLeast = true, nodeAtLeast = true;
        for (int k = 0; k < node->numOutputs(); ++k) {
            const Type& tr = rep->output(k)->type();
            const Type& tn = node->output(k)->type();
            if (tr == tn) continue;
            repAtLeast = repAtLeast && tn.accepts(tr);
            nodeAtLeast = nodeAtLeast && tr.accepts(tn);
        }
        if (!repAtLeast && !nodeAtLeast) {
            rewriter.notifyMatchFailure(name(), *node, [&] {
                return "computes what " + rep->label() + " computes, but each has a static type the other lacks";
            });
            continue;
        }
        Node* keep = repAtLeast ? rep : node;
        Node* drop = repAtLeast ? node : rep;
        representative = keep->id();
        // Ids first: the dropped node (and its outputs) is pruned as soon as its last
        // client moves, which may happen before its last output is visited.
        std::vector<std::pair<VarId, Variable*>> moves;
        for (int k = 0; k < drop->numOutputs(); ++k) moves.emplace_back(drop->output(k)->id(), keep->output(k));
        {
            RewriteScope step(rewriter, name(), keep);
            for (auto& [fromId, to] : moves) {
                Variable* from = g.findVariable(fromId);
                if (from && !from->clients().empty()) rewriter.replace(from, to);
            }
            step.setChanged();
        }
        changed = true;
    }
    return changed;
}

} // namespace

std::unique_ptr<GraphPass> makeMergePass() { return std::make_unique<MergePass>(false); }
std::unique_ptr<GraphPass> makeFinalMergePass() { return std::make_unique<MergePass>(true); }

} // namespace tl
