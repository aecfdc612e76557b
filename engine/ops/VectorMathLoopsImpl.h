#pragma once
// The loop templates shared by the VectorMath*.cpp units: each includes this after
// defining its vector traits (T, W, load, store, kAllLanes, geBits, leBits, abs),
// so the same loops are compiled once per instruction set. Plain loops only: no
// standard library templates, which could otherwise be merged across the units.
#include "ops/VectorMathLoops.h"

namespace tl::vmath::detail {

// Instruction sets with masked loads and stores (AVX-512) read and write a partial
// last vector directly: Tr::loadTail(p, k, fill) gives the k elements at p and
// `fill` in the other lanes, Tr::storeTail(p, v, k) writes v's first k lanes. The
// others pad a copy (or, with n >= W, redo the last whole vector).
template <class Tr>
constexpr bool kMaskedTails = requires(const typename Tr::T* p, typename Tr::T* q) {
    Tr::storeTail(q, Tr::loadTail(p, 1, typename Tr::T(1)), 1);
};

// f on the elements [i, n) of a after the whole vectors, i > n - W.
template <class Tr, class VF> inline void lastVector(VF f, const typename Tr::T* a, typename Tr::T* out, int64_t i, int64_t n) {
    using T = typename Tr::T;
    if (i >= n) return;
    if constexpr (kMaskedTails<Tr>) {
        Tr::storeTail(out + i, f(Tr::loadTail(a + i, n - i, T(1))), n - i);
    } else if (n >= Tr::W && (out + n <= a || a + n <= out)) {
        // The tail as the last whole vector, overlapping lanes already done (the same
        // values again): no copy, which counts on a Scan step's few elements.
        Tr::store(out + n - Tr::W, f(Tr::load(a + n - Tr::W)));
    } else {
        // The tail as one padded vector: 1 is inside every function's domain.
        alignas(64) T t[Tr::W];
        for (int k = 0; k < Tr::W; ++k) t[k] = i + k < n ? a[i + k] : T(1);
        Tr::store(t, f(Tr::load(t)));
        for (int64_t k = 0; i + k < n; ++k) out[i + k] = t[k];
    }
}

// The lanes of x inside `band`, one bit per lane (Tr::kAllLanes when all are): the
// traits' compares give bits, not lane masks, so a loop keeps them in a general
// register, which SLEEF's calls preserve, where a lane mask would be stored and
// loaded around every call. The second form takes a band known at compile time (B)
// and leaves out the tests it makes redundant (exp's has no lower end on |x|,
// tanh's is symmetric); the compiler cannot drop them itself, as it does not know
// that NaN, the one value such a test alone would reject, fails the others too.
template <class Tr, class V> inline unsigned bandBits(V x, const ArgumentBand<typename Tr::T>& b) {
    return Tr::geBits(x, b.lo) & Tr::leBits(x, b.hi) & Tr::geBits(Tr::abs(x), b.absMin);
}
template <class Tr, ArgumentBand<typename Tr::T> B, class V> inline unsigned bandBits(V x) {
    using T = typename Tr::T;
    if constexpr (B.absMin == T(0)) {
        return Tr::geBits(x, B.lo) & Tr::leBits(x, B.hi);
    } else if constexpr (B.lo == -B.hi) {
        const V ax = Tr::abs(x);
        return Tr::geBits(ax, B.absMin) & Tr::leBits(ax, B.hi);
    } else {
        return bandBits<Tr>(x, B);
    }
}

// Asks for the line kPrefetchBytes past `p` (a vector's worth of one input), once per
// vector, when `on` (the folds always; the map loops when vmath::prefetchesMapInputs(),
// read once per call): a SLEEF loop over a block then requests the next block's lines
// one at a time while it computes, which keeps a large input streaming from memory
// where the hardware prefetcher alone falls behind (docs/performance.md). Past an
// array's end it touches nothing: a prefetch never faults (the address is formed as
// an integer, not as a pointer past the array).
inline constexpr uintptr_t kPrefetchBytes = 2048;
template <typename T> inline void prefetchAhead(const T* p, bool on) {
    if (on) __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(p) + kPrefetchBytes));
}

