#include "ops/VectorMath.h"

#include "core/CpuVendorDefault.h"
#include "ops/ScalarOps.h"
#include "ops/VectorMathLoops.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace tl::vmath {

namespace {

struct Isa {
    detail::LoopTable table;
    const char* name = "";
};

// Calls every loop once before any kernel can run on two threads: SLEEF's entry
// points resolve their CPU-specific target on first call.
void warm(const detail::LoopTable& t) {
    double d = 0.5, dr = 0;
    float f = 0.5f, fr = 0;
    for (int k = 0; k < kNumFns; ++k) {
        if (t.d[k]) t.d[k](&d, &dr, 1);
        if (t.f[k]) t.f[k](&f, &fr, 1);
        if (t.d2[k]) t.d2[k](&d, &d, &dr, 1);
        if (t.f2[k]) t.f2[k](&f, &f, &fr, 1);
    }
}

// One ISA's table, filled and warmed once.
Isa makeIsa(void (*fill)(detail::LoopTable&), const char* name) {
    Isa i;
    fill(i.table);
    i.name = name;
    warm(i.table);
    return i;
}

const Isa& avx512() {
    static const Isa isa = makeIsa(&detail::fillAvx512Table, "avx512");
    return isa;
}

const Isa& avx() {
    static const Isa isa = makeIsa(&detail::fillAvxTable, "avx");
    return isa;
}

const Isa& sse2() {
    static const Isa isa = makeIsa(&detail::fillSse2Table, "sse2");
    return isa;
}

// The instruction sets by name, widest first, with whether this CPU runs them.
struct IsaChoice {
    const char* name;
    const Isa& (*get)();
    bool (*supported)();
};
constexpr IsaChoice kIsas[] = {
    {"avx512", &avx512, [] { return __builtin_cpu_supports("avx512f") != 0; }},
    {"avx", &avx, [] { return __builtin_cpu_supports("avx") != 0; }},
    {"sse2", &sse2, [] { return true; }},
};

const IsaChoice* findIsa(const char* name) {
    for (const IsaChoice& c : kIsas)
        if (std::strcmp(c.name, name) == 0 && c.supported()) return &c;
    return nullptr;
}

// The widest the CPU has, or the one TL_VMATH_ISA names when the CPU has it.
const Isa& initialIsa() {
    if (const char* wanted = std::getenv("TL_VMATH_ISA"))
        if (const IsaChoice* c = findIsa(wanted)) return c->get();
    for (const IsaChoice& c : kIsas)
        if (c.supported()) return c.get();
    return sse2();
}

std::atomic<const Isa*>& current() {
    static std::atomic<const Isa*> isa{&initialIsa()};
    return isa;
}

std::atomic<bool> g_vectorised{true};

const detail::LoopTable& table() { return current().load(std::memory_order_relaxed)->table; }

// ---- lanes recomputed with the C library ----------------------------------
// SLEEF's result is used where the argument is a normal number and the result's
// magnitude lies in [2^-991, 2^993) (float: [2^-119, 2^120)); everywhere else
// (zeros, subnormals, inf, NaN, results near overflow or underflow) the C library
// decides, so overflow and underflow happen exactly where std:: has them. The
// tests are floating-point comparisons (NaN fails every one), which compile to
// packed compares even on SSE2, where 64-bit integer compares do not exist. The
// band itself is in ops/VectorMathLoops.h and its test in ops/VectorMathLoopsImpl.h:
// each instruction set's table checks a whole block at its own width first
// (allTrusted), and only a block with an element outside is looked at again, in
// stretches, then element by element.

template <typename T> T reference1(Fn f, T a) {
    using C = Fn;
    switch (f) {
    case C::Exp: return scalar_fn::exp(a);
    case C::Expm1: return scalar_fn::expm1(a);
    case C::Exp2: return scalar_fn::exp2(a);
    case C::Log: return scalar_fn::log(a);
    case C::Log1p: return scalar_fn::log1p(a);
    case C::Log2: return scalar_fn::log2(a);
    case C::Log10: return scalar_fn::log10(a);
    case C::Sqrt: return scalar_fn::sqrt(a);
    case C::Sin: return scalar_fn::sin(a);
    case C::Cos: return scalar_fn::cos(a);
    case C::Tan: return scalar_fn::tan(a);
    case C::Sinh: return scalar_fn::sinh(a);
    case C::Cosh: return scalar_fn::cosh(a);
    case C::Tanh: return scalar_fn::tanh(a);
    case C::ArcSin: return scalar_fn::arcsin(a);
    case C::ArcCos: return scalar_fn::arccos(a);
    case C::ArcTan: return scalar_fn::arctan(a);
    case C::ArcSinh: return scalar_fn::arcsinh(a);
    case C::ArcCosh: return scalar_fn::arccosh(a);
    case C::ArcTanh: return scalar_fn::arctanh(a);
    case C::Erf: return scalar_fn::erf(a);
    case C::Erfc: return scalar_fn::erfc(a);
    case C::Sigmoid: return scalar_fn::sigmoid(a);
    case C::Softplus: return scalar_fn::softplus(a);
    case C::Log1mexp: return scalar_fn::log1mexp(a);
    case C::Pow:
    case C::ArcTan2: break;
    }
    return a;
}

template <typename T> T reference2(Fn f, T a, T b) {
    return f == Fn::Pow ? scalar_fn::pow(a, b) : scalar_fn::arctan2(a, b);
}

// The lanes to recompute, found with the table's own band test (one definition,
// compiled per instruction set): the whole block, then stretches of kStretch
// elements, then single elements, only where the larger stretch failed.
constexpr int64_t kStretch = 16;

template <class Trusted, class Recompute> void fixup(int64_t n, Trusted trusted, Recompute recompute) {
    if (trusted(0, n)) return;
    for (int64_t i = 0; i < n; i += kStretch) {
        const int64_t m = std::min(kStretch, n - i);
        if (trusted(i, m)) continue;
        for (int64_t k = i; k < i + m; ++k)
            if (!trusted(k, 1)) recompute(k);
    }
}

template <typename T> void fixup1(const detail::LoopTable& t, Fn f, const T* a, T* out, int64_t n) {
    const detail::ArgumentBand<T> band = detail::argumentBand<T>(f);
    auto trusted = [&](int64_t i, int64_t m) {
        if constexpr (std::is_same_v<T, double>) return band.known ? t.argTrustedD(a + i, m, band) : t.trustedD(a + i, out + i, m);
        else return band.known ? t.argTrustedF(a + i, m, band) : t.trustedF(a + i, out + i, m);
    };
    fixup(n, trusted, [&](int64_t k) { out[k] = reference1(f, a[k]); });
}

template <typename T> void fixup2(const detail::LoopTable& t, Fn f, const T* a, const T* b, T* out, int64_t n) {
    const bool pow = f == Fn::Pow;
    auto trusted = [&](int64_t i, int64_t m) {
        if constexpr (std::is_same_v<T, double>) return t.trusted2D(a + i, b + i, out + i, m, pow);
        else return t.trusted2F(a + i, b + i, out + i, m, pow);
    };
    fixup(n, trusted, [&](int64_t k) { out[k] = reference2(f, a[k], b[k]); });
}

template <typename T> auto loopOf(const detail::LoopTable& t, Fn f) {
    if constexpr (std::is_same_v<T, double>) return t.d[static_cast<int>(f)];
    else return t.f[static_cast<int>(f)];
}

// A SLEEF function on any n, special lanes from the C library.
template <typename T> void primitive(const detail::LoopTable& t, Fn f, const T* a, T* out, int64_t n) {
    if (!loopOf<T>(t, f)(a, out, n)) fixup1(t, f, a, out, n);
}

constexpr int64_t kChunk = 256;  // the compositions' temporaries, on the stack

// GCC cannot see that the temporaries below are written for every i < n before
// they are read (n <= kChunk), and warns; clearing them per chunk would cost time.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

// PyTensor's compositions (ops/ScalarOps.h), each piece vectorised, the same
// branches chosen per lane; the lanes the pieces cannot settle come from the
// scalar formula.
template <typename T> void sigmoidChunk(const detail::LoopTable& t, const T* a, T* out, int64_t n) {
    alignas(64) T neg[kChunk], e[kChunk];
    for (int64_t i = 0; i < n; ++i) neg[i] = -a[i];
    primitive(t, Fn::Exp, neg, e, n);
    for (int64_t i = 0; i < n; ++i) out[i] = T(1) / (T(1) + e[i]);
}

template <typename T> void softplusChunk(const detail::LoopTable& t, const T* a, T* out, int64_t n) {
    alignas(64) T neg[kChunk], e[kChunk], l[kChunk], en[kChunk];
    for (int64_t i = 0; i < n; ++i) neg[i] = -a[i];
    primitive(t, Fn::Exp, a, e, n);
    primitive(t, Fn::Log1p, e, l, n);
    primitive(t, Fn::Exp, neg, en, n);
    for (int64_t i = 0; i < n; ++i) {
        const T x = a[i];
        out[i] = x < T(-37.0) ? e[i] : (x < T(18.0) ? l[i] : (x < T(33.3) ? x + en[i] : x));
    }
}

// log1mexp is computed in double for either dtype (scalar_fn::log1mexp).
void log1mexpChunk(const detail::LoopTable& t, const double* a, double* out, int64_t n) {
    alignas(64) double e[kChunk], p[kChunk], m[kChunk], q[kChunk];
    primitive(t, Fn::Exp, a, e, n);
    for (int64_t i = 0; i < n; ++i) e[i] = -e[i];
    primitive(t, Fn::Log1p, e, p, n);
    primitive(t, Fn::Expm1, a, m, n);
    for (int64_t i = 0; i < n; ++i) m[i] = -m[i];
    primitive(t, Fn::Log, m, q, n);
    for (int64_t i = 0; i < n; ++i) out[i] = a[i] < -0.6931471805599453 ? p[i] : q[i];
}
void log1mexpChunk(const detail::LoopTable& t, const float* a, float* out, int64_t n) {
    alignas(64) double x[kChunk], r[kChunk];
    for (int64_t i = 0; i < n; ++i) x[i] = a[i];
    log1mexpChunk(t, x, r, n);
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(r[i]);
}

#pragma GCC diagnostic pop

template <typename T> void applyVector(Fn f, const T* a, T* out, int64_t n) {
    const detail::LoopTable& t = table();
    if (f != Fn::Sigmoid && f != Fn::Softplus && f != Fn::Log1mexp) {
        primitive(t, f, a, out, n);
        return;
    }
    for (int64_t s = 0; s < n; s += kChunk) {
        const int64_t m = std::min(kChunk, n - s);
        if (f == Fn::Sigmoid) sigmoidChunk(t, a + s, out + s, m);
        else if (f == Fn::Softplus) softplusChunk(t, a + s, out + s, m);
        else log1mexpChunk(t, a + s, out + s, m);
        fixup1(t, f, a + s, out + s, m);
    }
}

template <typename T> void applyPairVector(Fn fa, const T* a, T* outA, Fn fb, const T* b, T* outB, int64_t n) {
    const detail::LoopTable& t = table();
    unsigned trusted = 0;
    if constexpr (std::is_same_v<T, double>) trusted = t.pairD(fa, a, outA, fb, b, outB, n);
    else trusted = t.pairF(fa, a, outA, fb, b, outB, n);
    if (!(trusted & 1u)) fixup1(t, fa, a, outA, n);
    if (!(trusted & 2u)) fixup1(t, fb, b, outB, n);
}

template <typename T> void apply2Vector(Fn f, const T* a, const T* b, T* out, int64_t n) {
    const detail::LoopTable& t = table();
    if constexpr (std::is_same_v<T, double>) t.d2[static_cast<int>(f)](a, b, out, n);
    else t.f2[static_cast<int>(f)](a, b, out, n);
    fixup2(t, f, a, b, out, n);
}

} // namespace

