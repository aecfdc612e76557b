// Products and linear algebra through tensorlens's kernels against the same
// OpenBLAS / LAPACK routines called directly, in the same run, alternating so
// machine noise hits both alike:
//   - 512x512 float64 GEMM: Dot22's kernel vs cblas_dgemm;
//   - 1000x1000 float64 GEMV: CGemv{inplace}'s kernel vs cblas_dgemv;
//   - a batched Solve of 1,000 4x4 systems: Blockwise{Solve} vs dgesv per system
//     (with the copies a direct caller makes: LAPACK overwrites A and b);
//   - a Cholesky of a 500x500 matrix: Cholesky's kernel vs dpotrf on a copy.
// Each BM_*Ratio reports kernel / direct (best of its iterations) as `ratio`;
// docs/performance.md records the figures.
#include "ops/BlasOps.h"
#include "ops/Blockwise.h"
#include "ops/Linalg.h"

#include <benchmark/benchmark.h>
#include <cblas.h>
#include <lapacke.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <vector>

using namespace tl;

namespace {

using Clock = std::chrono::steady_clock;
double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

NDArray filled(const Shape& shape, double scale, double shift) {
    NDArray a = NDArray::empty(DType::Float64, shape);
    for (int64_t i = 0; i < a.size(); ++i) a.data<double>()[i] = shift + scale * std::sin(0.37 * static_cast<double>(i) + 1.0);
    return a;
}

// A batch of well-conditioned n x n systems (diagonally dominant).
NDArray dominant(int64_t batch, int64_t n) {
    NDArray a = filled({batch, n, n}, 1.0, 0.0);
    for (int64_t b = 0; b < batch; ++b)
        for (int64_t i = 0; i < n; ++i) a.data<double>()[(b * n + i) * n + i] += 2.0 * static_cast<double>(n);
    return a;
}

void report(benchmark::State& state, double kernel, double direct) {
    state.counters["kernel_ms"] = kernel;
    state.counters["direct_ms"] = direct;
    state.counters["ratio"] = kernel / direct;
}

void BM_GemmRatio(benchmark::State& state) {
    const int n = 512;
    const NDArray a = filled({n, n}, 1.0, 0.0), b = filled({n, n}, 0.5, 0.1);
    std::vector<NDArray> out(1);
    std::vector<double> c(static_cast<size_t>(n) * n);
    const NDArray ins[] = {a, b};
    double best[2] = {1e30, 1e30};
    for (auto _ : state) {
        auto t0 = Clock::now();
        makeDot22()->perform(ins, out);
        auto t1 = Clock::now();
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a.data<double>(), n, b.data<double>(), n, 0.0,
                    c.data(), n);
        auto t2 = Clock::now();
        benchmark::ClobberMemory();
        best[0] = std::min(best[0], ms(t0, t1));
        best[1] = std::min(best[1], ms(t1, t2));
    }
    if (std::memcmp(out[0].data<double>(), c.data(), c.size() * sizeof(double)) != 0)
        state.SkipWithError("Dot22 and cblas_dgemm disagree");
    report(state, best[0], best[1]);
}

void BM_GemvRatio(benchmark::State& state) {
    const int n = 1000;
    const NDArray a = filled({n, n}, 1.0, 0.0), x = filled({n}, 0.5, 0.1);
    NDArray y = NDArray::zeros(DType::Float64, {n});
    std::vector<double> yd(static_cast<size_t>(n), 0.0);
    const NDArray alpha = NDArray::scalar(DType::Float64, 1.0), beta = NDArray::scalar(DType::Float64, 0.0);
    OpPtr op = makeGemv(true);
    std::vector<NDArray> out(1);
    const NDArray ins[] = {y, alpha, a, x, beta};
    double best[2] = {1e30, 1e30};
    for (auto _ : state) {
        auto t0 = Clock::now();
        op->perform(ins, out);
        auto t1 = Clock::now();
        cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, a.data<double>(), n, x.data<double>(), 1, 0.0, yd.data(), 1);
        auto t2 = Clock::now();
        benchmark::ClobberMemory();
        best[0] = std::min(best[0], ms(t0, t1));
        best[1] = std::min(best[1], ms(t1, t2));
    }
    if (std::memcmp(y.data<double>(), yd.data(), yd.size() * sizeof(double)) != 0)
        state.SkipWithError("CGemv and cblas_dgemv disagree");
    report(state, best[0], best[1]);
}

