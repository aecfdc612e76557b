#pragma once
// Drives a ScalarProgram over n-d arrays with NumPy broadcasting: a fast path
// for contiguous same-shape operands (blocks straight over the memory), and a
// strided path that collapses dimensions, gathers broadcast or strided inputs
// into blocks and scatters into strided outputs.
#include "core/NDArray.h"

#include <cstddef>
#include <span>
#include <string>

namespace tl {

class ScalarProgram;

/// a == b without a library call (shapes are a few dims; this runs per Scan step).
inline bool shapesEqual(const Shape& a, const Shape& b) {
    if (&a == &b) return true;
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) return false;
    return true;
}

/// NumPy's broadcast of the input shapes (all of one rank; a dim of size 1
/// stretches). Throws ExecError starting with `where` naming the shapes otherwise.
Shape broadcastShapes(std::span<const NDArray> inputs, const std::string& where);

/// Runs `program` elementwise: inputs broadcast to the outputs' shape, outputs
/// already allocated (any strides). An output may be the very array of an input
/// (inplace) or otherwise overlap one: every element of a block is read before
/// that block is written, and an input overlapping an output in another layout
/// is copied first, so the result is always what a fresh output would hold.
void runElementwise(const ScalarProgram& program, std::span<const NDArray> inputs, std::span<NDArray> outputs);

/// Inputs and outputs runContiguousElementwise takes, each.
inline constexpr size_t kMaxContiguousOperands = 16;

/// The contiguous case on raw pointers: `total` elements of the program's dtypes at
/// in[i] and out[o] (at most kMaxContiguousOperands of each). An output must not overlap any input,
/// except exactly (same first byte, same dtype size), and only where aliased[o] is
/// set: such an output is stored block by block after the block's inputs were read.
/// A Scan whose step is one Elemwise calls this once per step (exec/ScanElemwiseStep.h).
void runContiguousElementwise(const ScalarProgram& program, std::span<const std::byte* const> in,
                              std::span<std::byte* const> out, const bool* aliased, int64_t total);

} // namespace tl
