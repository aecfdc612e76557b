#include "rewrite/DestroyHandler.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace tl {

namespace {
// Input indices output `k` of `n` aliases (view or destroy).
std::vector<int> aliasedInputs(const Node& n, int k) {
    std::vector<int> ins;
    for (const AliasMap& m : {n.op().viewMap(), n.op().destroyMap()}) {
        auto it = m.find(k);
        if (it != m.end()) ins.insert(ins.end(), it->second.begin(), it->second.end());
    }
    return ins;
}

// Variables that alias `root` before `destroyer` overwrote it: the view tree of
// root without descending through the destroyer's own outputs.
std::vector<const Variable*> aliasesBefore(const Variable& root, const Node* destroyer) {
    std::vector<const Variable*> out, stack{&root};
    std::unordered_set<const Variable*> seen{&root};
    while (!stack.empty()) {
        const Variable* v = stack.back();
        stack.pop_back();
        out.push_back(v);
        for (const Client& c : v->clients()) {
            if (!c.node || c.node == destroyer) continue;
            for (int k = 0; k < c.node->numOutputs(); ++k) {
                auto ins = aliasedInputs(*c.node, k);
                if (std::find(ins.begin(), ins.end(), c.index) != ins.end() && seen.insert(c.node->output(k)).second)
                    stack.push_back(c.node->output(k));
            }
        }
    }
    return out;
}

struct Destruction {
    const Node* destroyer;
    int inputIndex;
    const Variable* root;
};

std::vector<Destruction> destructions(const Graph& g) {
    std::vector<Destruction> out;
    for (const Node* n : g.nodes())
        for (auto& [k, ins] : n->op().destroyMap())
            for (int i : ins)
                if (i >= 0 && i < n->numInputs()) out.push_back({n, i, aliasRoot(*n->input(i))});
    return out;
}

// Readers (other than d) of the value d destroys, which must run before d.
std::vector<const Node*> readersBefore(const Destruction& d) {
    std::vector<const Node*> readers;
    for (const Variable* a : aliasesBefore(*d.root, d.destroyer))
        for (const Client& c : a->clients())
            if (c.node && c.node != d.destroyer) readers.push_back(c.node);
    std::sort(readers.begin(), readers.end());
    readers.erase(std::unique(readers.begin(), readers.end()), readers.end());
    return readers;
}

bool isGraphOutputAlias(const Variable& root, const Node* destroyer) {
    for (const Variable* a : aliasesBefore(root, destroyer))
        for (const Client& c : a->clients())
            if (c.isGraphOutput()) return true;
    return false;
}

// True when `to` is reachable from `from` along data edges (iterative).
bool reaches(const Node* from, const Node* to) {
    std::vector<const Node*> stack{from};
    std::unordered_set<const Node*> seen{from};
    while (!stack.empty()) {
        const Node* n = stack.back();
        stack.pop_back();
        if (n == to) return true;
        for (const Variable* o : n->outputs())
            for (const Client& c : o->clients())
                if (c.node && seen.insert(c.node).second) stack.push_back(c.node);
    }
    return false;
}

std::string describe(const Variable& v) {
    if (v.isConstant()) return "a constant";
    if (v.isGraphInput()) return "graph input '" + v.name() + "'";
    if (v.owner()) return "output of " + v.owner()->label();
    return "variable " + std::to_string(v.id());
}
} // namespace

const Variable* aliasRoot(const Variable& v) {
    const Variable* cur = &v;
    // Iterative: long view chains must not recurse.
    while (cur->owner()) {
        auto ins = aliasedInputs(*cur->owner(), cur->outputIndex());
        if (ins.empty()) break;
        cur = cur->owner()->input(ins.front());
    }
    return cur;
}

std::vector<std::pair<const Node*, const Node*>> destroyOrderings(const Graph& g) {
    std::vector<std::pair<const Node*, const Node*>> out;
    for (const Destruction& d : destructions(g))
        for (const Node* r : readersBefore(d)) out.emplace_back(r, d.destroyer);
    return out;
}

std::vector<std::string> destroyHandlerProblems(const Graph& g) {
    std::vector<std::string> problems;
    std::unordered_map<const Variable*, const Node*> destroyerOf;
    auto ds = destructions(g);
    for (const Destruction& d : ds) {
        const std::string who = d.destroyer->label();
        if (d.root->isConstant()) problems.push_back(who + " destroys " + describe(*d.root));
        else if (d.root->isGraphInput())
            problems.push_back(who + " destroys protected " + describe(*d.root));
        if (isGraphOutputAlias(*d.root, d.destroyer))
            problems.push_back(who + " destroys a value that is also a graph output (" + describe(*d.root) + ")");
        auto [it, fresh] = destroyerOf.emplace(d.root, d.destroyer);
        if (!fresh && it->second != d.destroyer)
            problems.push_back(who + " and " + it->second->label() + " both destroy " + describe(*d.root));
        for (const Node* r : readersBefore(d))
            if (reaches(d.destroyer, r))
                problems.push_back(who + " destroys " + describe(*d.root) + " which " + r->label() +
                                   " still reads after it");
    }
    return problems;
}

std::optional<std::string> whyCannotDestroy(const Node& node, int inputIndex) {
    const Variable* root = aliasRoot(*node.input(inputIndex));
    if (root->isConstant()) return "input " + std::to_string(inputIndex) + " is a constant";
    if (!root->owner()) return "input " + std::to_string(inputIndex) + " is " + describe(*root) + " (protected)";
    if (isGraphOutputAlias(*root, &node)) return "input " + std::to_string(inputIndex) + " is also a graph output";
    for (const Node* other : root->graph().nodes()) {
        if (other == &node) continue;
        for (auto& [k, ins] : other->op().destroyMap())
            for (int i : ins)
                if (aliasRoot(*other->input(i)) == root)
                    return "its storage is already destroyed by " + other->label();
    }
    Destruction d{&node, inputIndex, root};
    for (const Node* r : readersBefore(d))
        if (reaches(&node, r)) return r->label() + " reads the old value after this node";
    // Several inputs of the same node aliasing the destroyed storage would be read while written.
    for (int i = 0; i < node.numInputs(); ++i)
        if (i != inputIndex && aliasRoot(*node.input(i)) == root)
            return "input " + std::to_string(i) + " aliases the same storage";
    return std::nullopt;
}

} // namespace tl
