#pragma once
// The block loops that call the vectorised functions (ops/VectorMath.h): one
// function per instruction, or two independent ones paired in one loop.
//
// Why pairs: a SLEEF function is a long chain of dependent vector instructions.
// Run one after the other over a block, `exp` then `tanh` each wait on their own
// chain, while a loop calling both on each vector gives the core two independent
// chains to overlap, as a hand-written loop over `2*exp(x) + tanh(y)` does. Each
// element's value is the one the separate calls give (the same functions on the
// same arguments, the same special lanes recomputed).
#include "ops/ScalarKernels.h"
#include "ops/VectorMath.h"

#include <optional>

namespace tl {

/// The vectorised function whose loop computes `code` on float32 and float64, if any.
std::optional<vmath::Fn> vectorFnOf(ScalarOpCode code);

/// The loop of `code` through its vectorised function on `compute`, or null (no such
/// function, or a dtype other than float32 and float64).
BlockFn vectorBlockKernel(ScalarOpCode code, DType compute);

/// The vectorised function `code` computes on `compute`, when such a call can be
/// paired: SLEEF's unary functions on float32 and float64 (not sqrt, a single
/// instruction, nor the compositions sigmoid, softplus and log1mexp, each several
/// calls already).
std::optional<vmath::Fn> pairableVectorFn(ScalarOpCode code, DType compute);

/// The loop of a paired instruction in `dtype` (BlockInstr::dst2, pairFns).
BlockFn pairedVectorKernel(DType dtype);

} // namespace tl
