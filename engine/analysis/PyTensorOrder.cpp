#include "analysis/PyTensorOrder.h"

#include <algorithm>
#include <deque>
#include <unordered_map>
#include <unordered_set>

namespace tl {

namespace {

// A walked object: an Apply node or a variable (walk_toposort visits both).
struct Obj {
    const void* p = nullptr;
    bool node = false;
    friend bool operator==(const Obj&, const Obj&) = default;
};
struct ObjHash {
    size_t operator()(const Obj& o) const { return std::hash<const void*>()(o.p); }
};

Obj of(const Node* n) { return {n, true}; }
Obj of(const Variable* v) { return {v, false}; }

using Orderings = std::unordered_map<const Node*, std::vector<const Node*>>;

// DestroyHandler.orderings: for each destroyer, the other clients of the destroyed
// input's root and of every view of that root.
Orderings destroyOrderings(const Graph& g) {
    std::vector<const Node*> nodes(g.nodes().begin(), g.nodes().end());
    std::sort(nodes.begin(), nodes.end(), [](auto* a, auto* b) { return a->id() < b->id(); });  // import order
    std::unordered_map<const Variable*, const Variable*> viewI;
    std::unordered_map<const Variable*, std::vector<const Variable*>> viewO;
    std::unordered_map<const Variable*, std::vector<const Node*>> clients;  // DestroyHandler.clients: apps only
    for (const Node* n : nodes) {
        for (const auto& [o, ins] : n->op().viewMap()) {
            if (ins.empty() || o >= n->numOutputs() || ins[0] >= n->numInputs()) continue;
            viewI[n->output(o)] = n->input(ins[0]);
            auto& vo = viewO[n->input(ins[0])];
            if (std::find(vo.begin(), vo.end(), n->output(o)) == vo.end()) vo.push_back(n->output(o));
        }
        for (const Variable* in : n->inputs()) {
            auto& c = clients[in];
            if (c.empty() || c.back() != n) c.push_back(n);  // nodes come in order: repeats are adjacent
        }
    }
    Orderings rval;
    for (const Node* app : nodes) {
        AliasMap dm = app->op().destroyMap();
        if (dm.empty()) continue;
        std::vector<const Node*> rootClients;
        std::unordered_set<const Node*> inRootClients;
        for (const auto& [o, ins] : dm) {
            if (ins.empty() || ins[0] >= app->numInputs()) continue;
            const Variable* root = app->input(ins[0]);
            for (auto it = viewI.find(root); it != viewI.end(); it = viewI.find(root)) root = it->second;
            std::vector<const Variable*> impact;  // views of root, breadth first, then root
            std::deque<const Variable*> q{root};
            while (!q.empty()) {
                const Variable* v = q.front();
                q.pop_front();
                auto vo = viewO.find(v);
                if (vo == viewO.end()) continue;
                for (const Variable* w : vo->second)
                    if (std::find(impact.begin(), impact.end(), w) == impact.end()) {
                        impact.push_back(w);
                        q.push_back(w);
                    }
            }
            impact.push_back(root);
            for (const Variable* r : impact)
                for (const Node* a : clients[r])
                    if (inRootClients.insert(a).second) rootClients.push_back(a);
        }
        std::erase(rootClients, app);
        if (!rootClients.empty()) rval[app] = std::move(rootClients);
    }
    return rval;
}

// pytensor.graph.traversal.toposort: the stack-based order used without orderings.
// `firstOutputFirst`: the older io_toposort, whose stack held the outputs reversed.
std::vector<const Node*> plainToposort(const Graph& g, bool firstOutputFirst) {
    std::vector<const Node*> order;
    std::unordered_set<const Variable*> computed;
    std::vector<const Variable*> todo(g.outputs().begin(), g.outputs().end());
    if (firstOutputFirst) std::reverse(todo.begin(), todo.end());
    while (!todo.empty()) {
        const Variable* cur = todo.back();
        todo.pop_back();
        const Node* apply = cur->owner();
        if (computed.count(cur) || !apply) continue;
        std::vector<const Variable*> uncomputed;
        for (const Variable* i : apply->inputs())
            if (!computed.count(i) && i->owner()) uncomputed.push_back(i);
        if (uncomputed.empty()) {
            order.push_back(apply);
            for (const Variable* o : apply->outputs()) computed.insert(o);
        } else {
            todo.push_back(cur);
            todo.insert(todo.end(), uncomputed.begin(), uncomputed.end());
        }
    }
    return order;
}

// pytensor.graph.traversal.walk_toposort with toposort_with_orderings' deps.
std::vector<const Node*> walkToposort(const Graph& g, const Orderings& orderings) {
    auto extra = [&](const Node* n) -> const std::vector<const Node*>* {
        auto it = orderings.find(n);
        return it == orderings.end() ? nullptr : &it->second;
    };
    auto deps = [&](const Obj& o) {
        std::vector<Obj> d;
        const Node* apply = nullptr;
        if (o.node) {
            apply = static_cast<const Node*>(o.p);
            for (const Variable* i : apply->inputs()) d.push_back(of(i));
        } else if ((apply = static_cast<const Variable*>(o.p)->owner())) {
            d.push_back(of(apply));
        }
        if (apply)
            if (auto* e = extra(apply))
                for (const Node* n : *e) d.push_back(of(n));
        return d;
    };
    std::unordered_map<Obj, std::vector<Obj>, ObjHash> depsCache, clients;
    std::deque<Obj> sources;
    std::unordered_set<Obj, ObjHash> seen;
    std::vector<Obj> stack;
    for (const Variable* o : g.outputs()) stack.push_back(of(o));
    // Depth-first discovery: pop from the end, push children in order.
    while (!stack.empty()) {
        Obj o = stack.back();
        stack.pop_back();
        if (!seen.insert(o).second) continue;
        std::vector<Obj> d = deps(o);
        for (const Obj& c : d) clients[c].push_back(o);
        if (d.empty()) sources.push_back(o);
        stack.insert(stack.end(), d.begin(), d.end());
        depsCache[o] = std::move(d);
    }
    // Kahn's algorithm with a FIFO of ready objects.
    std::vector<const Node*> order;
    std::unordered_set<Obj, ObjHash> done;
    while (!sources.empty()) {
        Obj o = sources.front();
        sources.pop_front();
        if (!done.insert(o).second) continue;
        if (o.node) order.push_back(static_cast<const Node*>(o.p));
        auto cl = clients.find(o);
        if (cl == clients.end()) continue;
        for (const Obj& c : cl->second) {
            auto& d = depsCache[c];
            std::erase(d, o);
            if (d.empty()) sources.push_back(c);
        }
    }
    return order;
}

} // namespace

PyTensorToposortRule pytensorToposortRuleFor(const Graph& g) {
    for (const Node* n : g.nodes())
        if (n->op().kind() == OpKind::Unbroadcast) return PyTensorToposortRule::Before;
    return PyTensorToposortRule::Current;
}

std::vector<const Node*> pytensorToposort(const Graph& g, PyTensorToposortRule rule) {
    if (rule == PyTensorToposortRule::Auto) rule = pytensorToposortRuleFor(g);
    Orderings orderings = destroyOrderings(g);
    if (orderings.empty()) return plainToposort(g, rule == PyTensorToposortRule::Before);
    return walkToposort(g, orderings);
}

} // namespace tl
