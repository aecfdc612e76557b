// The 2-lane hand loops (SSE2, every x86-64) and the choice of width.
#include "SleefHandLoops.h"

#include <emmintrin.h>
#include <sleef.h>

#include "SleefHandLoopsImpl.h"

#include <cstring>

namespace tl::bench {

namespace detail {
void compositeAvx(const double* x, const double* y, double* out, int64_t n);
double sumExpTimesAvx(const double* x, const double* y, int64_t n);
void compositeAvx512(const double* x, const double* y, double* out, int64_t n);
double sumExpTimesAvx512(const double* x, const double* y, int64_t n);

namespace {
struct D2 {
    static constexpr int W = 2;
    static __m128d load(const double* p) { return _mm_loadu_pd(p); }
    static void store(double* p, __m128d v) { _mm_storeu_pd(p, v); }
    static __m128d broadcast(double v) { return _mm_set1_pd(v); }
    static __m128d exp(__m128d v) { return Sleef_expd2_u10(v); }
    static __m128d tanh(__m128d v) { return Sleef_tanhd2_u10(v); }
};
} // namespace
} // namespace detail

void sleefComposite(const char* isa, const double* x, const double* y, double* out, int64_t n) {
    if (std::strcmp(isa, "avx512") == 0) return detail::compositeAvx512(x, y, out, n);
    if (std::strcmp(isa, "avx") == 0) return detail::compositeAvx(x, y, out, n);
    detail::compositeLoop<detail::D2>(x, y, out, n);
}

double sleefSumExpTimes(const char* isa, const double* x, const double* y, int64_t n) {
    if (std::strcmp(isa, "avx512") == 0) return detail::sumExpTimesAvx512(x, y, n);
    if (std::strcmp(isa, "avx") == 0) return detail::sumExpTimesAvx(x, y, n);
    return detail::sumExpTimesLoop<detail::D2>(x, y, n);
}

} // namespace tl::bench
