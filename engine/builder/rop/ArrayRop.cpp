// Forward derivatives of the structural and indexing ops. Most are linear in
// their first input, so the tangent is the same op applied to the input's
// tangent with the other inputs (shapes, indices) unchanged.
#include "builder/rop/OpRop.h"

#include "builder/Indexing.h"
#include "builder/Math.h"
#include "ops/IncSubtensor.h"

#include <stdexcept>

namespace tl {

namespace {

using Tangents = std::span<Variable* const>;

// op(dx, other inputs...): Alloc, DimShuffle, Reshape, SpecifyShape, Subtensor,
// Unbroadcast, the scalar/tensor conversions.
std::vector<Variable*> sameOpOnFirstTangent(GraphBuilder& b, const Node& node, Tangents t) {
    if (!t[0]) return {nullptr};
    std::vector<Var> ins{b.wrap(t[0])};
    for (int i = 1; i < node.numInputs(); ++i) ins.push_back(b.wrap(node.input(i)));
    return {b.apply1(node.opPtr(), std::move(ins)).get()};
}

// Views and copies that pass a value through: Assert, DeepCopyOp.
std::vector<Variable*> passThrough(GraphBuilder&, const Node&, Tangents t) { return {t[0]}; }

// Values that do not depend on the input's values: Shape, Shape_i, AllocEmpty.
std::vector<Variable*> zeroTangent(GraphBuilder&, const Node& node, Tangents) {
    return std::vector<Variable*>(node.numOutputs(), nullptr);
}

// d(x . y) = dx . y + x . dy
std::vector<Variable*> dotRop(GraphBuilder& b, const Node& node, Tangents t) {
    if (!t[0] && !t[1]) return {nullptr};
    Var x = b.wrap(node.input(0)), y = b.wrap(node.input(1));
    if (t[0] && !t[1]) return {b.apply1(node.opPtr(), {b.wrap(t[0]), y}).get()};
    if (!t[0] && t[1]) return {b.apply1(node.opPtr(), {x, b.wrap(t[1])}).get()};
    Var first = b.apply1(node.opPtr(), {b.wrap(t[0]), y});
    Var second = b.apply1(node.opPtr(), {x, b.wrap(t[1])});
    return {add(first, second).get()};
}

// set/inc_subtensor(dx, dy, idx): linear in (x, y); a missing tangent is zeros.
// Never inplace: the tangent must not overwrite the primal's buffer.
std::vector<Variable*> incSubtensorRop(GraphBuilder& b, const Node& node, Tangents t) {
    if (!t[0] && !t[1]) return {nullptr};
    const auto& op = static_cast<const IncSubtensorOp&>(node.op());
    std::vector<Var> ins{t[0] ? b.wrap(t[0]) : zerosLike(b.wrap(node.input(0))),
                         t[1] ? b.wrap(t[1]) : zerosLike(b.wrap(node.input(1)))};
    for (int i = 2; i < node.numInputs(); ++i) ins.push_back(b.wrap(node.input(i)));
    return {b.apply1(makeIncSubtensor(op.entries(), op.setInsteadOfInc(), false), std::move(ins)).get()};
}

// join(axis, dx0, dx1, ...): zeros for the parts without a tangent.
std::vector<Variable*> joinRop(GraphBuilder& b, const Node& node, Tangents t) {
    bool any = false;
    for (size_t i = 1; i < t.size(); ++i) any = any || t[i];
    if (!any) return {nullptr};
    std::vector<Var> ins{b.wrap(node.input(0))};
    for (int i = 1; i < node.numInputs(); ++i) ins.push_back(t[i] ? b.wrap(t[i]) : zerosLike(b.wrap(node.input(i))));
    return {b.apply1(node.opPtr(), std::move(ins)).get()};
}

// make_vector(dx0, dx1, ...): a zero of each element's type where there is no tangent.
std::vector<Variable*> makeVectorRop(GraphBuilder& b, const Node& node, Tangents t) {
    bool any = false;
    for (Variable* v : t) any = any || v;
    if (!any) return {nullptr};
    std::vector<Var> ins;
    for (int i = 0; i < node.numInputs(); ++i) {
        if (t[i]) {
            ins.push_back(b.wrap(t[i]));
            continue;
        }
        const Type& ty = node.input(i)->type();
        ins.push_back(ty.isScalarType() ? b.scalarConstant(0, ty.dtype) : b.constant(0, ty.dtype));
    }
    return {b.apply1(node.opPtr(), std::move(ins)).get()};
}

} // namespace

RopRule arrayRopRule(OpKind kind) {
    switch (kind) {
    case OpKind::Alloc:
    case OpKind::DimShuffle:
    case OpKind::Reshape:
    case OpKind::SpecifyShape:
    case OpKind::Subtensor:
    case OpKind::Unbroadcast:
    case OpKind::ScalarFromTensor:
    case OpKind::TensorFromScalar: return &sameOpOnFirstTangent;
    case OpKind::Assert:
    case OpKind::CheckAndRaise:
    case OpKind::ViewOp:
    case OpKind::Print:
    case OpKind::CpuContiguous:
    case OpKind::DeepCopy: return &passThrough;
    case OpKind::Shape:
    case OpKind::ShapeI:
    case OpKind::AllocEmpty: return &zeroTangent;
    case OpKind::Dot: return &dotRop;
    case OpKind::IncSubtensor: return &incSubtensorRop;
    case OpKind::Join: return &joinRop;
    case OpKind::MakeVector: return &makeVectorRop;
    default: return nullptr;
    }
}

} // namespace tl
