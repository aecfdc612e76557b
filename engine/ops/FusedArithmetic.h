#pragma once
// Two float arithmetic instructions of a ScalarProgram in one block loop: the
// inner op's result, read only by the outer op, stays in a register instead of
// being written to a block and read back (`2 * exp(x) + tanh(y)` is one pass
// after the two function calls, not two). Each element sees the same two
// operations in the same order as the separate loops, so results are bit-identical
// (no fused multiply-add either). The loops are ops/ArithmeticLoops.h's, at the
// CPU's widest vectors.
#include "ops/ScalarKernels.h"

namespace tl {

/// Whether `code` can be an inner or outer op of a fused pair: add, sub, mul.
bool fusableArithmetic(ScalarOpCode code);

/// The loop computing, per element, outer(inner(a, b), c) when `innerFirst`, else
/// outer(c, inner(a, b)), with a, b, c = src[0], src[1], src[2], all in `dtype`
/// (float32 or float64). Null for any other dtype or op.
BlockFn fusedArithmeticKernel(ScalarOpCode inner, ScalarOpCode outer, bool innerFirst, DType dtype);

} // namespace tl
