#pragma once
// The folds of ReduceOp's kernel (ops/ReduceKernel.h): for each foldable binary
// scalar op and accumulator dtype, loops that fold a block of mapped values into
// the accumulator, with the op's identity to start from.
#include "ops/ScalarOps.h"

#include <cstdint>

namespace tl {

/// add, mul, maximum, minimum, and, or, xor, mul_without_zeros: the ops a
/// reduction folds (commutative and associative, with an identity).
bool reduceFoldable(ScalarOpCode code);

struct FoldKernels {
    /// acc[j] = op(acc[j], m[j]) for j < n (the innermost dimension is kept).
    void (*into)(void* acc, const void* m, int64_t n) = nullptr;
    /// *acc = op(*acc, m[0], ..., m[n-1]) (the innermost dimension is reduced); folds
    /// in several independent lanes, so sums are not one long dependency chain.
    void (*all)(void* acc, const void* m, int64_t n) = nullptr;
    /// all() of the products a[j] * b[j], each rounded as a separate mul would round it
    /// (the same lanes, the same order: bit-identical to mapping then folding); only
    /// for add on floats, else null.
    void (*allProducts)(void* acc, const void* a, const void* b, int64_t n) = nullptr;
    /// acc[j] = identity for j < n (0 for add, 1 for mul, -inf for maximum, ...).
    void (*fill)(void* acc, int64_t n) = nullptr;
};

/// The loops of `code` in accumulator dtype `acc`; all null when the op is not
/// foldable or the dtype does not suit it (bit ops on floats).
FoldKernels reduceFoldKernels(ScalarOpCode code, DType acc);

} // namespace tl