template <class Tr> bool allArgumentsTrusted(const typename Tr::T* a, int64_t n, const ArgumentBand<typename Tr::T>& band);

// F over a. Returns whether every argument lay in E's argumentBand, tested on the
// vectors while they are in registers (a second pass would load them again) and
// before the call (bandBits); false when E has no such band, and then the caller
// tests the results.
template <class Tr, auto F, Fn E> bool loop1(const typename Tr::T* a, typename Tr::T* out, int64_t n) {
    using T = typename Tr::T;
    constexpr ArgumentBand<T> band = argumentBand<T>(E);
    const bool ahead = prefetchesMapInputs();
    int64_t i = 0;
    if constexpr (!band.known) {
        for (; i + Tr::W <= n; i += Tr::W) {
            prefetchAhead(a + i, ahead);
            Tr::store(out + i, F(Tr::load(a + i)));
        }
        lastVector<Tr>(F, a, out, i, n);
        return false;
    } else {
        unsigned inBand = Tr::kAllLanes;
        for (; i + Tr::W <= n; i += Tr::W) {
            prefetchAhead(a + i, ahead);
            const auto x = Tr::load(a + i);
            inBand &= bandBits<Tr, band>(x);
            Tr::store(out + i, F(x));
        }
        lastVector<Tr>(F, a, out, i, n);
        return inBand == Tr::kAllLanes && (i >= n || allArgumentsTrusted<Tr>(a + i, n - i, band));
    }
}

