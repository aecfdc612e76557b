#pragma once
// The loop templates shared by VectorMathAvx.cpp and VectorMathSse2.cpp: each
// includes this after defining its vector traits (V, T, W, load, store), so the
// same loops are compiled once per instruction set. Plain loops only: no standard
// library templates, which could otherwise be merged across the two units.
#include "ops/VectorMathLoops.h"

namespace tl::vmath::detail {

template <class Tr, auto F> void loop1(const typename Tr::T* a, typename Tr::T* out, int64_t n) {
    using T = typename Tr::T;
    int64_t i = 0;
    for (; i + Tr::W <= n; i += Tr::W) Tr::store(out + i, F(Tr::load(a + i)));
    if (i < n && n >= Tr::W && (out + n <= a || a + n <= out)) {
        // The tail as the last whole vector, overlapping lanes already done (the same
        // values again): no copy, which counts on a Scan step's few elements.
        Tr::store(out + n - Tr::W, F(Tr::load(a + n - Tr::W)));
    } else if (i < n) {
        // The tail as one padded vector: 1 is inside every function's domain.
        alignas(64) T t[Tr::W];
        for (int k = 0; k < Tr::W; ++k) t[k] = i + k < n ? a[i + k] : T(1);
        Tr::store(t, F(Tr::load(t)));
        for (int64_t k = 0; i + k < n; ++k) out[i + k] = t[k];
    }
}

template <class Tr, auto F>
void loop2(const typename Tr::T* a, const typename Tr::T* b, typename Tr::T* out, int64_t n) {
    using T = typename Tr::T;
    int64_t i = 0;
    for (; i + Tr::W <= n; i += Tr::W) Tr::store(out + i, F(Tr::load(a + i), Tr::load(b + i)));
    if (i < n && n >= Tr::W && (out + n <= a || a + n <= out) && (out + n <= b || b + n <= out)) {
        Tr::store(out + n - Tr::W, F(Tr::load(a + n - Tr::W), Tr::load(b + n - Tr::W)));
    } else if (i < n) {
        alignas(64) T ta[Tr::W], tb[Tr::W];
        for (int k = 0; k < Tr::W; ++k) {
            ta[k] = i + k < n ? a[i + k] : T(1);
            tb[k] = i + k < n ? b[i + k] : T(1);
        }
        Tr::store(ta, F(Tr::load(ta), Tr::load(tb)));
        for (int64_t k = 0; i + k < n; ++k) out[i + k] = ta[k];
    }
}

// TrustedBand's tests on whole vectors, with GCC's vector operators on the
// intrinsic types, so each unit compiles them for its own instruction set.
template <typename T, class V> inline auto normalLanes(V x) {
    using B = TrustedBand<T>;
    const V ax = x < T(0) ? -x : x;  // NaN stays NaN and fails every compare
    return (ax >= B::kArgMin) & (ax <= B::kArgMax);
}
template <typename T, class V> inline auto trustedResultLanes(V r) {
    using B = TrustedBand<T>;
    const V ar = r < T(0) ? -r : r;
    return (ar >= B::kResultMin) & (ar < B::kResultEnd);
}

// Whether every lane of the vectors is trusted: one pass, the tail as one vector
// padded with values inside the band (1 for results and arguments, 2 for pow's base,
// whose 1 is special).
template <class Tr, bool Binary>
bool trustedPass(const typename Tr::T* a, const typename Tr::T* b, const typename Tr::T* r, int64_t n, bool pow) {
    using T = typename Tr::T;
    using V = decltype(Tr::load(a));
    auto lanes = [&](V va, V vb, V vr) {
        auto ok = normalLanes<T>(va) & trustedResultLanes<T>(vr);
        if constexpr (Binary) {
            ok &= normalLanes<T>(vb);
            if (pow) ok &= (va > T(0)) & (va != T(1));
        }
        return ok;
    };
    decltype(lanes(V{}, V{}, V{})) ok = {};
    ok = ~ok;
    int64_t i = 0;
    for (; i + Tr::W <= n; i += Tr::W) ok &= lanes(Tr::load(a + i), Binary ? Tr::load(b + i) : V{}, Tr::load(r + i));
    if (i < n && n >= Tr::W) {
        // The last whole vector again: a lane tested twice changes nothing.
        const int64_t j = n - Tr::W;
        ok &= lanes(Tr::load(a + j), Binary ? Tr::load(b + j) : V{}, Tr::load(r + j));
    } else if (i < n) {
        alignas(64) T ta[Tr::W], tb[Tr::W], tr[Tr::W];
        for (int k = 0; k < Tr::W; ++k) {
            const bool in = i + k < n;
            ta[k] = in ? a[i + k] : T(2);
            tb[k] = in && Binary ? b[i + k] : T(1);
            tr[k] = in ? r[i + k] : T(1);
        }
        ok &= lanes(Tr::load(ta), Tr::load(tb), Tr::load(tr));
    }
    bool all = true;
    for (int k = 0; k < Tr::W; ++k) all = all && ok[k] != 0;
    return all;
}

// The argument-only test (argumentBand): one load and three compares per vector.
template <class Tr> bool allArgumentsTrusted(const typename Tr::T* a, int64_t n, const ArgumentBand<typename Tr::T>& band) {
    using T = typename Tr::T;
    using V = decltype(Tr::load(a));
    const T lo = band.lo, hi = band.hi, absMin = band.absMin;
    auto lanes = [&](V x) {
        const V ax = x < T(0) ? -x : x;
        return (x >= lo) & (x <= hi) & (ax >= absMin);
    };
    decltype(lanes(V{})) ok = {};
    ok = ~ok;
    int64_t i = 0;
    for (; i + Tr::W <= n; i += Tr::W) ok &= lanes(Tr::load(a + i));
    if (i < n && n >= Tr::W) {
        ok &= lanes(Tr::load(a + n - Tr::W));
    } else if (i < n) {
        alignas(64) T ta[Tr::W];
        for (int k = 0; k < Tr::W; ++k) ta[k] = i + k < n ? a[i + k] : (lo + hi) / 2 + absMin * 2;
        ok &= lanes(Tr::load(ta));
    }
    bool all = true;
    for (int k = 0; k < Tr::W; ++k) all = all && ok[k] != 0;
    return all;
}

template <class Tr> bool allTrusted(const typename Tr::T* a, const typename Tr::T* r, int64_t n) {
    return trustedPass<Tr, false>(a, nullptr, r, n, false);
}
template <class Tr>
bool allTrusted2(const typename Tr::T* a, const typename Tr::T* b, const typename Tr::T* r, int64_t n, bool pow) {
    return trustedPass<Tr, true>(a, b, r, n, pow);
}

} // namespace tl::vmath::detail

// The unary functions: Fn, SLEEF's name, its 1-ULP variant (erfc has only 1.5).
// sqrt is the hardware instruction (correctly rounded), defined per unit.
#define TL_VM_UNARY(X)        \
    X(Exp, exp, u10)          \
    X(Expm1, expm1, u10)      \
    X(Exp2, exp2, u10)        \
    X(Log, log, u10)          \
    X(Log1p, log1p, u10)      \
    X(Log2, log2, u10)        \
    X(Log10, log10, u10)      \
    X(Sin, sin, u10)          \
    X(Cos, cos, u10)          \
    X(Tan, tan, u10)          \
    X(Sinh, sinh, u10)        \
    X(Cosh, cosh, u10)        \
    X(Tanh, tanh, u10)        \
    X(ArcSin, asin, u10)      \
    X(ArcCos, acos, u10)      \
    X(ArcTan, atan, u10)      \
    X(ArcSinh, asinh, u10)    \
    X(ArcCosh, acosh, u10)    \
    X(ArcTanh, atanh, u10)    \
    X(Erf, erf, u10)          \
    X(Erfc, erfc, u15)
#define TL_VM_BINARY(X) \
    X(Pow, pow, u10)    \
    X(ArcTan2, atan2, u10)
