#pragma once
// Block loops of the scalar ops: each applies one op to a block of up to
// kBlockSize elements held in typed slots. A ScalarProgram is a list of these
// calls, so a fused Composite runs one tight (vectorisable) loop per scalar op
// and block instead of interpreting its graph per element.
#include "ops/ScalarOps.h"

#include <cstdint>

namespace tl {

/// Elements per block: a few buffers of this many doubles stay in L1.
inline constexpr int64_t kBlockSize = 256;

struct BlockInstr;
/// Computes instr over n <= kBlockSize elements; `slots` maps slot indices to memory.
/// The destination never overlaps a source (the program allocator guarantees it).
using BlockFn = void (*)(const BlockInstr& instr, void* const* slots, int64_t n);

struct BlockInstr {
    BlockFn fn = nullptr;
    int32_t dst = 0;
    int32_t src[4] = {0, 0, 0, 0};  // hyp2f1 takes four
    /// Two independent vectorised calls run as one loop (ops/VectorKernels.h):
    /// dst = pairFns[0](src[0]) and dst2 = pairFns[1](src[1]), the functions as
    /// vmath::Fn codes. dst2 is -1 for every other instruction.
    int32_t dst2 = -1;
    uint8_t pairFns[2] = {0, 0};
};

/// The loop of `code` when its inputs are all in `compute` dtype (switch: the
/// condition in bool, the branches in `compute`). The output is bool for
/// comparisons and `compute` otherwise. Null for a combination the dtype rules
/// reject (exp of int, bit ops on floats) and for cast (use convertBlockKernel).
BlockFn scalarBlockKernel(ScalarOpCode code, DType compute);
/// Converts n elements of `from` into `to` (a copy when equal), with NumPy's
/// conversion rules (float -> int as on x86-64, anything -> bool is != 0).
BlockFn convertBlockKernel(DType from, DType to);

/// Strided gather / scatter with conversion, for inputs and outputs that are
/// not contiguous in the innermost dimension (stride in elements, may be 0 or negative).
using GatherFn = void (*)(const void* src, int64_t stride, void* dst, int64_t n);
using ScatterFn = void (*)(const void* src, void* dst, int64_t stride, int64_t n);
GatherFn gatherKernel(DType from, DType to);
ScatterFn scatterKernel(DType from, DType to);

} // namespace tl
