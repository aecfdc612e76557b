#pragma once
// Vectorised transcendental functions for the block loops of ScalarKernels,
// through SLEEF's 1-ULP variants (docs/performance.md#vectorised-math-and-threads).
// SLEEF's dispatching entry points pick the instruction set at run time: the
// 4-lane double / 8-lane float functions (AVX, FMA4 or AVX2) when the CPU has
// AVX, the 2-lane / 4-lane ones (SSE2, SSE4.1 or AVX2-128) otherwise, so one
// binary runs on any x86-64. Lanes where SLEEF and the C library may disagree in
// more than rounding (zeros, infinities, NaN, subnormal inputs, results near
// overflow or underflow, and each function's own edge cases) are recomputed with
// the C library, so those results are bit-identical to std::.
#include <cstdint>

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
/// The function's name as the scalar op spells it ("exp", "arctan2").
const char* fnName(Fn f);

/// out[i] = f(a[i]) for i < n. `out` must not overlap the inputs (the block
/// loops' registers never do): special lanes are recomputed from them.
void apply(Fn f, const double* a, double* out, int64_t n);
void apply(Fn f, const float* a, float* out, int64_t n);
/// out[i] = f(a[i], b[i]) for the binary functions.
void apply2(Fn f, const double* a, const double* b, double* out, int64_t n);
void apply2(Fn f, const float* a, const float* b, float* out, int64_t n);

/// The same functions computed element by element with the C library (the
/// reference the vectorised ones are tested against, and the fallback).
void applyScalar(Fn f, const double* a, double* out, int64_t n);
void applyScalar(Fn f, const float* a, float* out, int64_t n);
void apply2Scalar(Fn f, const double* a, const double* b, double* out, int64_t n);
void apply2Scalar(Fn f, const float* a, const float* b, float* out, int64_t n);

/// The instruction set SLEEF's entry points were chosen for: "avx" (4 doubles,
/// SLEEF then picks AVX2, FMA4 or AVX) or "sse2" (2 doubles; SSE2, SSE4.1 or AVX2-128).
const char* isaName();
/// Uses the loops of `isa` ("avx" or "sse2") from now on, so tests can check both
/// on one machine. False (nothing changes) when the CPU lacks it or the name is unknown.
bool selectIsa(const char* isa);

/// Switches every apply() to the C library (tests and benchmarks compare the
/// two); returns the previous setting. Process-wide, not meant to be flipped
/// while kernels run on other threads.
bool setVectorised(bool on);
bool vectorised();

} // namespace tl::vmath
