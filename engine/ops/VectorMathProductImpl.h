#pragma once
// The product folds of ops/VectorMath.h (foldProductOfCall), one per function and
// instruction set, included by ops/VectorMathLoopsImpl.h (plain loops over the
// units' vector traits, like the rest of it).
#include "ops/SumLanes.h"
#include "ops/VectorMathLoops.h"

namespace tl::vmath::detail {

// F over a vector with E's trust test folded into `in`: the argument band when E
// has one (ArgumentBand), else the argument and the result (TrustedBand).
template <class Tr, auto F, Fn E, class V> inline V trustedCall(V x, unsigned& in) {
    constexpr ArgumentBand<typename Tr::T> band = argumentBand<typename Tr::T>(E);
    if constexpr (band.known) {
        in &= bandBits<Tr, band>(x);
        return F(x);
    } else {
        in &= normalBits<Tr>(x);
        const V r = F(x);
        in &= trustedResultBits<Tr>(r);
        return r;
    }
}

// The sum of F(a[i]) * b[i] into *acc, in kSumLanes lanes of kSumLanes / W vectors
// (lane k * W + w is vector k's lane w). The last n % kSumLanes products go through
// a buffer, computed on padded copies whose padding lanes count as trusted.
template <class Tr, auto F, Fn E>
bool productFold(const typename Tr::T* a, const typename Tr::T* b, typename Tr::T* acc, int64_t n) {
    using T = typename Tr::T;
    using V = decltype(Tr::load(a));
    constexpr int kVectors = kSumLanes / Tr::W;
    static_assert(kVectors * Tr::W == kSumLanes);
    V lanes[kVectors];
    for (V& l : lanes) l = V{};  // +0
    unsigned in = Tr::kAllLanes;
    int64_t i = 0;
    for (; i + kSumLanes <= n; i += kSumLanes)
        for (int k = 0; k < kVectors; ++k) {
            prefetchAhead(a + i + k * Tr::W, true);
            prefetchAhead(b + i + k * Tr::W, true);
            lanes[k] = lanes[k] + trustedCall<Tr, F, E>(Tr::load(a + i + k * Tr::W), in) * Tr::load(b + i + k * Tr::W);
        }
    alignas(64) T tail[kSumLanes];
    for (int k = 0; i + k * Tr::W < n; ++k) {
        const int64_t at = i + k * Tr::W, m = n - at < Tr::W ? n - at : Tr::W;
        alignas(64) T ta[Tr::W], tb[Tr::W];
        for (int w = 0; w < Tr::W; ++w) {
            ta[w] = w < m ? a[at + w] : T(1);
            tb[w] = w < m ? b[at + w] : T(0);
        }
        unsigned bits = Tr::kAllLanes;
        Tr::store(tail + k * Tr::W, trustedCall<Tr, F, E>(Tr::load(ta), bits) * Tr::load(tb));
        in &= bits | (Tr::kAllLanes & ~((1u << m) - 1));
    }
    if (in != Tr::kAllLanes) return false;
    alignas(64) T lane[kSumLanes];
    for (int k = 0; k < kVectors; ++k) Tr::store(lane + k * Tr::W, lanes[k]);
    T r = *acc;
    for (int l = 0; l < kSumLanes; ++l) r = r + lane[l];
    for (int64_t j = 0; i + j < n; ++j) r = r + tail[j];
    *acc = r;
    return true;
}

// productFold for a width that divides kSumLanes, else null (16 floats).
template <class Tr, auto F, Fn E> constexpr auto productFoldOrNull() {
    using T = typename Tr::T;
    if constexpr (kSumLanes % Tr::W == 0) return &productFold<Tr, F, E>;
    else return static_cast<bool (*)(const T*, const T*, T*, int64_t)>(nullptr);
}

} // namespace tl::vmath::detail