const char* fnName(Fn f) {
    static constexpr const char* kNames[kNumFns] = {
        "exp",    "expm1",  "exp2",    "log",     "log1p",   "log2",    "log10", "sqrt",    "sin",
        "cos",    "tan",    "sinh",    "cosh",    "tanh",    "arcsin",  "arccos", "arctan", "arcsinh",
        "arccosh", "arctanh", "erf",   "erfc",    "sigmoid", "softplus", "log1mexp", "pow",  "arctan2"};
    return kNames[static_cast<int>(f)];
}

void apply(Fn f, const double* a, double* out, int64_t n) {
    if (g_vectorised.load(std::memory_order_relaxed)) applyVector(f, a, out, n);
    else applyScalar(f, a, out, n);
}
void apply(Fn f, const float* a, float* out, int64_t n) {
    if (g_vectorised.load(std::memory_order_relaxed)) applyVector(f, a, out, n);
    else applyScalar(f, a, out, n);
}
void applyPair(Fn fa, const double* a, double* outA, Fn fb, const double* b, double* outB, int64_t n) {
    if (g_vectorised.load(std::memory_order_relaxed)) return applyPairVector(fa, a, outA, fb, b, outB, n);
    applyScalar(fa, a, outA, n);
    applyScalar(fb, b, outB, n);
}
void applyPair(Fn fa, const float* a, float* outA, Fn fb, const float* b, float* outB, int64_t n) {
    if (g_vectorised.load(std::memory_order_relaxed)) return applyPairVector(fa, a, outA, fb, b, outB, n);
    applyScalar(fa, a, outA, n);
    applyScalar(fb, b, outB, n);
}
void apply2(Fn f, const double* a, const double* b, double* out, int64_t n) {
    if (g_vectorised.load(std::memory_order_relaxed)) apply2Vector(f, a, b, out, n);
    else apply2Scalar(f, a, b, out, n);
}
void apply2(Fn f, const float* a, const float* b, float* out, int64_t n) {
    if (g_vectorised.load(std::memory_order_relaxed)) apply2Vector(f, a, b, out, n);
    else apply2Scalar(f, a, b, out, n);
}