void BM_BatchedSolveRatio(benchmark::State& state) {
    const int batch = 1000, n = 4;
    const NDArray as = dominant(batch, n), bs = filled({batch, n}, 1.0, 0.0);
    OpPtr op = makeBlockwise(makeSolve("gen", false, true, 1), "(m,m),(m)->(m)");
    std::vector<NDArray> out(1);
    const NDArray ins[] = {as, bs};
    std::vector<double> lu(n * n), x(static_cast<size_t>(batch) * n);
    std::vector<lapack_int> piv(n);
    double best[2] = {1e30, 1e30};
    for (auto _ : state) {
        auto t0 = Clock::now();
        op->perform(ins, out);
        auto t1 = Clock::now();
        for (int k = 0; k < batch; ++k) {
            // A row-major system is its transpose column-major: copy A as LAPACK wants it.
            const double* a = as.data<double>() + static_cast<size_t>(k) * n * n;
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) lu[i + j * n] = a[i * n + j];
            std::memcpy(&x[static_cast<size_t>(k) * n], bs.data<double>() + static_cast<size_t>(k) * n, n * sizeof(double));
            LAPACKE_dgesv_work(LAPACK_COL_MAJOR, n, 1, lu.data(), n, piv.data(), &x[static_cast<size_t>(k) * n], n);
        }
        auto t2 = Clock::now();
        benchmark::ClobberMemory();
        best[0] = std::min(best[0], ms(t0, t1));
        best[1] = std::min(best[1], ms(t1, t2));
    }
    double diff = 0;
    for (size_t i = 0; i < x.size(); ++i) diff = std::max(diff, std::fabs(out[0].data<double>()[i] - x[i]));
    if (diff > 1e-12) state.SkipWithError("Blockwise{Solve} and dgesv disagree");
    report(state, best[0], best[1]);
}

void BM_CholeskyRatio(benchmark::State& state) {
    const int n = 500;
    // A A^T + n I: positive definite.
    const NDArray g = filled({n, n}, 1.0, 0.0);
    NDArray spd = NDArray::empty(DType::Float64, {n, n});
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, g.data<double>(), n, g.data<double>(), n, 0.0,
                spd.data<double>(), n);
    for (int i = 0; i < n; ++i) spd.data<double>()[i * n + i] += n;
    OpPtr op = makeCholesky(true);
    std::vector<NDArray> out(1);
    const NDArray ins[] = {spd};
    std::vector<double> a(static_cast<size_t>(n) * n);
    double best[2] = {1e30, 1e30};
    for (auto _ : state) {
        auto t0 = Clock::now();
        op->perform(ins, out);
        auto t1 = Clock::now();
        // Symmetric: the row-major matrix is its own column-major copy.
        std::memcpy(a.data(), spd.data<double>(), a.size() * sizeof(double));
        LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, a.data(), n);
        auto t2 = Clock::now();
        benchmark::ClobberMemory();
        best[0] = std::min(best[0], ms(t0, t1));
        best[1] = std::min(best[1], ms(t1, t2));
    }
    double diff = 0;
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) diff = std::max(diff, std::fabs(out[0].data<double>()[i * n + j] - a[i + j * n]));
    if (diff > 1e-10) state.SkipWithError("Cholesky and dpotrf disagree");
    report(state, best[0], best[1]);
}

} // namespace

BENCHMARK(BM_GemmRatio)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_GemvRatio)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_BatchedSolveRatio)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_CholeskyRatio)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK_MAIN();
