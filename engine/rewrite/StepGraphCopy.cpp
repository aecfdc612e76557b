#include "rewrite/StepGraphCopy.h"

namespace tl {

void copyNodesInto(Graph& dst, const Graph& src, std::unordered_map<const Variable*, Variable*>& map) {
    for (const Variable* c : src.constants())
        if (!map.count(c)) map[c] = dst.addConstant(c->constantValue(), c->type(), c->name());
    for (const Node* n : src.toposort()) {
        bool allMapped = true;
        for (const Variable* o : n->outputs()) allMapped = allMapped && map.count(o);
        if (allMapped) continue;
        std::vector<Variable*> ins;
        for (const Variable* in : n->inputs()) ins.push_back(map.at(in));
        std::vector<Type> types;
        for (const Variable* o : n->outputs()) types.push_back(o->type());
        Node* c = dst.addNode(n->opPtr(), std::move(ins), std::nullopt, &types);
        for (int k = 0; k < n->numOutputs(); ++k)
            if (!map.count(n->output(k))) map[n->output(k)] = c->output(k);
    }
}

void replaceOutputsWith(Rewriter& rw, const Node& old, Node& fresh) {
    std::vector<VarId> ids;
    for (const Variable* o : old.outputs()) ids.push_back(o->id());
    for (size_t k = 0; k < ids.size(); ++k)
        if (Variable* o = rw.graph().findVariable(ids[k]); o && !o->clients().empty())
            rw.replace(o, fresh.output(static_cast<int>(k)));
}

} // namespace tl
