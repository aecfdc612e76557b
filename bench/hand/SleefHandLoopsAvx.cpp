// The 4-lane hand loops (compiled with -mavx; called only on CPUs with AVX).
#include <immintrin.h>
#include <sleef.h>

#include "SleefHandLoopsImpl.h"

namespace tl::bench::detail {

namespace {
struct D4 {
    static constexpr int W = 4;
    static __m256d load(const double* p) { return _mm256_loadu_pd(p); }
    static void store(double* p, __m256d v) { _mm256_storeu_pd(p, v); }
    static __m256d broadcast(double v) { return _mm256_set1_pd(v); }
    static __m256d exp(__m256d v) { return Sleef_expd4_u10(v); }
    static __m256d tanh(__m256d v) { return Sleef_tanhd4_u10(v); }
};
} // namespace

void compositeAvx(const double* x, const double* y, double* out, int64_t n) { compositeLoop<D4>(x, y, out, n); }
double sumExpTimesAvx(const double* x, const double* y, int64_t n) { return sumExpTimesLoop<D4>(x, y, n); }

} // namespace tl::bench::detail
