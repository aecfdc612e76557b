#include "io/JsonNestedComposite.h"

#include "ops/ScalarOp.h"

#include <stdexcept>
#include <string>
#include <unordered_map>

namespace tl {

std::vector<Variable*> inlineNestedComposite(GraphAssembler& g, const Graph& body, const std::vector<Variable*>& inputs,
                                             const std::vector<Type>& types, const std::vector<VarId>& outputIds) {
    if (inputs.size() != body.inputs().size())
        throw std::invalid_argument("the nested Composite takes " + std::to_string(body.inputs().size()) + " inputs, the node gives " +
                                    std::to_string(inputs.size()));
    if (types.size() != body.outputs().size() || (!outputIds.empty() && outputIds.size() != body.outputs().size()))
        throw std::invalid_argument("the nested Composite has " + std::to_string(body.outputs().size()) + " outputs, the node declares " +
                                    std::to_string(types.size()));
    std::unordered_map<const Variable*, Variable*> map;
    for (size_t i = 0; i < inputs.size(); ++i) map[body.inputs()[i]] = inputs[i];
    // Output k is written by its own node where it can; otherwise by identity below.
    std::unordered_map<const Variable*, size_t> producedAs;
    std::vector<bool> viaIdentity(types.size(), false);
    for (size_t k = 0; k < body.outputs().size(); ++k) {
        const Variable* v = body.outputs()[k];
        const bool ownNode = v->owner() && v->owner()->numOutputs() == 1 && !producedAs.count(v);
        if (ownNode) producedAs[v] = k;
        else viaIdentity[k] = true;
    }
    auto mapped = [&](Variable* v) {
        if (auto it = map.find(v); it != map.end()) return it->second;
        return map[v] = g.addConstant(v->constantValue(), v->type());  // only constants are left
    };
    std::vector<Variable*> outs(types.size(), nullptr);
    auto idsOf = [&](size_t k) { return outputIds.empty() ? std::vector<VarId>{} : std::vector<VarId>{outputIds[k]}; };
    for (Node* n : body.toposort()) {
        std::vector<Variable*> ins;
        for (Variable* v : n->inputs()) ins.push_back(mapped(v));
        Node* copy;
        if (auto it = producedAs.find(n->output(0)); it != producedAs.end()) {
            const std::vector<Type> declared = {types[it->second]};
            const std::vector<VarId> ids = idsOf(it->second);
            copy = g.addNode(n->opPtr(), std::move(ins), {}, &declared, ids.empty() ? nullptr : &ids);
            outs[it->second] = copy->output(0);
        } else {
            copy = g.addNode(n->opPtr(), std::move(ins));
        }
        for (int o = 0; o < n->numOutputs(); ++o) map[n->output(o)] = copy->output(o);
    }
    for (size_t k = 0; k < outs.size(); ++k) {
        if (!viaIdentity[k]) continue;
        const std::vector<Type> declared = {types[k]};
        const std::vector<VarId> ids = idsOf(k);
        outs[k] = g.addNode(makeScalarOp(ScalarOpCode::Identity), {mapped(body.outputs()[k])}, {}, &declared, ids.empty() ? nullptr : &ids)
                      ->output(0);
    }
    return outs;
}

} // namespace tl
