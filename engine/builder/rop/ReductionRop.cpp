// Forward derivatives of the reductions, softmax and cumulative ops (PyTensor's
// R_op where it has one): Sum(dx); Max along one axis, the tangent at the first
// largest element (PyTensor indexes it with Argmax, for matrices only; the same
// value here for any rank); Softmax, SoftmaxGrad(dx, softmax(x)); LogSoftmax,
// dx - sum(dx * softmax(x)); CumOp, CumOp(dx) for sums and y * cumsum(dx / x) for
// products. Argmax is integer-valued (zero tangent). The other CAReduce classes
// and SoftmaxGrad have no R_op in PyTensor.
#include "builder/rop/OpRop.h"

#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Reductions.h"
#include "ops/CumOp.h"
#include "ops/Reduce.h"
#include "ops/Softmax.h"

#include <stdexcept>

namespace tl {

namespace {

using Tangents = std::span<Variable* const>;

std::vector<Variable*> reduceRop(GraphBuilder& b, const Node& node, Tangents t) {
    if (!t[0]) return {nullptr};
    const auto& op = static_cast<const ReduceOp&>(node.op());
    if (op.reduceKind() == ReduceKind::Sum) return {b.apply1(node.opPtr(), {b.wrap(t[0])}).get()};
    if (op.reduceKind() == ReduceKind::Max) {
        Var x = b.wrap(node.input(0));
        const std::vector<int> axes = op.reducedAxes(x.ndim());
        if (axes.size() != 1) throw std::logic_error("no forward derivative (R_op) for " + op.name() + ": only along one axis, as PyTensor");
        const int a = axes[0];
        // The position along the axis of every element (cumsum of ones, minus one), against the argmax.
        Var position = cumsum(second(x, b.constant(1, DType::Int64)), a) - 1;
        Var first = eq(position, expandDims(argmax(x, std::vector<int>{a}), a));
        Var dx = b.wrap(t[0]);
        return {sum(switch_(first, dx, zerosLike(dx)), std::vector<int>{a}).get()};
    }
    throw std::logic_error("no forward derivative (R_op) for " + op.name() + " (PyTensor's CAReduce has none)");
}

std::vector<Variable*> softmaxRop(GraphBuilder& b, const Node& node, Tangents t) {
    if (!t[0]) return {nullptr};
    const auto& op = static_cast<const SoftmaxOp&>(node.op());
    Var dx = b.wrap(t[0]);
    if (node.op().kind() == OpKind::Softmax) return {softmaxGrad(dx, b.wrap(node.output(0)), op.axis()).get()};
    // LogSoftmax: d log(s_i) = dx_i - sum_j s_j dx_j, with s = softmax(x) along the axis.
    Var x = b.wrap(node.input(0));
    Axes axes = op.axis() ? Axes(std::vector<int>{*op.axis() < 0 ? *op.axis() + x.ndim() : *op.axis()}) : std::nullopt;
    Var weighted = reduce(ReduceKind::Sum, dx * softmax(x, op.axis()), axes, {}, true);
    return {(dx - weighted).get()};
}

std::vector<Variable*> cumOpRop(GraphBuilder& b, const Node& node, Tangents t) {
    if (!t[0]) return {nullptr};
    const auto& op = static_cast<const CumOpOp&>(node.op());
    Var dx = b.wrap(t[0]);
    if (op.mode() == CumMode::Add) return {b.apply1(node.opPtr(), {dx}).get()};
    Var x = b.wrap(node.input(0)), y = b.wrap(node.output(0));
    return {(y * b.apply1(makeCumOp(op.axis(), CumMode::Add), {dx / x})).get()};
}

std::vector<Variable*> noRop(GraphBuilder&, const Node& node, Tangents) {
    throw std::logic_error("no forward derivative (R_op) for " + node.op().name() + " (PyTensor has none)");
}

std::vector<Variable*> integerValued(GraphBuilder&, const Node& node, Tangents) {
    return std::vector<Variable*>(node.numOutputs(), nullptr);
}

} // namespace

RopRule reductionRopRule(OpKind kind) {
    switch (kind) {
    case OpKind::Reduce: return &reduceRop;
    case OpKind::Argmax: return &integerValued;
    case OpKind::Softmax:
    case OpKind::LogSoftmax: return &softmaxRop;
    case OpKind::SoftmaxGrad: return &noRop;
    case OpKind::CumOp: return &cumOpRop;
    default: return nullptr;
    }
}

} // namespace tl
