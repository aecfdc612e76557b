#pragma once
// Pieces scan_save_mem uses whether n_steps is a constant (ScanSaveMem.cpp) or only
// known at run time (ScanSaveMemSymbolic.cpp): which unused states the step still
// needs, rebuilding a trace buffer at a new length, recognising a buffer of length
// n_steps + init_l when n_steps is symbolic.
#include "ir/Rewriter.h"
#include "ops/ScanOp.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tl {

/// Per traced state: must it stay although `used[item]` is false (items are the
/// traced states, then the nit_sots)? A state stays when an output that stays (a used
/// item, an untraced update, the while condition) depends on its taps, transitively.
std::vector<bool> requiredStates(const ScanOp& op, const std::vector<bool>& used);

/// `buffer` rebuilt with `length` rows (an integer scalar, constant or symbolic) whose
/// first `initRows` rows are its initial rows. The default construction (and Rop's
/// zero-filled Alloc) is rebuilt at the new length, so the large allocation
/// disappears; anything else is sliced buffer[:length].
Variable* resizeBuffer(Rewriter& rewriter, Variable* buffer, int64_t initRows, Variable* length);

/// A constant `rows` typed as `buffer`'s current length input (its default
/// construction's), or a Scalar(int64) for any other buffer: resizeBuffer's `length`.
Variable* bufferLengthConstant(Rewriter& rewriter, Variable* buffer, int64_t rows);

/// True when `v` computes `nSteps + k` (k >= 0): nSteps itself for k = 0, Add(nSteps, k)
/// in either order otherwise, seen through Shape_i of the Alloc/AllocEmpty/SetSubtensor
/// that has it as a dimension (Rop's zeros_like of a buffer) and through casts between
/// 0-d tensors and scalars. nSteps is compared structurally (two Shape_i{0}(M) nodes are
/// one value). Bounded walk, no recursion.
bool isStepsPlus(const Variable* v, const Variable* nSteps, int64_t k);

/// Passes the old loop's outputs on to the rebuilt loop's (`outputMap[o]`, -1:
/// removed), except those in `viaReads`, whose reads the caller re-indexes. Which
/// outputs are read is taken before any replace: a replace prunes the old loop, and
/// its outputs with it, as soon as nothing reads it any more.
void passOutputsOn(Rewriter& rewriter, const std::vector<Variable*>& oldOuts, const std::vector<Variable*>& newOuts,
                   const std::vector<int>& outputMap, const std::vector<bool>& viaReads);

/// When `nSteps` is Minimum(x, c) (either order) with a constant c: c.
std::optional<int64_t> minimumBound(const Variable* nSteps);

} // namespace tl
