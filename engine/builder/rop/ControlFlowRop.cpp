// Forward derivatives of IfElse and OpFromGraph, as PyTensor's R_op:
//   IfElse:      the same IfElse on the branches' tangents (the condition has none), so
//                the tangent is as lazy as the value.
//   OpFromGraph: a new OpFromGraph "<name>_rop" whose inputs are the inner inputs and
//                their tangents and whose outputs are the inner outputs' tangents (Rop
//                through the inner graph), applied to the node's inputs and tangents.
#include "builder/rop/OpRop.h"

#include "builder/Indexing.h"
#include "builder/Rop.h"
#include "ops/IfElse.h"
#include "ops/OpFromGraph.h"

#include <unordered_map>

namespace tl {

namespace {

using Tangents = std::span<Variable* const>;

Var tangentOrZeros(GraphBuilder& b, const Node& node, Tangents t, int i) {
    return t[i] ? b.wrap(t[i]) : zerosLike(b.wrap(node.input(i)));
}

std::vector<Variable*> ifElseRop(GraphBuilder& b, const Node& node, Tangents t) {
    bool any = false;
    for (int i = 1; i < node.numInputs(); ++i) any = any || t[i];
    if (!any) return std::vector<Variable*>(node.numOutputs(), nullptr);
    const auto& op = static_cast<const IfElseOp&>(node.op());
    std::vector<Var> ins{b.wrap(node.input(0))};
    for (int i = 1; i < node.numInputs(); ++i) ins.push_back(tangentOrZeros(b, node, t, i));
    std::vector<Variable*> out;
    for (const Var& v : b.apply(makeIfElse(op.nOuts(), false, op.branchName()), std::move(ins))) out.push_back(v.get());
    return out;
}

std::vector<Variable*> graphOpRop(GraphBuilder& b, const Node& node, Tangents t) {
    const auto& op = static_cast<const OpFromGraphOp&>(node.op());
    const Graph& g = *op.inner();
    // The rop graph: the inner graph copied onto primal placeholders, then its tangents.
    GraphBuilder rb;
    std::vector<Var> primal, tangent;
    for (const Variable* in : g.inputs()) primal.push_back(rb.placeholder(in->type()));
    for (const Variable* in : g.inputs()) tangent.push_back(rb.placeholder(in->type()));
    std::unordered_map<const Variable*, Var> map;
    for (size_t i = 0; i < g.inputs().size(); ++i) map[g.inputs()[i]] = primal[i];
    auto lookup = [&](const Variable* v) -> Var {
        if (auto it = map.find(v); it != map.end()) return it->second;
        if (v->isConstant()) return map[v] = rb.constant(v->constantValue(), v->type());
        throw std::logic_error("OpFromGraph R_op: inner variable " + std::to_string(v->id()) + " has no value");
    };
    for (Node* n : g.toposort()) {
        std::vector<Var> ins;
        for (Variable* in : n->inputs()) ins.push_back(lookup(in));
        std::vector<Var> outs = rb.apply(n->opPtr(), ins);
        for (int k = 0; k < n->numOutputs(); ++k) map[n->output(k)] = outs[k];
    }
    std::vector<Var> primalOut;
    for (const Variable* o : g.outputs()) primalOut.push_back(lookup(o));
    std::vector<Var> rops = forwardTangents(rb, primalOut, primal, tangent);
    // Outputs with no tangent (not connected to any input) are left out, as PyTensor does.
    std::vector<Var> connected;
    std::vector<int> where;
    for (size_t k = 0; k < rops.size(); ++k)
        if (rops[k].valid()) {
            where.push_back(static_cast<int>(k));
            connected.push_back(rops[k]);
        }
    std::vector<Variable*> out(static_cast<size_t>(node.numOutputs()), nullptr);
    if (connected.empty()) return out;
    auto ropGraph = std::shared_ptr<const Graph>(rb.finish(connected));
    std::optional<std::string> name;
    if (op.graphName()) name = *op.graphName() + "_rop";
    OpPtr ropOp = makeOpFromGraph(ropGraph, name, op.isInline());
    std::vector<Var> ins;
    for (int i = 0; i < node.numInputs(); ++i) ins.push_back(b.wrap(node.input(i)));
    for (int i = 0; i < node.numInputs(); ++i) ins.push_back(tangentOrZeros(b, node, t, i));
    std::vector<Var> res = b.apply(ropOp, std::move(ins));
    for (size_t j = 0; j < where.size(); ++j) out[static_cast<size_t>(where[j])] = res[j].get();
    return out;
}

} // namespace

RopRule controlFlowRopRule(OpKind kind) {
    switch (kind) {
    case OpKind::IfElse: return &ifElseRop;
    case OpKind::OpFromGraph: return &graphOpRop;
    default: return nullptr;
    }
}

} // namespace tl
