#pragma once
// Forward-mode derivatives: pytensor.Rop(f, wrt, eval_points,
// use_op_rop_implementation=True). Walks the nodes between `wrt` and `outputs`
// in topological order and asks each op for its R_op (builder/rop/OpRop.h).
#include "builder/GraphBuilder.h"

#include <vector>

namespace tl {

/// J(outputs) · evalPoints with respect to `wrt`: one tangent per output, built in
/// the outputs' builder. Each eval point must have its wrt's rank (a different
/// dtype is cast to wrt's, as PyTensor does). An output that does not depend on
/// any wrt throws std::invalid_argument (PyTensor's disconnected_outputs="raise");
/// an op without a forward derivative throws std::logic_error naming it.
std::vector<Var> rop(const std::vector<Var>& outputs, const std::vector<Var>& wrt, const std::vector<Var>& evalPoints);
Var rop(const Var& output, const Var& wrt, const Var& evalPoint);

/// The walk behind rop(): tangents of `outputs` in builder `b` given `tangents` of
/// `wrt` (all of b's graph); an invalid Var means zero (not connected).
std::vector<Var> forwardTangents(GraphBuilder& b, const std::vector<Var>& outputs, const std::vector<Var>& wrt,
                                 const std::vector<Var>& tangents);

} // namespace tl
