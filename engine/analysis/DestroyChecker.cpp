#include "analysis/DestroyChecker.h"

#include <algorithm>
#include <unordered_set>

namespace tl {

namespace {
std::string inputName(int i) { return "input " + std::to_string(i); }

std::string describeRoot(const Variable& v) {
    if (v.isConstant()) return "a constant";
    if (!v.owner()) return v.name().empty() ? "a graph input (protected)" : "graph input '" + v.name() + "' (protected)";
    return "the output of " + v.owner()->label();
}
} // namespace

const Variable* viewRoot(const Variable& v) {
    const Variable* cur = &v;
    // Iterative: long view chains must not recurse.
    while (const Node* n = cur->owner()) {
        const AliasMap vm = n->op().viewMap();
        auto it = vm.find(cur->outputIndex());
        if (it == vm.end() || it->second.empty()) break;
        const int i = it->second.front();
        if (i < 0 || i >= n->numInputs()) break;
        cur = n->input(i);
    }
    return cur;
}

std::vector<const Variable*> viewTree(const Variable& root) {
    std::vector<const Variable*> out{&root};
    std::unordered_set<const Variable*> seen{&root};
    for (size_t k = 0; k < out.size(); ++k)
        for (const Client& c : out[k]->clients()) {
            if (!c.node) continue;
            for (const auto& [o, ins] : c.node->op().viewMap())
                if (std::find(ins.begin(), ins.end(), c.index) != ins.end() && o < c.node->numOutputs() &&
                    seen.insert(c.node->output(o)).second)
                    out.push_back(c.node->output(o));
        }
    return out;
}

std::string aliasMapText(const AliasMap& m) {
    std::string s = "{";
    for (const auto& [o, ins] : m) {
        if (s.size() > 1) s += ", ";
        s += std::to_string(o) + ": [";
        for (size_t k = 0; k < ins.size(); ++k) s += (k ? ", " : "") + std::to_string(ins[k]);
        s += "]";
    }
    return s + "}";
}

DestroyChecker::DestroyChecker(const Graph& g) {
    const std::vector<Node*> topo = g.toposort();
    m_ord.assign(g.numNodes(), -1);
    m_seen.assign(g.numNodes(), 0);
    m_want.assign(g.numNodes(), 0);
    for (const Node* n : topo) {
        m_ord[slot(n)] = static_cast<int>(m_at.size());
        m_at.push_back(n);
    }
    // Over the original order: registering reorders m_at.
    for (const Node* n : topo)
        for (const auto& [k, ins] : n->op().destroyMap())
            for (int i : ins) (void)tryDestroy(*n, i);
}

bool DestroyChecker::contains(const Node& n) const {
    if (slot(&n) >= m_ord.size()) return false;
    const int o = m_ord[slot(&n)];
    return o >= 0 && m_at[static_cast<size_t>(o)] == &n;
}

template <typename F> void DestroyChecker::forEachSucc(const Node* n, F&& f) {
    for (const Variable* o : n->outputs())
        for (const Client& c : o->clients())
            if (c.node) f(c.node);
    if (!m_extraSucc.empty())
        for (const Node* m : m_extraSucc[slot(n)]) f(m);
}

template <typename F> void DestroyChecker::forEachPred(const Node* n, F&& f) {
    for (const Variable* v : n->inputs())
        if (v->owner()) f(v->owner());
    if (!m_extraPred.empty())
        for (const Node* m : m_extraPred[slot(n)]) f(m);
}

const Node* DestroyChecker::firstReached(const Node* from, const std::vector<const Node*>& targets) {
    const int start = ord(from);
    int bound = -1;
    newVisit();
    for (const Node* t : targets)
        if (ord(t) > start) {
            mark(m_want, t);
            bound = std::max(bound, ord(t));
        }
    if (bound < 0) return nullptr;  // the order is topological: nothing earlier is reachable
    std::vector<const Node*> stack{from};
    mark(m_seen, from);
    while (!stack.empty()) {
        const Node* n = stack.back();
        stack.pop_back();
        if (marked(m_want, n)) return n;
        forEachSucc(n, [&](const Node* m) {
            if (ord(m) <= bound && mark(m_seen, m)) stack.push_back(m);
        });
    }
    return nullptr;
}

void DestroyChecker::addOrderings(const std::vector<const Node*>& befores, const Node* after) {
    // Pearce-Kelly, all edges at once: the nodes `after` reaches up to the latest
    // reader's position (F) and the nodes reaching a late reader down to `after`'s
    // position (B) swap places, B first, each keeping its relative order. F only
    // moves up and B only down, so every other edge still points forward.
    const int lb = ord(after);
    int ub = -1;
    std::vector<const Node*> bwd;
    newVisit();  // m_want marks B, m_seen marks F
    for (const Node* r : befores)
        if (r != after && ord(r) > lb && mark(m_want, r)) {
            bwd.push_back(r);
            ub = std::max(ub, ord(r));
        }
    if (!bwd.empty()) {
        std::vector<const Node*> fwd{after};
        mark(m_seen, after);
        for (size_t k = 0; k < fwd.size(); ++k)
            forEachSucc(fwd[k], [&](const Node* m) {
                if (ord(m) <= ub && mark(m_seen, m)) fwd.push_back(m);
            });
        for (size_t k = 0; k < bwd.size(); ++k)
            forEachPred(bwd[k], [&](const Node* m) {
                if (ord(m) >= lb && mark(m_want, m)) bwd.push_back(m);
            });
        auto byOrd = [&](const Node* a, const Node* b) { return ord(a) < ord(b); };
        std::sort(fwd.begin(), fwd.end(), byOrd);
        std::sort(bwd.begin(), bwd.end(), byOrd);
        std::vector<int> slots;
        for (const Node* n : bwd) slots.push_back(ord(n));
        for (const Node* n : fwd) slots.push_back(ord(n));
        std::sort(slots.begin(), slots.end());
        size_t s = 0;
        for (const auto* list : {&bwd, &fwd})
            for (const Node* n : *list) {
                m_ord[slot(n)] = slots[s];
                m_at[static_cast<size_t>(slots[s])] = n;
                ++s;
            }
    }
    if (m_extraSucc.empty()) {
        m_extraSucc.resize(m_ord.size());
        m_extraPred.resize(m_ord.size());
    }
    for (const Node* r : befores)
        if (r != after) {
            m_extraSucc[slot(r)].push_back(after);
            m_extraPred[slot(after)].push_back(r);
        }
}

std::optional<std::string> DestroyChecker::check(const Node& node, int i, Plan& plan) {
    if (i < 0 || i >= node.numInputs()) return inputName(i) + " does not exist";
    if (!contains(node)) return node.label() + " is not in the graph";
    const Variable* root = viewRoot(*node.input(i));
    if (root->isConstant() || !root->owner()) return inputName(i) + " is " + describeRoot(*root);
    if (auto it = m_destroyerOf.find(root); it != m_destroyerOf.end() && it->second != &node)
        return "its value is already destroyed by " + it->second->label();
    std::vector<const Node*> readers;
    for (const Variable* a : viewTree(*root))
        for (const Client& c : a->clients()) {
            if (c.isGraphOutput()) return inputName(i) + " (or a view of it) is a graph output";
            if (c.node != &node) readers.push_back(c.node);
            else if (c.index != i) return inputName(c.index) + " reads the same value";
        }
    std::sort(readers.begin(), readers.end(), [&](const Node* a, const Node* b) { return ord(a) < ord(b); });
    readers.erase(std::unique(readers.begin(), readers.end()), readers.end());
    if (const Node* late = firstReached(&node, readers)) return late->label() + " reads the value after this node";
    plan.root = root;
    plan.readers = std::move(readers);
    return std::nullopt;
}

std::optional<std::string> DestroyChecker::whyCannotDestroy(const Node& node, int inputIndex) {
    Plan plan;
    return check(node, inputIndex, plan);
}

std::optional<std::string> DestroyChecker::tryDestroy(const Node& node, int inputIndex) {
    Plan plan;
    if (auto why = check(node, inputIndex, plan)) return why;
    // No reader is reachable from node, so none of these orderings can close a cycle
    // (a path node -> ... -> r2 through a new edge r1 -> node would need node -> r1).
    addOrderings(plan.readers, &node);
    m_destroyerOf[plan.root] = &node;
    return std::nullopt;
}

} // namespace tl
