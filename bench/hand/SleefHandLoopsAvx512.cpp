// The 8-lane hand loops (compiled with -mavx512f; called only on CPUs with AVX-512F).
#include <immintrin.h>
#include <sleef.h>

#include "SleefHandLoopsImpl.h"

namespace tl::bench::detail {

namespace {
struct D8 {
    static constexpr int W = 8;
    static __m512d load(const double* p) { return _mm512_loadu_pd(p); }
    static void store(double* p, __m512d v) { _mm512_storeu_pd(p, v); }
    static __m512d broadcast(double v) { return _mm512_set1_pd(v); }
    static __m512d exp(__m512d v) { return Sleef_expd8_u10(v); }
    static __m512d tanh(__m512d v) { return Sleef_tanhd8_u10(v); }
};
} // namespace

void compositeAvx512(const double* x, const double* y, double* out, int64_t n) { compositeLoop<D8>(x, y, out, n); }
double sumExpTimesAvx512(const double* x, const double* y, int64_t n) { return sumExpTimesLoop<D8>(x, y, n); }

} // namespace tl::bench::detail
