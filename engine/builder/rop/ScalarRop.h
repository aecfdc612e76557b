#pragma once
// Forward derivatives (R_op) of the scalar ops, built with the builder's math
// functions so the same rules serve tensors (Elemwise) and ScalarType graphs.
// The partial comes first (exp: `exp(x) * dx`), as PyTensor's Elemwise.R_op
// multiplies its per-input gradient by the eval point.
#include "builder/GraphBuilder.h"
#include "ops/ScalarOps.h"

#include <vector>

namespace tl {

/// Tangent of y = code(inputs) given the inputs' tangents (an empty Var is a zero
/// tangent). Returns an empty Var when the tangent is zero: all input tangents are
/// zero, or the op is not differentiable (comparisons, bit ops, int_div, integer
/// outputs, casts to integers).
Var scalarOpRop(ScalarOpCode code, DType castTo, const std::vector<Var>& inputs, const Var& output,
                const std::vector<Var>& tangents);

/// Tangents of a Composite's outputs: the inner scalar graph is replayed on the
/// tensor `inputs` (only the intermediates a rule needs are rebuilt; the Composite's
/// own `outputs` stand for its inner outputs) and each node's rule applied.
std::vector<Var> compositeRop(const Graph& inner, const std::vector<Var>& inputs, const std::vector<Var>& outputs,
                              const std::vector<Var>& tangents);

/// `t` broadcast to the static shape of `like` when some dim of `t` is statically 1
/// where like's is not (a tangent must have its primal's shape); `t` otherwise.
Var broadcastTangent(const Var& t, const Var& like);

} // namespace tl
