#pragma once
// Writing large results past the caches. An elementwise kernel reads its inputs
// and writes its output block by block; when the output array starts at the same
// offset within a page as an input (the rule for large arrays from mmap, and
// common for the allocator's too), the stores to it and the loads of the inputs
// compete for the same cache sets, and on some CPUs (measured on an Intel Xeon:
// 2*exp(x) + tanh(y) - x*y on 10M float64 took 80 ms instead of 62) the kernel
// slows by a quarter. Stores that bypass the caches (non-temporal) avoid it, and
// an output far larger than the caches gains nothing from being cached anyway.
#include <cstddef>

namespace tl {

/// Outputs of at least this many bytes are written with streamBytes
/// (docs/performance.md#vectorised-math-and-threads).
inline constexpr size_t kStreamedOutputBytes = size_t{8} << 20;

/// Copies `bytes` from `src` to `dst` with non-temporal stores where `dst` is
/// 16-byte aligned (plain stores for the unaligned ends). Call streamFence()
/// before another thread may read `dst`.
void streamBytes(void* dst, const void* src, size_t bytes);
/// Orders this thread's non-temporal stores before its later stores.
void streamFence();

} // namespace tl
