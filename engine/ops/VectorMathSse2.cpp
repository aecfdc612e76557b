// The 128-bit SLEEF loops (ops/VectorMathLoops.h): SSE2 is part of every x86-64,
// and SLEEF's entry points move up to SSE4.1 or AVX2-128 where the CPU has them.
#include <immintrin.h>
#include <sleef.h>

#include "ops/VectorMathLoopsImpl.h"

namespace tl::vmath::detail {

namespace {

struct D2 {
    using T = double;
    static constexpr int W = 2;
    static __m128d load(const double* p) { return _mm_loadu_pd(p); }
    static void store(double* p, __m128d v) { _mm_storeu_pd(p, v); }
    static constexpr unsigned kAllLanes = 0x3;
    static unsigned geBits(__m128d x, double v) { return static_cast<unsigned>(_mm_movemask_pd(_mm_cmpge_pd(x, _mm_set1_pd(v)))); }
    static unsigned leBits(__m128d x, double v) { return static_cast<unsigned>(_mm_movemask_pd(_mm_cmple_pd(x, _mm_set1_pd(v)))); }
    static __m128d abs(__m128d x) { return _mm_andnot_pd(_mm_set1_pd(-0.0), x); }
};
struct F4 {
    using T = float;
    static constexpr int W = 4;
    static __m128 load(const float* p) { return _mm_loadu_ps(p); }
    static void store(float* p, __m128 v) { _mm_storeu_ps(p, v); }
    static constexpr unsigned kAllLanes = 0xF;
    static unsigned geBits(__m128 x, float v) { return static_cast<unsigned>(_mm_movemask_ps(_mm_cmpge_ps(x, _mm_set1_ps(v)))); }
    static unsigned leBits(__m128 x, float v) { return static_cast<unsigned>(_mm_movemask_ps(_mm_cmple_ps(x, _mm_set1_ps(v)))); }
    static __m128 abs(__m128 x) { return _mm_andnot_ps(_mm_set1_ps(-0.0f), x); }
};

__m128d sqrtD2(__m128d x) { return _mm_sqrt_pd(x); }
__m128 sqrtF4(__m128 x) { return _mm_sqrt_ps(x); }

// The functions the pair loops call, by Fn (filled with the table).
decltype(&Sleef_expd2_u10) g_vecD[kNumFns] = {};
decltype(&Sleef_expf4_u10) g_vecF[kNumFns] = {};

} // namespace

void fillSse2Table(LoopTable& t) { TL_VM_FILL_TABLE(t, D2, F4, d2, f4, sqrtD2, sqrtF4) }

} // namespace tl::vmath::detail
