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
};
struct F4 {
    using T = float;
    static constexpr int W = 4;
    static __m128 load(const float* p) { return _mm_loadu_ps(p); }
    static void store(float* p, __m128 v) { _mm_storeu_ps(p, v); }
};

__m128d sqrtD2(__m128d x) { return _mm_sqrt_pd(x); }
__m128 sqrtF4(__m128 x) { return _mm_sqrt_ps(x); }

} // namespace

void fillSse2Table(LoopTable& t) {
#define TL_X(e, name, acc)                                                            \
    t.d[static_cast<int>(Fn::e)] = &loop1<D2, Sleef_##name##d2_##acc>;              \
    t.f[static_cast<int>(Fn::e)] = &loop1<F4, Sleef_##name##f4_##acc>;
    TL_VM_UNARY(TL_X)
#undef TL_X
#define TL_X(e, name, acc)                                                            \
    t.d2[static_cast<int>(Fn::e)] = &loop2<D2, Sleef_##name##d2_##acc>;             \
    t.f2[static_cast<int>(Fn::e)] = &loop2<F4, Sleef_##name##f4_##acc>;
    TL_VM_BINARY(TL_X)
#undef TL_X
    t.d[static_cast<int>(Fn::Sqrt)] = &loop1<D2, sqrtD2>;
    t.f[static_cast<int>(Fn::Sqrt)] = &loop1<F4, sqrtF4>;
    t.trustedD = &allTrusted<D2>;
    t.trustedF = &allTrusted<F4>;
    t.argTrustedD = &allArgumentsTrusted<D2>;
    t.argTrustedF = &allArgumentsTrusted<F4>;
    t.trusted2D = &allTrusted2<D2>;
    t.trusted2F = &allTrusted2<F4>;
}

} // namespace tl::vmath::detail
