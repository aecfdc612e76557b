#include "analysis/DestroyHandler.h"

#include "analysis/DestroyChecker.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

// Values are grouped by view_map only, as PyTensor's DestroyHandler and the
// executor do: the output of a destroyer starts a new value in the old memory,
// so a chain of inplace ops (sin_inplace(exp_inplace(x))) destroys two values,
// each once. aliasRoot, which follows destroy_map too, answers the memory
// question output protection asks.

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

struct Destruction {
    const Node* destroyer;
    int inputIndex;
    const Variable* root;  // view root of the destroyed input
};

std::vector<Destruction> destructions(const Graph& g) {
    std::vector<Destruction> out;
    for (const Node* n : g.toposort())
        for (auto& [k, ins] : n->op().destroyMap())
            for (int i : ins)
                if (i >= 0 && i < n->numInputs()) out.push_back({n, i, viewRoot(*n->input(i))});
    return out;
}

// Readers (other than d's destroyer) of the value d destroys and of its views:
// they must run before the destroyer. Also tells whether a view is a graph output.
std::vector<const Node*> readersBefore(const Destruction& d, bool* isOutput = nullptr) {
    std::vector<const Node*> readers;
    for (const Variable* a : viewTree(*d.root))
        for (const Client& c : a->clients()) {
            if (c.node && c.node != d.destroyer) readers.push_back(c.node);
            if (!c.node && isOutput) *isOutput = true;
        }
    std::sort(readers.begin(), readers.end(), [](const Node* a, const Node* b) { return a->id() < b->id(); });
    readers.erase(std::unique(readers.begin(), readers.end()), readers.end());
    return readers;
}

std::string describe(const Variable& v) {
    if (v.isConstant()) return "a constant";
    if (v.isGraphInput() || !v.owner())
        return v.name().empty() ? "graph input #" + std::to_string(v.id()) : "graph input '" + v.name() + "'";
    return "output of " + v.owner()->label();
}

using Successors = std::unordered_map<const Node*, std::vector<const Node*>>;

// Nodes left on a cycle of data edges plus `extra` orderings (Kahn's algorithm; empty when acyclic).
std::unordered_set<const Node*> cyclicNodes(const Graph& g, const Successors& extra) {
    std::unordered_map<const Node*, int> indegree;
    auto succ = [&](const Node* n, auto&& f) {
        for (const Variable* o : n->outputs())
            for (const Client& c : o->clients())
                if (c.node) f(c.node);
        if (auto it = extra.find(n); it != extra.end())
            for (const Node* m : it->second) f(m);
    };
    for (const Node* n : g.nodes()) indegree[n];
    for (const Node* n : g.nodes()) succ(n, [&](const Node* m) { ++indegree[m]; });
    std::vector<const Node*> ready;
    for (auto& [n, d] : indegree)
        if (d == 0) ready.push_back(n);
    while (!ready.empty()) {
        const Node* n = ready.back();
        ready.pop_back();
        succ(n, [&](const Node* m) {
            if (--indegree[m] == 0) ready.push_back(m);
        });
    }
    std::unordered_set<const Node*> left;
    for (auto& [n, d] : indegree)
        if (d > 0) left.insert(n);
    return left;
}

// True when `to` is reachable from `from` along data edges and orderings (iterative).
bool reaches(const Node* from, const Node* to, const Successors& extra) {
    std::vector<const Node*> stack{from};
    std::unordered_set<const Node*> seen{from};
    while (!stack.empty()) {
        const Node* n = stack.back();
        stack.pop_back();
        if (n == to) return true;
        auto push = [&](const Node* m) {
            if (seen.insert(m).second) stack.push_back(m);
        };
        for (const Variable* o : n->outputs())
            for (const Client& c : o->clients())
                if (c.node) push(c.node);
        if (auto it = extra.find(n); it != extra.end())
            for (const Node* m : it->second) push(m);
    }
    return false;
}
} // namespace

bool overwrittenInPlace(const Variable& v, const Node* except) {
    // The output of `op` that lists `input` in `m`, or -1.
    auto outputListing = [](const AliasMap& m, int input) {
        for (const auto& [out, ins] : m)
            if (std::find(ins.begin(), ins.end(), input) != ins.end()) return out;
        return -1;
    };
    std::vector<const Variable*> stack{&v};
    for (size_t guard = 0; !stack.empty() && guard < 4096; ++guard) {
        const Variable* cur = stack.back();
        stack.pop_back();
        for (const Client& c : cur->clients()) {
            if (!c.node || c.node == except) continue;
            if (outputListing(c.node->op().destroyMap(), c.index) >= 0) return true;
            const int view = outputListing(c.node->op().viewMap(), c.index);
            if (view >= 0) stack.push_back(c.node->output(view));
        }
    }
    return false;
}

