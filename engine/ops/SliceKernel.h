#pragma once
// Kernels that compute one core problem into arrays they are handed. Blockwise
// allocates a whole batch once and has each problem written straight into its
// slice, so a batch of a thousand 4x4 solves costs a thousand LAPACK calls and
// no per-element allocation; the op's own perform() is the batch of one.
#include "core/NDArray.h"
#include "ops/LinalgBuffers.h"

#include <span>
#include <vector>

namespace tl {

class Op;

class SliceKernel {
public:
    virtual ~SliceKernel() = default;
    /// Shapes and dtypes of the outputs for one problem on these inputs (only their
    /// shapes and dtypes are read). Throws ExecError for shapes the op cannot take.
    virtual void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& shapes,
                              std::vector<DType>& dtypes) const = 0;
    /// Computes one problem into `out` (the shapes and dtypes sliceOutputs gave, any
    /// strides). An output may share memory with the input the op's destroy_map says it
    /// destroys, so every input is read before any output is written. Throws ExecError.
    virtual void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out,
                              linalg::Workspace& ws) const = 0;
};

/// Op::perform of a SliceKernel op: outputs allocated (a previous call's reused when
/// alone, a destroyed input's memory when the op's destroy_map allows and it fits),
/// then computeSlice.
void performSlice(const Op& op, const SliceKernel& kernel, std::span<const NDArray> in, std::span<NDArray> out);

} // namespace tl
