#pragma once
// Reductions, softmax and cumulative ops as PyTensor builds them (pt.all, pt.any,
// pt.argmax, pt.argmin, pt.softmax, pt.cumsum, ... ), beside sum/max/prod/min/mean
// in builder/Indexing.h. keepdims=True appends ExpandDims of the reduced axes, as
// PyTensor's makeKeepDims does.
#include "builder/GraphBuilder.h"
#include "ops/CumOp.h"
#include "ops/Reduce.h"

#include <optional>
#include <vector>

namespace tl {

using Axes = std::optional<std::vector<int>>;

/// Any reduction class (Sum, Max, ..., ProdWithoutZeros) with PyTensor's dtype /
/// acc_dtype parameters; axes may be negative (normalized here).
Var reduce(ReduceKind kind, Var x, Axes axes, ReduceParams params = {}, bool keepdims = false);
/// CAReduce{code}(x): a reduction of any foldable binary scalar op.
Var careduce(ScalarOpCode code, Var x, Axes axes, ReduceParams params = {});
/// pt.all / pt.any: x != 0 first for non-bool x (as All.make_node), bool result.
Var all(Var x, Axes axes = std::nullopt, bool keepdims = false);
Var any(Var x, Axes axes = std::nullopt, bool keepdims = false);
/// pt.argmax: int64 indices; several axes count the reduced elements in C order.
Var argmax(Var x, Axes axes = std::nullopt, bool keepdims = false);
/// pt.argmin as PyTensor builds it: argmax(-x) (max_value - x for unsigned, ~x for bool).
Var argmin(Var x, Axes axes = std::nullopt, bool keepdims = false);
/// The reduced axes of an ndim-d input put back as length-1 dims (makeKeepDims).
Var keepDims(Var reduced, int ndim, const Axes& axes);

/// pt.special.softmax / log_softmax (axis nullopt: the whole array) and SoftmaxGrad(dy, sm).
Var softmax(Var x, std::optional<int> axis);
Var logSoftmax(Var x, std::optional<int> axis);
Var softmaxGrad(Var dy, Var sm, std::optional<int> axis);

/// pt.cumsum / pt.cumprod (axis nullopt: over the flattened array, a vector).
Var cumsum(Var x, std::optional<int> axis = std::nullopt);
Var cumprod(Var x, std::optional<int> axis = std::nullopt);

} // namespace tl
