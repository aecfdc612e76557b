#pragma once
// The SLEEF loops behind ops/VectorMath.h, one table per instruction set. Each
// table lives in its own translation unit: VectorMathAvx.cpp is compiled with
// -mavx and VectorMathAvx512.cpp with -mavx512f (sleef.h declares the 256- and
// 512-bit entry points only then), and each includes nothing but intrinsics and
// SLEEF, so no inline function compiled for a wider instruction set can be shared
// with code that runs on CPUs without it. VectorMath.cpp picks a table
// once, with __builtin_cpu_supports.
#include "ops/VectorMath.h"

#include <cstdint>

namespace tl::vmath::detail {

/// Where SLEEF's result is used: the argument is a normal number and the result's
/// magnitude lies in [kResultMin, kResultEnd). Elsewhere VectorMath.cpp takes the
/// C library's value.
template <typename T> struct TrustedBand;
template <> struct TrustedBand<double> {
    static constexpr double kArgMin = 0x1p-1022, kArgMax = 0x1.fffffffffffffp1023;
    static constexpr double kResultMin = 0x1p-991, kResultEnd = 0x1p993;
};
template <> struct TrustedBand<float> {
    static constexpr float kArgMin = 0x1p-126f, kArgMax = 0x1.fffffep127f;
    static constexpr float kResultMin = 0x1p-119f, kResultEnd = 0x1p120f;
};

/// Functions whose result lies inside TrustedBand for every argument x with
/// lo <= x <= hi and |x| >= absMin: for them the band test reads the argument alone
/// (the result need not be loaded and compared). The intervals sit inside what the
/// band allows:
///   exp:  e^-686 = 2^-989.7 and e^688 = 2^992.6 (float: e^-82 = 2^-118.3, e^83 = 2^119.7);
///         zeros and subnormals are kept too (absMin 0): SLEEF's exp of them is 1
///         exactly, as the C library's (tst_vector_math checks ±0 and subnormals), and
///         zeros are common in real data (a block holding one would be tested lane by lane);
///   tanh: |tanh x| <= 1, and |tanh x| > |x| (1 - x^2 / 3) >= 2^-991 once |x| >= 2^-990
///         (float: 2^-118), so only the lower end of |x| is cut, the upper is the largest float.
/// A lane outside the interval is recomputed with the C library, as any lane outside
/// the band is: the interval only has to be contained, not exact.
template <typename T> struct ArgumentBand {
    bool known = false;
    T lo = 0, hi = 0;  // on x
    T absMin = 0;      // on |x|: 0 keeps zeros and subnormals
};
template <typename T> constexpr ArgumentBand<T> argumentBand(Fn f) {
    constexpr bool dbl = sizeof(T) == 8;
    if (f == Fn::Exp) return {true, dbl ? T(-686) : T(-82), dbl ? T(688) : T(83), T(0)};
    if (f == Fn::Tanh) return {true, -TrustedBand<T>::kArgMax, TrustedBand<T>::kArgMax, dbl ? T(0x1p-990) : T(0x1p-118f)};
    return {};
}

/// A unary loop returns whether every argument lay in its function's argumentBand
/// (false for a function without one): then no lane needs the C library.
using LoopD = bool (*)(const double* a, double* out, int64_t n);
using LoopF = bool (*)(const float* a, float* out, int64_t n);
using Loop2D = void (*)(const double* a, const double* b, double* out, int64_t n);
using Loop2F = void (*)(const float* a, const float* b, float* out, int64_t n);
/// A product fold (ops/VectorMath.h foldProductOfCall) returns whether every lane was
/// trusted (then it added to *acc; else *acc is untouched).
using ProductD = bool (*)(const double* a, const double* b, double* acc, int64_t n);
using ProductF = bool (*)(const float* a, const float* b, float* acc, int64_t n);
/// A pair loop returns the same per function: bit 0 for fa, bit 1 for fb.
using PairD = unsigned (*)(Fn fa, const double* a, double* outA, Fn fb, const double* b, double* outB, int64_t n);
using PairF = unsigned (*)(Fn fa, const float* a, float* outA, Fn fb, const float* b, float* outB, int64_t n);

/// SLEEF loops indexed by Fn; null for the compositions (sigmoid, softplus,
/// log1mexp), which VectorMath.cpp builds from the others. A loop handles any n,
/// the last partial vector through a padded copy.
struct LoopTable {
    LoopD d[kNumFns] = {};
    LoopF f[kNumFns] = {};
    Loop2D d2[kNumFns] = {};
    Loop2F f2[kNumFns] = {};
    /// The primitive unary functions' product folds; null where the width does not
    /// divide kSumLanes (16 floats).
    ProductD productD[kNumFns] = {};
    ProductF productF[kNumFns] = {};
    /// Two primitive unary functions (isPrimitive, not sqrt) over two arrays in one loop.
    PairD pairD = nullptr;
    PairF pairF = nullptr;
    /// Whether every (a[i], r[i]), i < n, is inside TrustedBand: one pass at the table's
    /// width. The only definition of the band test: VectorMath.cpp finds the lanes to
    /// recompute with these too, on ever smaller stretches.
    bool (*trustedD)(const double* a, const double* r, int64_t n) = nullptr;
    bool (*trustedF)(const float* a, const float* r, int64_t n) = nullptr;
    /// The same for binary functions: both arguments normal; with `pow` also a base
    /// above 0 other than 1 (the C library's special cases of pow).
    bool (*trusted2D)(const double* a, const double* b, const double* r, int64_t n, bool pow) = nullptr;
    bool (*trusted2F)(const float* a, const float* b, const float* r, int64_t n, bool pow) = nullptr;
    /// Whether every a[i], i < n, is inside `band` (argumentBand): the test of those functions.
    bool (*argTrustedD)(const double* a, int64_t n, const ArgumentBand<double>& band) = nullptr;
    bool (*argTrustedF)(const float* a, int64_t n, const ArgumentBand<float>& band) = nullptr;
};

/// 8 doubles / 16 floats per call (AVX-512F). Call only when the CPU has AVX-512F.
void fillAvx512Table(LoopTable& t);
/// 4 doubles / 8 floats per call (SLEEF picks AVX2, FMA4 or AVX). Call only when the CPU has AVX.
void fillAvxTable(LoopTable& t);
/// 2 doubles / 4 floats per call (SLEEF picks AVX2-128, SSE4.1 or SSE2): every x86-64.
void fillSse2Table(LoopTable& t);

} // namespace tl::vmath::detail
