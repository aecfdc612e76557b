#pragma once
// The static shapes PyTensor's make_node finds beyond an op's own rule. PyTensor's
// Reshape.make_node reads each entry of its shape with get_scalar_constant_value,
// which folds constants through Shape_i of a static dim, indexing of a MakeVector and
// integer arithmetic; tensorlens's ReshapeOp sees only a constant shape vector. A
// rewrite that builds a Reshape (inlining an Einsum, joining two reshapes) declares
// the type PyTensor's rebuilt node would have, through these.
#include "ir/Rewriter.h"

#include <optional>

namespace tl::rw {

/// The integer the 0-d `v` holds when it follows from constants and static shapes: a
/// constant; Shape_i{d}(x) or Shape(x)[d] where x's dim d is static; MakeVector(...)[k]
/// of such an entry; ScalarFromTensor, TensorFromScalar or an integer Cast of one; and
/// Elemwise add, sub, mul, int_div and neg of them. nullopt otherwise.
std::optional<int64_t> staticIntValue(const Variable& v);

/// The type PyTensor's Reshape.make_node gives Reshape{ndim}(x, shape): every entry of
/// `shape` that staticIntValue reads (a constant vector's elements, a MakeVector's
/// inputs, the static dims of Shape(y)), one unknown deduced when x's size is known;
/// nullopt when those sizes cannot hold x.
std::optional<Type> reshapeStaticType(const Variable& x, const Variable& shape, int ndim);

/// Reshape{ndim}(x, shape) of the type reshapeStaticType gives (the op's own rule
/// when it gives none).
Variable* reshapeWithStaticShape(Rewriter& rw, Variable* x, Variable* shape, int ndim);

} // namespace tl::rw