bool foldProductOfCall(Fn f, const double* a, const double* b, double* acc, int64_t n) {
    if (!g_vectorised.load(std::memory_order_relaxed) || !isPrimitive(f)) return false;
    const detail::ProductD fold = table().productD[static_cast<int>(f)];
    return fold && fold(a, b, acc, n);
}
bool foldProductOfCall(Fn f, const float* a, const float* b, float* acc, int64_t n) {
    if (!g_vectorised.load(std::memory_order_relaxed) || !isPrimitive(f)) return false;
    const detail::ProductF fold = table().productF[static_cast<int>(f)];
    return fold && fold(a, b, acc, n);
}

void applyScalar(Fn f, const double* a, double* out, int64_t n) {
    for (int64_t i = 0; i < n; ++i) out[i] = reference1(f, a[i]);
}
void applyScalar(Fn f, const float* a, float* out, int64_t n) {
    for (int64_t i = 0; i < n; ++i) out[i] = reference1(f, a[i]);
}
void apply2Scalar(Fn f, const double* a, const double* b, double* out, int64_t n) {
    for (int64_t i = 0; i < n; ++i) out[i] = reference2(f, a[i], b[i]);
}
void apply2Scalar(Fn f, const float* a, const float* b, float* out, int64_t n) {
    for (int64_t i = 0; i < n; ++i) out[i] = reference2(f, a[i], b[i]);
}

const char* isaName() { return current().load()->name; }

bool selectIsa(const char* isa) {
    const IsaChoice* c = findIsa(isa);
    if (!c) return false;
    current().store(&c->get());
    return true;
}

std::vector<const char*> availableIsas() {
    std::vector<const char*> names;
    for (const IsaChoice& c : kIsas)
        if (c.supported()) names.push_back(c.name);
    return names;
}

namespace {
std::atomic<bool>& prefetchSetting() {
    static std::atomic<bool> on{onIntelUnlessEnvironmentSays("TL_PREFETCH_MAP_INPUTS")};
    return on;
}
} // namespace

bool prefetchesMapInputs() { return prefetchSetting().load(std::memory_order_relaxed); }
bool setPrefetchesMapInputs(bool on) { return prefetchSetting().exchange(on); }

bool setVectorised(bool on) { return g_vectorised.exchange(on); }
bool vectorised() { return g_vectorised.load(); }

} // namespace tl::vmath
