#pragma once
// The blocks a compiled scalar program (ops/ScalarProgram.h) reads its constants
// from: the value repeated kBlockSize times, so an instruction reads a constant
// operand as it reads any other block. One block is 2 KB; a graph whose loops
// each fuse `tanh(x) * a + 0.5` holds one Composite per loop, and 8,000 copies of
// the block of 0.5 would be 16 MB written while the pipeline runs and then kept.
// So equal values share one block: programs hold it by shared_ptr, and a table
// finds the live block of a (dtype, bit pattern).
#include "core/DType.h"
#include "ops/ScalarKernels.h"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace tl {

struct alignas(64) ConstantBlock {
    std::byte data[kBlockSize * 8];  // kBlockSize elements of up to 8 bytes
};

/// The block of kBlockSize copies (an instruction reads at most that many) of the
/// `bytes`-byte value of `dtype` at `value` (bytes <= 8), shared with every other
/// holder of the same bit pattern: -0.0 and 0.0, or two NaNs with different
/// payloads, get different blocks. Thread-safe.
std::shared_ptr<const ConstantBlock> sharedConstantBlock(DType dtype, const void* value, size_t bytes);

/// How many blocks are alive (tests).
size_t liveConstantBlocks();

} // namespace tl
