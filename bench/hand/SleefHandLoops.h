#pragma once
// What a C++ programmer writes with SLEEF for the fused kernels the benchmarks
// time, at each vector width: the baselines of bench_composite and
// bench_fused_reduction. Each width's loops live in a file compiled for its
// instruction set (SleefHandLoopsAvx.cpp with -mavx, SleefHandLoopsAvx512.cpp with
// -mavx512f); these functions pick the one for `isa` ("avx512", "avx", "sse2",
// vmath::isaName's names), which the CPU must have.
#include <cstdint>

namespace tl::bench {

/// out[i] = 2*exp(x[i]) + tanh(y[i]) - x[i]*y[i]: SLEEF's 1-ULP exp and tanh over the
/// width's lanes, the arithmetic in vector registers in the kernel's order
/// ((2*e + t) - x*y, no FMA contraction), the tail with the C library.
void sleefComposite(const char* isa, const double* x, const double* y, double* out, int64_t n);

/// sum(exp(x) * y): SLEEF's exp over the width's lanes, product and sum in two
/// vector accumulators, the tail with the C library.
double sleefSumExpTimes(const char* isa, const double* x, const double* y, int64_t n);

} // namespace tl::bench
