#pragma once
// Vectorised transcendental functions for the block loops of ScalarKernels,
// through SLEEF's 1-ULP variants (docs/performance.md#vectorised-math-and-threads).
// SLEEF's dispatching entry points pick the instruction set at run time: the
// 8-lane double / 16-lane float functions on a CPU with AVX-512F, the 4-lane /
// 8-lane ones (AVX, FMA4 or AVX2) on one with AVX, the 2-lane / 4-lane ones (SSE2,
// SSE4.1 or AVX2-128) otherwise, so one binary runs on any x86-64. Lanes where
// SLEEF and the C library may disagree in more than rounding (zeros, infinities,
// NaN, subnormal inputs, results near overflow or underflow, and each function's
// own edge cases) are recomputed with the C library, so those results are
// bit-identical to std::.
#include <cstdint>
#include <vector>

namespace tl::vmath {

/// The vectorised functions. The last three are PyTensor's compositions
/// (ops/ScalarOps.h: sigmoid, softplus, log1mexp) built from vectorised pieces.
enum class Fn : uint8_t {
    Exp, Expm1, Exp2, Log, Log1p, Log2, Log10, Sqrt,
    Sin, Cos, Tan, Sinh, Cosh, Tanh,
    ArcSin, ArcCos, ArcTan, ArcSinh, ArcCosh, ArcTanh,
    Erf, Erfc, Sigmoid, Softplus, Log1mexp,
    Pow, ArcTan2,  // binary
};
inline constexpr int kNumFns = static_cast<int>(Fn::ArcTan2) + 1;

/// True for the two-argument functions (pow, arctan2).
constexpr bool isBinary(Fn f) { return f == Fn::Pow || f == Fn::ArcTan2; }
/// True for the one-argument functions SLEEF computes in one call (not PyTensor's
/// compositions sigmoid, softplus and log1mexp, built from several).
constexpr bool isPrimitive(Fn f) {
    return !isBinary(f) && f != Fn::Sigmoid && f != Fn::Softplus && f != Fn::Log1mexp;
}
/// The function's name as the scalar op spells it ("exp", "arctan2").
const char* fnName(Fn f);

/// out[i] = f(a[i]) for i < n. `out` must not overlap the inputs (the block
/// loops' registers never do): special lanes are recomputed from them.
void apply(Fn f, const double* a, double* out, int64_t n);
void apply(Fn f, const float* a, float* out, int64_t n);
/// outA[i] = fa(a[i]) and outB[i] = fb(b[i]) for i < n, two primitive functions
/// (isPrimitive) in one loop that calls both per vector: the same values as two
/// apply() calls, faster, as the two functions' instruction chains overlap
/// (ops/VectorKernels.h). Neither output may overlap either input or the other output.
void applyPair(Fn fa, const double* a, double* outA, Fn fb, const double* b, double* outB, int64_t n);
void applyPair(Fn fa, const float* a, float* outA, Fn fb, const float* b, float* outB, int64_t n);
/// out[i] = f(a[i], b[i]) for the binary functions.
void apply2(Fn f, const double* a, const double* b, double* out, int64_t n);
void apply2(Fn f, const float* a, const float* b, float* out, int64_t n);

/// *acc += the sum of f(a[i]) * b[i] for i < n, f primitive (isPrimitive), added in
/// the lanes and order of ops/SumLanes.h, without storing f's values: the same bits
/// as apply() into an array and then the float sum fold of the products (a
/// reduction's map that ends in a call times a factor, sum(exp(x) * y)). Returns
/// false, *acc untouched, when a lane's argument or result lies outside what SLEEF
/// is trusted with (those lanes need the C library: compute the two-pass way), when
/// the functions are switched to the C library, or for a width that does not divide
/// kSumLanes.
bool foldProductOfCall(Fn f, const double* a, const double* b, double* acc, int64_t n);
bool foldProductOfCall(Fn f, const float* a, const float* b, float* acc, int64_t n);

/// The same functions computed element by element with the C library (the
/// reference the vectorised ones are tested against, and the fallback).
void applyScalar(Fn f, const double* a, double* out, int64_t n);
void applyScalar(Fn f, const float* a, float* out, int64_t n);
void apply2Scalar(Fn f, const double* a, const double* b, double* out, int64_t n);
void apply2Scalar(Fn f, const float* a, const float* b, float* out, int64_t n);

/// The instruction set SLEEF's entry points were chosen for: "avx512" (8 doubles,
/// AVX-512F), "avx" (4 doubles; SLEEF then picks AVX2, FMA4 or AVX) or "sse2"
/// (2 doubles; SSE2, SSE4.1 or AVX2-128). The widest the CPU has, unless the
/// environment variable TL_VMATH_ISA names a narrower one.
const char* isaName();
/// Uses the loops of `isa` ("avx512", "avx" or "sse2") from now on, so tests can check
/// each on one machine. False (nothing changes) when the CPU lacks it or the name is unknown.
bool selectIsa(const char* isa);
/// The instruction sets this CPU can run, widest first.
std::vector<const char*> availableIsas();

/// Whether the map loops (apply, apply2, applyPair) request, per vector, the line
/// one block ahead in each input (software prefetch) while they compute: on Intel
/// CPUs, where the hardware prefetcher alone fell behind a kernel that runs over
/// blocks (2*exp(x) + tanh(y) - x*y on 10M float64: 55-57 -> 51-54 ms on a Xeon);
/// not elsewhere: on an AMD EPYC the hardware keeps up with a map's inputs and
/// output, and the same kernel took 5-15% longer with the requests
/// (docs/performance.md#vectorised-math-and-threads). The folds
/// (foldProductOfCall), which write nothing, always request: faster on both.
/// The environment variable TL_PREFETCH_MAP_INPUTS=0|1 overrides the choice; read
/// once. Results never depend on it.
bool prefetchesMapInputs();
/// Overrides prefetchesMapInputs() (tests and benchmarks run both ways on one machine);
/// returns the previous setting.
bool setPrefetchesMapInputs(bool on);

/// Switches every apply() to the C library (tests and benchmarks compare the
/// two); returns the previous setting. Process-wide, not meant to be flipped
/// while kernels run on other threads.
bool setVectorised(bool on);
bool vectorised();

} // namespace tl::vmath
