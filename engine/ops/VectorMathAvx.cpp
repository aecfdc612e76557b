// The 256-bit SLEEF loops (ops/VectorMathLoops.h). This file alone is compiled
// with -mavx (engine/CMakeLists.txt); it runs only after VectorMath.cpp checked
// that the CPU has AVX.
#include <immintrin.h>
#include <sleef.h>

#include "ops/VectorMathLoopsImpl.h"

namespace tl::vmath::detail {

namespace {

struct D4 {
    using T = double;
    static constexpr int W = 4;
    static __m256d load(const double* p) { return _mm256_loadu_pd(p); }
    static void store(double* p, __m256d v) { _mm256_storeu_pd(p, v); }
    template <class M> static bool allLanes(M m) { return _mm256_movemask_pd((__m256d)m) == 0xF; }
};
struct F8 {
    using T = float;
    static constexpr int W = 8;
    static __m256 load(const float* p) { return _mm256_loadu_ps(p); }
    static void store(float* p, __m256 v) { _mm256_storeu_ps(p, v); }
    template <class M> static bool allLanes(M m) { return _mm256_movemask_ps((__m256)m) == 0xFF; }
};

__m256d sqrtD4(__m256d x) { return _mm256_sqrt_pd(x); }
__m256 sqrtF8(__m256 x) { return _mm256_sqrt_ps(x); }

// The functions the pair loops call, by Fn (filled with the table).
decltype(&Sleef_expd4_u10) g_vecD[kNumFns] = {};
decltype(&Sleef_expf8_u10) g_vecF[kNumFns] = {};

} // namespace

void fillAvxTable(LoopTable& t) { TL_VM_FILL_TABLE(t, D4, F8, d4, f8, sqrtD4, sqrtF8) }

} // namespace tl::vmath::detail
