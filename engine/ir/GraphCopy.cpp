#include "ir/GraphCopy.h"

namespace tl {

Node* copyNode(GraphAssembler& dst, const Node& n, std::vector<Variable*> inputs, CopyIds ids) {
    std::vector<Type> types;
    std::vector<VarId> outputIds;
    types.reserve(static_cast<size_t>(n.numOutputs()));
    for (const Variable* o : n.outputs()) {
        types.push_back(o->type());
        outputIds.push_back(o->id());
    }
    const bool keep = ids == CopyIds::Keep;
    Node* c = dst.addNode(n.opPtr(), std::move(inputs), keep ? std::optional<NodeId>(n.id()) : std::nullopt, &types,
                          keep ? &outputIds : nullptr);
    for (int k = 0; k < n.numOutputs(); ++k)
        if (!n.output(k)->name().empty()) dst.setVariableName(c->output(k), n.output(k)->name());
    return c;
}

Variable* copyConstant(GraphAssembler& dst, const Variable& c, CopyIds ids) {
    return dst.addConstant(c.constantValue(), c.type(), c.name(),
                           ids == CopyIds::Keep ? std::optional<VarId>(c.id()) : std::nullopt);
}

void copyGraphInto(GraphAssembler& dst, const Graph& src, VariableMap& map, CopyIds ids) {
    for (const Variable* c : src.constants())
        if (!map.count(c)) map[c] = copyConstant(dst, *c, ids);
    std::vector<Variable*> ins;
    for (const Node* n : src.toposort()) {
        bool allMapped = true;
        for (const Variable* o : n->outputs()) allMapped = allMapped && map.count(o);
        if (allMapped) continue;
        ins.clear();
        for (const Variable* in : n->inputs()) ins.push_back(map.at(in));
        Node* c = copyNode(dst, *n, ins, ids);
        for (int k = 0; k < n->numOutputs(); ++k)
            if (!map.count(n->output(k))) map[n->output(k)] = c->output(k);
    }
}

} // namespace tl
