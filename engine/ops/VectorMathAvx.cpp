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
    static constexpr unsigned kAllLanes = 0xF;
    static unsigned geBits(__m256d x, double v) { return static_cast<unsigned>(_mm256_movemask_pd(_mm256_cmp_pd(x, _mm256_set1_pd(v), _CMP_GE_OQ))); }
    static unsigned leBits(__m256d x, double v) { return static_cast<unsigned>(_mm256_movemask_pd(_mm256_cmp_pd(x, _mm256_set1_pd(v), _CMP_LE_OQ))); }
    static __m256d abs(__m256d x) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), x); }
};
struct F8 {
    using T = float;
    static constexpr int W = 8;
    static __m256 load(const float* p) { return _mm256_loadu_ps(p); }
    static void store(float* p, __m256 v) { _mm256_storeu_ps(p, v); }
    static constexpr unsigned kAllLanes = 0xFF;
    static unsigned geBits(__m256 x, float v) { return static_cast<unsigned>(_mm256_movemask_ps(_mm256_cmp_ps(x, _mm256_set1_ps(v), _CMP_GE_OQ))); }
    static unsigned leBits(__m256 x, float v) { return static_cast<unsigned>(_mm256_movemask_ps(_mm256_cmp_ps(x, _mm256_set1_ps(v), _CMP_LE_OQ))); }
    static __m256 abs(__m256 x) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x); }
};

__m256d sqrtD4(__m256d x) { return _mm256_sqrt_pd(x); }
__m256 sqrtF8(__m256 x) { return _mm256_sqrt_ps(x); }

// The functions the pair loops call, by Fn (filled with the table).
decltype(&Sleef_expd4_u10) g_vecD[kNumFns] = {};
decltype(&Sleef_expf8_u10) g_vecF[kNumFns] = {};

} // namespace

void fillAvxTable(LoopTable& t) { TL_VM_FILL_TABLE(t, D4, F8, d4, f8, sqrtD4, sqrtF8) }

} // namespace tl::vmath::detail
