// Graph::validate: the invariants every edit keeps (clients exact, types what the ops
// infer, no cycle), checked from scratch. Apart from Graph.cpp's edits: it runs after
// passes when validation is on, never on the paths the edits take.
#include "ir/Graph.h"

#include <algorithm>
#include <unordered_map>

namespace tl {

std::vector<std::string> Graph::validate() const {
    std::vector<std::string> problems;
    std::unordered_map<const Variable*, std::vector<Client>> expected;
    for (Node* n : m_nodeList) {
        std::vector<const Type*> types;
        std::vector<const NDArray*> constants;
        for (int i = 0; i < n->numInputs(); ++i) {
            Variable* v = n->m_inputs[i];
            if (!v || !findVariable(v->id()) || findVariable(v->id()) != v) {
                problems.push_back(n->label() + ": input " + std::to_string(i) + " is not in the graph");
                continue;
            }
            if (v->owner() && !findNode(v->owner()->id()))
                problems.push_back(n->label() + ": input " + std::to_string(i) + " comes from an erased node");
            expected[v].push_back(Client{n, i});
            types.push_back(&v->type());
            constants.push_back(v->isConstant() ? &v->constantValue() : nullptr);
        }
        if (types.size() != n->m_inputs.size()) continue;
        try {
            auto inferred = n->op().inferTypesWithConstants(types, constants);
            if (inferred.size() != n->m_outputs.size())
                problems.push_back(n->label() + ": op now has " + std::to_string(inferred.size()) + " outputs");
            else
                for (size_t i = 0; i < inferred.size(); ++i)
                    if (!inferred[i].accepts(n->m_outputs[i]->type()) && !n->m_outputs[i]->type().accepts(inferred[i]))
                        problems.push_back(n->label() + ": output " + std::to_string(i) + " has type " +
                                           n->m_outputs[i]->type().toString() + ", op computes " + inferred[i].toString());
        } catch (const std::exception& e) {
            problems.push_back(n->label() + ": " + e.what());
        }
    }
    for (size_t i = 0; i < m_outputs.size(); ++i) expected[m_outputs[i]].push_back(Client{nullptr, static_cast<int>(i)});
    for (const auto& v : m_vars) {
        const VarId id = v->id();
        auto want = expected[v.get()];
        std::vector<Client> have(v->m_clients.begin(), v->m_clients.end());
        auto key = [](const Client& c) { return std::make_pair(c.node ? c.node->id() : -1, c.index); };
        auto less = [&](const Client& a, const Client& b) { return key(a) < key(b); };
        std::sort(want.begin(), want.end(), less);
        std::sort(have.begin(), have.end(), less);
        if (want != have) problems.push_back("variable " + std::to_string(id) + ": client list is not exact");
    }
    // Acyclic: Kahn's algorithm over node dependencies.
    std::unordered_map<const Node*, int> pending;
    for (Node* n : m_nodeList) {
        int deps = 0;
        for (Variable* v : n->m_inputs)
            if (v && v->owner()) ++deps;
        pending[n] = deps;
    }
    std::vector<const Node*> ready;
    for (auto& [n, d] : pending)
        if (d == 0) ready.push_back(n);
    size_t seen = 0;
    while (!ready.empty()) {
        const Node* n = ready.back();
        ready.pop_back();
        ++seen;
        for (Variable* o : n->m_outputs)
            for (const Client& c : o->m_clients)
                if (c.node && --pending[c.node] == 0) ready.push_back(c.node);
    }
    if (seen != m_nodeList.size()) problems.push_back("the graph has a cycle");
    return problems;
}

} // namespace tl
