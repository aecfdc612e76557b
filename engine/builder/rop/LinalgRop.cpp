// Forward derivatives of the products and of the inverse, where PyTensor has an
// R_op: BatchedDot and Matmul (Blockwise{Dot}) are bilinear, d(x y) = dx y + x dy;
// MatrixInverse (and its Blockwise) is d(A^-1) = -A^-1 dA A^-1 (nlinalg's R_op,
// with Matmul for the batched form).
#include "builder/rop/OpRop.h"

#include "builder/Indexing.h"
#include "builder/Linalg.h"
#include "builder/Math.h"
#include "ops/Blockwise.h"

#include <stdexcept>

namespace tl {

namespace {

using Tangents = std::span<Variable* const>;

std::vector<Variable*> bilinear(GraphBuilder& b, const Node& node, Tangents t) {
    if (!t[0] && !t[1]) return {nullptr};
    Var x = b.wrap(node.input(0)), y = b.wrap(node.input(1));
    std::vector<Var> terms;
    if (t[0]) terms.push_back(b.apply1(node.opPtr(), {b.wrap(t[0]), y}));
    if (t[1]) terms.push_back(b.apply1(node.opPtr(), {x, b.wrap(t[1])}));
    return {terms.size() == 1 ? terms[0].get() : add(terms[0], terms[1]).get()};
}

std::vector<Variable*> inverseRop(GraphBuilder& b, const Node& node, Tangents t, bool batched) {
    if (!t[0]) return {nullptr};
    Var xi = b.wrap(node.output(0)), ev = b.wrap(t[0]);
    auto prod = [&](Var p, Var q) { return batched ? matmul(p, q) : dot(p, q); };
    return {neg(prod(prod(xi, ev), xi)).get()};
}

} // namespace

std::vector<Variable*> linalgRop(GraphBuilder& b, const Node& node, std::span<Variable* const> inputTangents) {
    switch (node.op().kind()) {
    case OpKind::BatchedDot: return bilinear(b, node, inputTangents);
    case OpKind::MatrixInverse: return inverseRop(b, node, inputTangents, false);
    case OpKind::Blockwise: {
        const auto& bw = static_cast<const BlockwiseOp&>(node.op());
        if (bw.core().kind() == OpKind::Dot) return bilinear(b, node, inputTangents);
        if (bw.core().kind() == OpKind::MatrixInverse) return inverseRop(b, node, inputTangents, true);
        break;
    }
    default: break;
    }
    throw std::logic_error("no forward derivative (R_op) for " + node.op().name());
}

} // namespace tl
