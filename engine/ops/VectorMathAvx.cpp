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
};
struct F8 {
    using T = float;
    static constexpr int W = 8;
    static __m256 load(const float* p) { return _mm256_loadu_ps(p); }
    static void store(float* p, __m256 v) { _mm256_storeu_ps(p, v); }
};

__m256d sqrtD4(__m256d x) { return _mm256_sqrt_pd(x); }
__m256 sqrtF8(__m256 x) { return _mm256_sqrt_ps(x); }

} // namespace

void fillAvxTable(LoopTable& t) {
#define TL_X(e, name, acc)                                                            \
    t.d[static_cast<int>(Fn::e)] = &loop1<D4, Sleef_##name##d4_##acc>;              \
    t.f[static_cast<int>(Fn::e)] = &loop1<F8, Sleef_##name##f8_##acc>;
    TL_VM_UNARY(TL_X)
#undef TL_X
#define TL_X(e, name, acc)                                                            \
    t.d2[static_cast<int>(Fn::e)] = &loop2<D4, Sleef_##name##d4_##acc>;             \
    t.f2[static_cast<int>(Fn::e)] = &loop2<F8, Sleef_##name##f8_##acc>;
    TL_VM_BINARY(TL_X)
#undef TL_X
    t.d[static_cast<int>(Fn::Sqrt)] = &loop1<D4, sqrtD4>;
    t.f[static_cast<int>(Fn::Sqrt)] = &loop1<F8, sqrtF8>;
    t.trustedD = &allTrusted<D4>;
    t.trustedF = &allTrusted<F8>;
    t.argTrustedD = &allArgumentsTrusted<D4>;
    t.argTrustedF = &allArgumentsTrusted<F8>;
    t.trusted2D = &allTrusted2<D4>;
    t.trusted2F = &allTrusted2<F8>;
}

} // namespace tl::vmath::detail
