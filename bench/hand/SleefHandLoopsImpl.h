#pragma once
// The hand loops of SleefHandLoops.h as templates over one width's vector type,
// included by each width's file after its traits (load, store, broadcast, Exp,
// Tanh); the arithmetic uses GCC's vector operators on the intrinsic types.
#include <cmath>
#include <cstdint>

namespace tl::bench::detail {

template <class Tr> void compositeLoop(const double* x, const double* y, double* out, int64_t n) {
    const auto two = Tr::broadcast(2.0);
    int64_t i = 0;
    for (; i + Tr::W <= n; i += Tr::W) {
        const auto vx = Tr::load(x + i), vy = Tr::load(y + i);
        const auto e = Tr::exp(vx), t = Tr::tanh(vy);
        Tr::store(out + i, (two * e + t) - vx * vy);
    }
    for (; i < n; ++i) out[i] = 2.0 * std::exp(x[i]) + std::tanh(y[i]) - x[i] * y[i];
}

template <class Tr> double sumExpTimesLoop(const double* x, const double* y, int64_t n) {
    auto acc0 = Tr::broadcast(0.0), acc1 = Tr::broadcast(0.0);
    int64_t i = 0;
    for (; i + 2 * Tr::W <= n; i += 2 * Tr::W) {
        acc0 = acc0 + Tr::exp(Tr::load(x + i)) * Tr::load(y + i);
        acc1 = acc1 + Tr::exp(Tr::load(x + i + Tr::W)) * Tr::load(y + i + Tr::W);
    }
    alignas(64) double lanes[Tr::W];
    Tr::store(lanes, acc0 + acc1);
    double s = 0;
    for (int k = 0; k < Tr::W; ++k) s += lanes[k];
    for (; i < n; ++i) s += std::exp(x[i]) * y[i];
    return s;
}

} // namespace tl::bench::detail
