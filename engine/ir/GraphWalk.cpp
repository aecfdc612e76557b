#include "ir/GraphWalk.h"

namespace tl {

std::unordered_set<const Node*> nodesFeeding(std::span<const Variable* const> roots) {
    std::unordered_set<const Node*> seen;
    std::vector<const Node*> stack;
    for (const Variable* v : roots)
        if (v && v->owner() && seen.insert(v->owner()).second) stack.push_back(v->owner());
    while (!stack.empty()) {
        const Node* n = stack.back();
        stack.pop_back();
        for (const Variable* in : n->inputs())
            if (in->owner() && seen.insert(in->owner()).second) stack.push_back(in->owner());
    }
    return seen;
}

std::vector<Node*> nodesFeedingInOrder(const Graph& g, std::span<const Variable* const> roots) {
    const std::unordered_set<const Node*> needed = nodesFeeding(roots);
    std::vector<Node*> order;
    order.reserve(needed.size());
    for (Node* n : g.toposort())
        if (needed.count(n)) order.push_back(n);
    return order;
}

} // namespace tl