std::unordered_set<const Variable*> overwrittenValues(const Graph& g) {
    std::unordered_set<const Variable*> out;
    for (const Node* n : g.nodes())
        for (const auto& [o, ins] : n->op().destroyMap())
            for (int i : ins) {
                // The destroyed value and every value it is a view of, up to the storage's owner.
                const Variable* v = i < n->numInputs() ? n->input(i) : nullptr;
                for (int guard = 0; v && guard < 4096 && out.insert(v).second; ++guard) {
                    const Node* p = v->owner();
                    const Variable* up = nullptr;
                    if (p) {
                        const AliasMap views = p->op().viewMap();  // by value: one map for find and end
                        if (auto it = views.find(v->outputIndex()); it != views.end() && !it->second.empty())
                            up = p->input(it->second.front());
                    }
                    v = up;
                }
            }
    return out;
}

const Variable* aliasRoot(const Variable& v) {
    const Variable* cur = &v;
    // Iterative: long view chains must not recurse.
    while (cur->owner()) {
        auto ins = aliasedInputs(*cur->owner(), cur->outputIndex());
        if (ins.empty() || ins.front() < 0 || ins.front() >= cur->owner()->numInputs()) break;
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

std::vector<int> scanMutableInnerInputs(const ScanInfo& info) {
    std::vector<int> out;
    int k = info.innerInMitMot();
    for (int s = 0; s < info.nMitMot(); ++s)
        for (int tap : info.mitMotInTaps[s]) {
            const auto& outs = info.mitMotOutTaps[s];
            if (std::find(outs.begin(), outs.end(), tap) != outs.end()) out.push_back(k);
            ++k;
        }
    return out;
}

std::vector<std::string> destroyHandlerProblems(const Graph& g, const std::vector<int>& mutableInputs) {
    std::vector<std::string> problems;
    auto isMutable = [&](const Variable* v) {
        for (int i : mutableInputs)
            if (i >= 0 && i < static_cast<int>(g.inputs().size()) && g.inputs()[i] == v) return true;
        return false;
    };
    std::unordered_map<const Variable*, const Node*> destroyerOf;
    const std::vector<Destruction> ds = destructions(g);
    if (ds.empty()) return problems;
    Successors orderings;
    std::vector<std::vector<const Node*>> readers;
    for (const Destruction& d : ds) {
        const std::string who = d.destroyer->label();
        if (d.root->isConstant()) problems.push_back(who + " destroys " + describe(*d.root));
        else if (!d.root->owner() && !isMutable(d.root)) problems.push_back(who + " destroys protected " + describe(*d.root));
        bool isOutput = false;
        readers.push_back(readersBefore(d, &isOutput));
        if (isOutput)
            problems.push_back(who + " destroys a value that is also a graph output (" + describe(*d.root) + ")");
        auto [it, fresh] = destroyerOf.emplace(d.root, d.destroyer);
        if (!fresh && it->second != d.destroyer)
            problems.push_back(who + " and " + it->second->label() + " both destroy " + describe(*d.root));
        for (int j = 0; j < d.destroyer->numInputs(); ++j)
            if (j != d.inputIndex && viewRoot(*d.destroyer->input(j)) == d.root)
                problems.push_back(who + " destroys " + describe(*d.root) + " which its input " + std::to_string(j) +
                                   " also reads");
        for (const Node* r : readers.back()) orderings[r].push_back(d.destroyer);
    }
    // A reader that cannot run before its destroyer closes a cycle of data edges and
    // orderings; name the pairs on it (searches only when there is one).
    const std::unordered_set<const Node*> cyclic = cyclicNodes(g, orderings);
    if (!cyclic.empty())
        for (size_t k = 0; k < ds.size(); ++k)
            for (const Node* r : readers[k])
                if (cyclic.count(r) && cyclic.count(ds[k].destroyer) && reaches(ds[k].destroyer, r, orderings))
                    problems.push_back(ds[k].destroyer->label() + " destroys " + describe(*ds[k].root) + " which " +
                                       r->label() + " still reads after it");
    return problems;
}

std::optional<std::string> whyCannotDestroy(const Node& node, int inputIndex) {
    if (inputIndex < 0 || inputIndex >= node.numInputs())
        return "input " + std::to_string(inputIndex) + " does not exist";
    return DestroyChecker(node.input(inputIndex)->graph()).whyCannotDestroy(node, inputIndex);
}

} // namespace tl
