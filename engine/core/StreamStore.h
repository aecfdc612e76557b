#pragma once
// Writing large results past the caches. An elementwise kernel reads its inputs
// and writes its output block by block; when the output array starts at the same
// offset within a page as an input (the rule for large arrays from mmap, and
// common for the allocator's too), the stores to it and the loads of the inputs
// compete for the same cache sets, and on some CPUs (measured on an Intel Xeon:
// 2*exp(x) + tanh(y) - x*y on 10M float64 took 80 ms instead of 62) the kernel
// slows by a quarter. Stores that bypass the caches (non-temporal) avoid it, and
// an output far larger than the caches gains nothing from being cached anyway.
// Elsewhere the detour costs more than it saves: on an AMD EPYC (Zen 4) the same
// kernel took 10% longer through the scratch block than storing straight into the
// output, at any placement (docs/performance.md#vectorised-math-and-threads), so
// only Intel CPUs stream (core/CpuVendorDefault.h).
#include <cstddef>

namespace tl {

/// Outputs of at least this many bytes are written with streamBytes
/// (docs/performance.md#vectorised-math-and-threads).
inline constexpr size_t kStreamedOutputBytes = size_t{8} << 20;

/// Whether elementwise kernels stream outputs of at least kStreamedOutputBytes: on
/// Intel CPUs, unless the environment variable TL_STREAM_OUTPUTS is "0" (or "1" on
/// any other CPU), read once.
bool streamsLargeOutputs();
/// Overrides streamsLargeOutputs() (tests cover both paths on one machine); returns
/// the previous setting. Not meant to be flipped while kernels run on other threads.
bool setStreamsLargeOutputs(bool on);

/// Copies `bytes` from `src` to `dst` with non-temporal stores where `dst` is
/// 16-byte aligned (plain stores for the unaligned ends). Call streamFence()
/// before another thread may read `dst`.
void streamBytes(void* dst, const void* src, size_t bytes);
/// Orders this thread's non-temporal stores before its later stores.
void streamFence();

} // namespace tl
