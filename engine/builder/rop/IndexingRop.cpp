// Forward derivatives of advanced indexing, as PyTensor's R_op: the reads are linear
// in x, so the tangent is the same read of x's tangent; the writes are linear in
// (x, y), so the tangent is the same write (never inplace: the tangent must not
// overwrite the primal's buffer) of y's tangent into x's, a missing one being zeros.
#include "builder/rop/OpRop.h"

#include "builder/Indexing.h"
#include "ops/AdvancedIncSubtensor.h"

namespace tl {

namespace {

using Tangents = std::span<Variable* const>;

std::vector<Variable*> advancedReadRop(GraphBuilder& b, const Node& node, Tangents t) {
    if (!t[0]) return {nullptr};
    std::vector<Var> ins{b.wrap(t[0])};
    for (int i = 1; i < node.numInputs(); ++i) ins.push_back(b.wrap(node.input(i)));
    return {b.apply1(node.opPtr(), std::move(ins)).get()};
}

std::vector<Variable*> advancedWriteRop(GraphBuilder& b, const Node& node, Tangents t) {
    if (!t[0] && !t[1]) return {nullptr};
    std::vector<Var> ins{t[0] ? b.wrap(t[0]) : zerosLike(b.wrap(node.input(0))),
                         t[1] ? b.wrap(t[1]) : zerosLike(b.wrap(node.input(1)))};
    for (int i = 2; i < node.numInputs(); ++i) ins.push_back(b.wrap(node.input(i)));
    OpPtr op;
    if (const auto* one = dynamic_cast<const AdvancedIncSubtensor1Op*>(&node.op()))
        op = makeAdvancedIncSubtensor1(false, one->setInsteadOfInc());
    else if (const auto* adv = dynamic_cast<const AdvancedIncSubtensorOp*>(&node.op()))
        op = makeAdvancedIncSubtensor(false, adv->setInsteadOfInc(), adv->ignoreDuplicates());
    return {b.apply1(op, std::move(ins)).get()};
}

// A slice has no tangent.
std::vector<Variable*> noTangent(GraphBuilder&, const Node& node, Tangents) {
    return std::vector<Variable*>(node.numOutputs(), nullptr);
}

} // namespace

RopRule advancedIndexingRopRule(OpKind kind) {
    switch (kind) {
    case OpKind::AdvancedSubtensor1:
    case OpKind::AdvancedSubtensor: return &advancedReadRop;
    case OpKind::AdvancedIncSubtensor1:
    case OpKind::AdvancedIncSubtensor: return &advancedWriteRop;
    case OpKind::MakeSlice: return &noTangent;
    default: return nullptr;
    }
}

} // namespace tl
