// The 512-bit SLEEF loops (ops/VectorMathLoops.h). This file alone is compiled
// with -mavx512f (engine/CMakeLists.txt); it runs only after VectorMath.cpp checked
// that the CPU has AVX-512F.
#include <immintrin.h>
#include <sleef.h>

#include "ops/VectorMathLoopsImpl.h"

namespace tl::vmath::detail {

namespace {

// The first k lanes (k < W): masked loads and stores touch no memory past them.
struct D8 {
    using T = double;
    static constexpr int W = 8;
    static __m512d load(const double* p) { return _mm512_loadu_pd(p); }
    static void store(double* p, __m512d v) { _mm512_storeu_pd(p, v); }
    static constexpr unsigned kAllLanes = 0xFF;
    static unsigned geBits(__m512d x, double v) { return _mm512_cmp_pd_mask(x, _mm512_set1_pd(v), _CMP_GE_OQ); }
    static unsigned leBits(__m512d x, double v) { return _mm512_cmp_pd_mask(x, _mm512_set1_pd(v), _CMP_LE_OQ); }
    static __m512d abs(__m512d x) { return _mm512_abs_pd(x); }
    static __mmask8 first(int64_t k) { return static_cast<__mmask8>((1u << k) - 1); }
    static __m512d loadTail(const double* p, int64_t k, double fill) {
        return _mm512_mask_loadu_pd(_mm512_set1_pd(fill), first(k), p);
    }
    static void storeTail(double* p, __m512d v, int64_t k) { _mm512_mask_storeu_pd(p, first(k), v); }
};
struct F16 {
    using T = float;
    static constexpr int W = 16;
    static __m512 load(const float* p) { return _mm512_loadu_ps(p); }
    static void store(float* p, __m512 v) { _mm512_storeu_ps(p, v); }
    static constexpr unsigned kAllLanes = 0xFFFF;
    static unsigned geBits(__m512 x, float v) { return _mm512_cmp_ps_mask(x, _mm512_set1_ps(v), _CMP_GE_OQ); }
    static unsigned leBits(__m512 x, float v) { return _mm512_cmp_ps_mask(x, _mm512_set1_ps(v), _CMP_LE_OQ); }
    static __m512 abs(__m512 x) { return _mm512_abs_ps(x); }
    static __mmask16 first(int64_t k) { return static_cast<__mmask16>((1u << k) - 1); }
    static __m512 loadTail(const float* p, int64_t k, float fill) {
        return _mm512_mask_loadu_ps(_mm512_set1_ps(fill), first(k), p);
    }
    static void storeTail(float* p, __m512 v, int64_t k) { _mm512_mask_storeu_ps(p, first(k), v); }
};

// Masked with every lane set: the unmasked intrinsics start from an undefined
// register, which GCC 12 warns about.
__m512d sqrtD8(__m512d x) { return _mm512_mask_sqrt_pd(x, 0xFF, x); }
__m512 sqrtF16(__m512 x) { return _mm512_mask_sqrt_ps(x, 0xFFFF, x); }

// The functions the pair loops call, by Fn (filled with the table).
decltype(&Sleef_expd8_u10) g_vecD[kNumFns] = {};
decltype(&Sleef_expf16_u10) g_vecF[kNumFns] = {};

} // namespace

void fillAvx512Table(LoopTable& t) { TL_VM_FILL_TABLE(t, D8, F16, d8, f16, sqrtD8, sqrtF16) }

} // namespace tl::vmath::detail
