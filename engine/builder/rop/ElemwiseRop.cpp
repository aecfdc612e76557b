// Forward derivatives of Elemwise nodes and of scalar nodes inside Composite
// bodies: the scalar rules of ScalarRop.cpp applied to the node's inputs.
#include "builder/rop/OpRop.h"

#include "builder/rop/ScalarRop.h"
#include "ops/Elemwise.h"
#include "ops/ScalarOp.h"

namespace tl {

namespace {
// The node's inputs and input tangents as Vars of `b` (an empty Var is a zero tangent).
void wrapInputs(GraphBuilder& b, const Node& node, std::span<Variable* const> inputTangents, std::vector<Var>& ins,
                std::vector<Var>& tangents) {
    for (int i = 0; i < node.numInputs(); ++i) {
        ins.push_back(b.capture(Var(&b, node.input(i))));
        tangents.push_back(inputTangents[i] ? b.capture(Var(&b, inputTangents[i])) : Var());
    }
}
} // namespace

std::vector<Variable*> elemwiseRop(GraphBuilder& b, const Node& node, std::span<Variable* const> inputTangents) {
    const auto& op = static_cast<const Elemwise&>(node.op());
    // PyTensor's ScalarLoop has no derivative either (its loops are derivatives already).
    if (op.isScalarLoop()) throw std::invalid_argument("Rop: Scalarloop has no derivative");
    std::vector<Var> ins, tangents, outs;
    wrapInputs(b, node, inputTangents, ins, tangents);
    for (int o = 0; o < node.numOutputs(); ++o) outs.push_back(b.capture(Var(&b, node.output(o))));
    std::vector<Var> result;
    if (op.isComposite()) result = compositeRop(*op.composite()->graph(), ins, outs, tangents);
    else result = {scalarOpRop(op.scalarOp(), op.castTo(), ins, outs[0], tangents)};
    std::vector<Variable*> r;
    for (size_t o = 0; o < result.size(); ++o) {
        Var t = result[o].valid() ? broadcastTangent(result[o], outs[o]) : Var();
        r.push_back(t.valid() ? t.get() : nullptr);
    }
    return r;
}

std::vector<Variable*> scalarNodeRop(GraphBuilder& b, const Node& node, std::span<Variable* const> inputTangents) {
    const auto& op = static_cast<const ScalarOp&>(node.op());
    std::vector<Var> ins, tangents;
    wrapInputs(b, node, inputTangents, ins, tangents);
    Var out = b.capture(Var(&b, node.output(0)));
    Var t = scalarOpRop(op.code(), op.castTo(), ins, out, tangents);
    return {t.valid() ? t.get() : nullptr};
}

} // namespace tl
