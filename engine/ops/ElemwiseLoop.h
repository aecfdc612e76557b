#pragma once
// Drives a ScalarProgram over n-d arrays with NumPy broadcasting: a fast path
// for contiguous same-shape operands (blocks straight over the memory), and a
// strided path that collapses dimensions, gathers broadcast or strided inputs
// into blocks and scatters into strided outputs.
#include "core/NDArray.h"

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

} // namespace tl
