// Forward derivatives of the array constructors and selection ops (builder/ArrayOps.h).
// PyTensor has an R_op for Split (the same split of the tangent), ARange (none: the
// values do not depend on continuous inputs) and the OpFromGraph ops AllocDiag and
// Pad (the R_op of their inner graphs, which are linear in the padded or placed
// values). tensorlens adds the rules PyTensor's grad implies for the other ops that
// are linear in an input (ExtractDiag, Repeat, FillDiagonal, PermuteRowElements,
// Choose, Convolve1d) and zero tangents for outputs that are integers or do not
// depend on the inputs' values (Eye, Tri, Bartlett, ArgSortOp, SearchsortedOp,
// Nonzero, RavelMultiIndex, UnravelIndex: integer index arithmetic). SortOp and
// Unique have none, as in PyTensor.
#include "builder/rop/OpRop.h"

#include "builder/Indexing.h"
#include "builder/Math.h"
#include "ops/Pad.h"

#include <stdexcept>

namespace tl {

namespace {

using Tangents = std::span<Variable* const>;

std::vector<Variable*> noTangent(GraphBuilder&, const Node& node, Tangents) {
    return std::vector<Variable*>(node.numOutputs(), nullptr);
}

// op(dx, other inputs...): linear in the first input alone (Split, AllocDiag,
// ExtractDiag, Repeat, PermuteRowElements).
std::vector<Variable*> sameOpOnFirst(GraphBuilder& b, const Node& node, Tangents t) {
    if (!t[0]) return std::vector<Variable*>(node.numOutputs(), nullptr);
    std::vector<Var> ins{b.wrap(t[0])};
    for (int i = 1; i < node.numInputs(); ++i) ins.push_back(b.wrap(node.input(i)));
    std::vector<Variable*> out;
    for (const Var& v : b.apply(node.opPtr(), std::move(ins))) out.push_back(v.get());
    return out;
}

// op(dx, dy, rest...): linear in the first `linear` inputs jointly (FillDiagonal in
// (a, val); constant or linear_ramp Pad in (x, values)); missing tangents are zeros.
std::vector<Variable*> linearInFirst(GraphBuilder& b, const Node& node, Tangents t, int linear) {
    bool any = false;
    for (int i = 0; i < linear; ++i) any = any || t[i];
    if (!any) return {nullptr};
    std::vector<Var> ins;
    for (int i = 0; i < node.numInputs(); ++i) {
        if (i >= linear) ins.push_back(b.wrap(node.input(i)));
        else ins.push_back(t[i] ? b.wrap(t[i]) : zerosLike(b.wrap(node.input(i))));
    }
    return {b.apply1(node.opPtr(), std::move(ins)).get()};
}

std::vector<Variable*> fillDiagonalRop(GraphBuilder& b, const Node& node, Tangents t) { return linearInFirst(b, node, t, 2); }

// choose(a, dchoices): linear in the choices; the indices carry no tangent.
std::vector<Variable*> chooseRop(GraphBuilder& b, const Node& node, Tangents t) {
    if (!t[1]) return {nullptr};
    return {b.apply1(node.opPtr(), {b.wrap(node.input(0)), b.wrap(t[1])}).get()};
}

// d(conv(a, v)) = conv(da, v) + conv(a, dv).
std::vector<Variable*> convolveRop(GraphBuilder& b, const Node& node, Tangents t) {
    if (!t[0] && !t[1]) return {nullptr};
    Var a = b.wrap(node.input(0)), v = b.wrap(node.input(1)), mode = b.wrap(node.input(2));
    Var first, second;
    if (t[0]) first = b.apply1(node.opPtr(), {b.wrap(t[0]), v, mode});
    if (t[1]) second = b.apply1(node.opPtr(), {a, b.wrap(t[1]), mode});
    if (first.valid() && second.valid()) return {add(first, second).get()};
    return {(first.valid() ? first : second).get()};
}

// Pad: the R_op of its inner graph. Linear in x for every mode but maximum / minimum,
// and in the constant / end values.
std::vector<Variable*> padRop(GraphBuilder& b, const Node& node, Tangents t) {
    const auto& op = static_cast<const PadOp&>(node.op());
    if (op.mode() == "maximum" || op.mode() == "minimum")
        throw std::logic_error("no forward derivative (R_op) for " + op.name() + " in mode " + op.mode() +
                               " (PyTensor's Max has none)");
    if (op.mode() == "constant" || op.mode() == "linear_ramp") {
        bool any = t[0] || t[2];
        if (!any) return {nullptr};
        std::vector<Var> ins{t[0] ? b.wrap(t[0]) : zerosLike(b.wrap(node.input(0))), b.wrap(node.input(1)),
                             t[2] ? b.wrap(t[2]) : zerosLike(b.wrap(node.input(2)))};
        return {b.apply1(node.opPtr(), std::move(ins)).get()};
    }
    return sameOpOnFirst(b, node, t);
}

} // namespace

RopRule arrayOpsRopRule(OpKind kind) {
    switch (kind) {
    case OpKind::ARange:
    case OpKind::Eye:
    case OpKind::Tri:
    case OpKind::Bartlett:
    case OpKind::ArgSort:
    case OpKind::Searchsorted:
    case OpKind::Nonzero:
    case OpKind::RavelMultiIndex:
    case OpKind::UnravelIndex: return &noTangent;
    case OpKind::Split:
    case OpKind::AllocDiag:
    case OpKind::ExtractDiag:
    case OpKind::Repeat:
    case OpKind::PermuteRowElements: return &sameOpOnFirst;
    case OpKind::FillDiagonal:
    case OpKind::FillDiagonalOffset: return &fillDiagonalRop;
    case OpKind::Choose: return &chooseRop;
    case OpKind::Convolve1d: return &convolveRop;
    case OpKind::Pad: return &padRop;
    default: return nullptr;
    }
}

} // namespace tl