template <class Tr, auto F>
void loop2(const typename Tr::T* a, const typename Tr::T* b, typename Tr::T* out, int64_t n) {
    using T = typename Tr::T;
    const bool ahead = prefetchesMapInputs();
    int64_t i = 0;
    for (; i + Tr::W <= n; i += Tr::W) {
        prefetchAhead(a + i, ahead);
        prefetchAhead(b + i, ahead);
        Tr::store(out + i, F(Tr::load(a + i), Tr::load(b + i)));
    }
    if constexpr (kMaskedTails<Tr>) {
        if (i < n) Tr::storeTail(out + i, F(Tr::loadTail(a + i, n - i, T(1)), Tr::loadTail(b + i, n - i, T(1))), n - i);
        return;
    }
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

// fa on a and fb on b, both per vector: the two calls' instruction chains overlap.
// The tails one function at a time, as loop1's (neither output overlaps either input).
// Returns, as loop1 does per function, whether every argument lay in the function's
// argument band: bit 0 for fa, bit 1 for fb (never set for a band that is not known).
// The bands are EA's and EB's, known at compile time as loop1's are (pairByFn picks
// the instantiation), so each vector pays only for the compares its band needs.
template <class Tr, Fn EA, Fn EB, class VF>
unsigned pairLoop(VF fa, const typename Tr::T* a, typename Tr::T* oa, VF fb, const typename Tr::T* b, typename Tr::T* ob,
                  int64_t n) {
    using T = typename Tr::T;
    using V = decltype(Tr::load(a));
    constexpr ArgumentBand<T> ba = argumentBand<T>(EA), bb = argumentBand<T>(EB);
    unsigned inA = Tr::kAllLanes, inB = Tr::kAllLanes;  // as loop1's: tested before the calls
    const bool ahead = prefetchesMapInputs();
    int64_t i = 0;
    for (; i + Tr::W <= n; i += Tr::W) {
        prefetchAhead(a + i, ahead);
        prefetchAhead(b + i, ahead);
        const V va = Tr::load(a + i), vb = Tr::load(b + i);
        if constexpr (ba.known) inA &= bandBits<Tr, ba>(va);
        if constexpr (bb.known) inB &= bandBits<Tr, bb>(vb);
        const auto x = fa(va);
        const auto y = fb(vb);
        Tr::store(oa + i, x);
        Tr::store(ob + i, y);
    }
    lastVector<Tr>(fa, a, oa, i, n);
    lastVector<Tr>(fb, b, ob, i, n);
    const bool trustedA = ba.known && inA == Tr::kAllLanes && (i >= n || allArgumentsTrusted<Tr>(a + i, n - i, ba));
    const bool trustedB = bb.known && inB == Tr::kAllLanes && (i >= n || allArgumentsTrusted<Tr>(b + i, n - i, bb));
    return (trustedA ? 1u : 0u) | (trustedB ? 2u : 0u);
}

// The functions with an argument band (argumentBand) each have pair loops of their
// own; every other function shares kNoBand's, which tests nothing. A band given to
// another function must be listed in withBandOf, or its pairs would not test it
// (and would hand every lane to the result test: correct, only slower).
inline constexpr Fn kNoBand = Fn::Sqrt;
constexpr bool onlyListedFunctionsHaveBands() {
    for (int f = 0; f < kNumFns; ++f) {
        const Fn e = static_cast<Fn>(f);
        if ((argumentBand<double>(e).known || argumentBand<float>(e).known) && e != Fn::Exp && e != Fn::Tanh) return false;
    }
    return !argumentBand<double>(kNoBand).known && !argumentBand<float>(kNoBand).known;
}
static_assert(onlyListedFunctionsHaveBands(), "a function with an argument band needs its case in withBandOf");
template <class Visit> inline unsigned withBandOf(Fn f, Visit visit) {
    switch (f) {
    case Fn::Exp: return visit.template operator()<Fn::Exp>();
    case Fn::Tanh: return visit.template operator()<Fn::Tanh>();
    default: return visit.template operator()<kNoBand>();
    }
}

// The pair loop of one table: the functions by Fn from `Fns`, an array each
// instruction set's unit fills as it fills its table.
template <class Tr, auto& Fns>
unsigned pairByFn(Fn fa, const typename Tr::T* a, typename Tr::T* oa, Fn fb, const typename Tr::T* b, typename Tr::T* ob,
                  int64_t n) {
    const auto calleeA = Fns[static_cast<int>(fa)], calleeB = Fns[static_cast<int>(fb)];
    return withBandOf(fa, [&]<Fn EA>() {
        return withBandOf(fb, [&]<Fn EB>() { return pairLoop<Tr, EA, EB>(calleeA, a, oa, calleeB, b, ob, n); });
    });
}

// TrustedBand's tests, one bit per lane from the traits' compares: a normal argument,
// and a result whose magnitude lies in [kResultMin, kResultEnd). The product folds
// (ops/VectorMathProductImpl.h) use the same two.
template <class Tr, class V> inline unsigned normalBits(V x) {
    using B = TrustedBand<typename Tr::T>;
    const V ax = Tr::abs(x);
    return Tr::geBits(ax, B::kArgMin) & Tr::leBits(ax, B::kArgMax);
}
template <class Tr, class V> inline unsigned trustedResultBits(V r) {
    using T = typename Tr::T;
    using B = TrustedBand<T>;
    const V ar = Tr::abs(r);
    // |r| < kResultEnd: at most the float just below it.
    T belowEnd;
    if constexpr (sizeof(T) == 8) belowEnd = __builtin_nextafter(B::kResultEnd, 0.0);
    else belowEnd = __builtin_nextafterf(B::kResultEnd, 0.0f);
    return Tr::geBits(ar, B::kResultMin) & Tr::leBits(ar, belowEnd);
}

// Whether every lane of the vectors is trusted: one pass, the tail as one vector
// padded with values inside the band (1 for results and arguments, 2 for pow's base,
// whose 1 is special).
template <class Tr, bool Binary>
bool trustedPass(const typename Tr::T* a, const typename Tr::T* b, const typename Tr::T* r, int64_t n, bool pow) {
    using T = typename Tr::T;
    using V = decltype(Tr::load(a));
    auto lanes = [&](V va, V vb, V vr) {
        unsigned ok = normalBits<Tr>(va) & trustedResultBits<Tr>(vr);
        if constexpr (Binary) {
            ok &= normalBits<Tr>(vb);
            // A normal base above 0 is at least the least normal; and not 1.
            if (pow) ok &= Tr::geBits(va, TrustedBand<T>::kArgMin) & ~(Tr::geBits(va, T(1)) & Tr::leBits(va, T(1)));
        }
        return ok;
    };
    unsigned ok = Tr::kAllLanes;
    int64_t i = 0;
    for (; i + Tr::W <= n; i += Tr::W) ok &= lanes(Tr::load(a + i), Binary ? Tr::load(b + i) : V{}, Tr::load(r + i));
    if constexpr (kMaskedTails<Tr>) {
        if (i < n)
            ok &= lanes(Tr::loadTail(a + i, n - i, T(2)), Binary ? Tr::loadTail(b + i, n - i, T(1)) : V{},
                        Tr::loadTail(r + i, n - i, T(1)));
    } else if (i < n && n >= Tr::W) {
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
    return (ok & Tr::kAllLanes) == Tr::kAllLanes;
}

// The argument-only test (argumentBand) over a whole array.
template <class Tr> bool allArgumentsTrusted(const typename Tr::T* a, int64_t n, const ArgumentBand<typename Tr::T>& band) {
    using T = typename Tr::T;
    const T inside = (band.lo + band.hi) / 2 + band.absMin * 2;  // pads a tail
    unsigned ok = Tr::kAllLanes;
    int64_t i = 0;
    for (; i + Tr::W <= n; i += Tr::W) ok &= bandBits<Tr>(Tr::load(a + i), band);
    if constexpr (kMaskedTails<Tr>) {
        if (i < n) ok &= bandBits<Tr>(Tr::loadTail(a + i, n - i, inside), band);
    } else if (i < n && n >= Tr::W) {
        ok &= bandBits<Tr>(Tr::load(a + n - Tr::W), band);
    } else if (i < n) {
        alignas(64) T ta[Tr::W];
        for (int k = 0; k < Tr::W; ++k) ta[k] = i + k < n ? a[i + k] : inside;
        ok &= bandBits<Tr>(Tr::load(ta), band);
    }
    return ok == Tr::kAllLanes;
}

template <class Tr> bool allTrusted(const typename Tr::T* a, const typename Tr::T* r, int64_t n) {
    return trustedPass<Tr, false>(a, nullptr, r, n, false);
}
template <class Tr>
bool allTrusted2(const typename Tr::T* a, const typename Tr::T* b, const typename Tr::T* r, int64_t n, bool pow) {
    return trustedPass<Tr, true>(a, b, r, n, pow);
}

} // namespace tl::vmath::detail

#include "ops/VectorMathProductImpl.h"

// Fills table `t` of one instruction set: D, F its double and float vector traits,
// DS, FS SLEEF's width suffixes (d4, f8), SQRT_D, SQRT_F the hardware square roots.
// Expects namespace-scope arrays g_vecD, g_vecF of the unit (the pair loops' functions).
#define TL_VM_SET_UNARY(e, name, acc, D, F, DS, FS)                          \
    t.d[static_cast<int>(Fn::e)] = &loop1<D, Sleef_##name##DS##_##acc, Fn::e>; \
    t.f[static_cast<int>(Fn::e)] = &loop1<F, Sleef_##name##FS##_##acc, Fn::e>; \
    t.productD[static_cast<int>(Fn::e)] = productFoldOrNull<D, Sleef_##name##DS##_##acc, Fn::e>(); \
    t.productF[static_cast<int>(Fn::e)] = productFoldOrNull<F, Sleef_##name##FS##_##acc, Fn::e>(); \
    g_vecD[static_cast<int>(Fn::e)] = &Sleef_##name##DS##_##acc;             \
    g_vecF[static_cast<int>(Fn::e)] = &Sleef_##name##FS##_##acc;
#define TL_VM_SET_BINARY(e, name, acc, D, F, DS, FS)                         \
    t.d2[static_cast<int>(Fn::e)] = &loop2<D, Sleef_##name##DS##_##acc>;     \
    t.f2[static_cast<int>(Fn::e)] = &loop2<F, Sleef_##name##FS##_##acc>;
#define TL_VM_FILL_TABLE(t, D, F, DS, FS, SQRT_D, SQRT_F)                   \
    TL_VM_UNARY(TL_VM_SET_UNARY, D, F, DS, FS)                               \
    TL_VM_BINARY(TL_VM_SET_BINARY, D, F, DS, FS)                             \
    t.d[static_cast<int>(Fn::Sqrt)] = &loop1<D, SQRT_D, Fn::Sqrt>;           \
    t.f[static_cast<int>(Fn::Sqrt)] = &loop1<F, SQRT_F, Fn::Sqrt>;           \
    t.productD[static_cast<int>(Fn::Sqrt)] = productFoldOrNull<D, SQRT_D, Fn::Sqrt>(); \
    t.productF[static_cast<int>(Fn::Sqrt)] = productFoldOrNull<F, SQRT_F, Fn::Sqrt>(); \
    t.pairD = &pairByFn<D, g_vecD>;                                          \
    t.pairF = &pairByFn<F, g_vecF>;                                          \
    t.trustedD = &allTrusted<D>;                                             \
    t.trustedF = &allTrusted<F>;                                             \
    t.argTrustedD = &allArgumentsTrusted<D>;                                 \
    t.argTrustedF = &allArgumentsTrusted<F>;                                 \
    t.trusted2D = &allTrusted2<D>;                                           \
    t.trusted2F = &allTrusted2<F>;

// The unary functions: Fn, SLEEF's name, its 1-ULP variant (erfc has only 1.5).
// sqrt is the hardware instruction (correctly rounded), defined per unit.
#define TL_VM_UNARY(X, ...)               \
    X(Exp, exp, u10, __VA_ARGS__)         \
    X(Expm1, expm1, u10, __VA_ARGS__)     \
    X(Exp2, exp2, u10, __VA_ARGS__)       \
    X(Log, log, u10, __VA_ARGS__)         \
    X(Log1p, log1p, u10, __VA_ARGS__)     \
    X(Log2, log2, u10, __VA_ARGS__)       \
    X(Log10, log10, u10, __VA_ARGS__)     \
    X(Sin, sin, u10, __VA_ARGS__)         \
    X(Cos, cos, u10, __VA_ARGS__)         \
    X(Tan, tan, u10, __VA_ARGS__)         \
    X(Sinh, sinh, u10, __VA_ARGS__)       \
    X(Cosh, cosh, u10, __VA_ARGS__)       \
    X(Tanh, tanh, u10, __VA_ARGS__)       \
    X(ArcSin, asin, u10, __VA_ARGS__)     \
    X(ArcCos, acos, u10, __VA_ARGS__)     \
    X(ArcTan, atan, u10, __VA_ARGS__)     \
    X(ArcSinh, asinh, u10, __VA_ARGS__)   \
    X(ArcCosh, acosh, u10, __VA_ARGS__)   \
    X(ArcTanh, atanh, u10, __VA_ARGS__)   \
    X(Erf, erf, u10, __VA_ARGS__)         \
    X(Erfc, erfc, u15, __VA_ARGS__)
#define TL_VM_BINARY(X, ...)              \
    X(Pow, pow, u10, __VA_ARGS__)         \
    X(ArcTan2, atan2, u10, __VA_ARGS__)
