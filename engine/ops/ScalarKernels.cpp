#include "ops/ScalarKernels.h"

#include "ops/ArithmeticLoops.h"
#include "ops/VectorKernels.h"

#include <cstring>
#include <type_traits>

namespace tl {

namespace {

// Every loop has a fixed-trip-count variant for full blocks: with a constant
// count (a multiple of any vector width) and restrict-qualified pointers the
// compiler vectorises it even under -O2's cheap cost model.
template <typename F, typename T> void unaryLoop(const BlockInstr& in, void* const* s, int64_t n) {
    using R = decltype(F::apply(T{}));
    R* __restrict o = static_cast<R*>(s[in.dst]);
    const T* __restrict a = static_cast<const T*>(s[in.src[0]]);
    if (n == kBlockSize) {
        for (int64_t i = 0; i < kBlockSize; ++i) o[i] = F::apply(a[i]);
        return;
    }
    for (int64_t i = 0; i < n; ++i) o[i] = F::apply(a[i]);
}

template <typename F, typename T> void binaryLoop(const BlockInstr& in, void* const* s, int64_t n) {
    using R = decltype(F::apply(T{}, T{}));
    R* __restrict o = static_cast<R*>(s[in.dst]);
    const T* __restrict a = static_cast<const T*>(s[in.src[0]]);
    const T* __restrict b = static_cast<const T*>(s[in.src[1]]);
    if (n == kBlockSize) {
        for (int64_t i = 0; i < kBlockSize; ++i) o[i] = F::apply(a[i], b[i]);
        return;
    }
    for (int64_t i = 0; i < n; ++i) o[i] = F::apply(a[i], b[i]);
}

template <typename F, typename T> void ternaryLoop(const BlockInstr& in, void* const* s, int64_t n) {
    T* __restrict o = static_cast<T*>(s[in.dst]);
    const T* __restrict a = static_cast<const T*>(s[in.src[0]]);
    const T* __restrict b = static_cast<const T*>(s[in.src[1]]);
    const T* __restrict c = static_cast<const T*>(s[in.src[2]]);
    if (n == kBlockSize) {
        for (int64_t i = 0; i < kBlockSize; ++i) o[i] = F::apply(a[i], b[i], c[i]);
        return;
    }
    for (int64_t i = 0; i < n; ++i) o[i] = F::apply(a[i], b[i], c[i]);
}

template <typename F, typename T> void quaternaryLoop(const BlockInstr& in, void* const* s, int64_t n) {
    T* __restrict o = static_cast<T*>(s[in.dst]);
    const T* __restrict a = static_cast<const T*>(s[in.src[0]]);
    const T* __restrict b = static_cast<const T*>(s[in.src[1]]);
    const T* __restrict c = static_cast<const T*>(s[in.src[2]]);
    const T* __restrict d = static_cast<const T*>(s[in.src[3]]);
    for (int64_t i = 0; i < n; ++i) o[i] = F::apply(a[i], b[i], c[i], d[i]);
}

template <typename T> void switchLoop(const BlockInstr& in, void* const* s, int64_t n) {
    T* __restrict o = static_cast<T*>(s[in.dst]);
    const bool* __restrict c = static_cast<const bool*>(s[in.src[0]]);
    const T* __restrict a = static_cast<const T*>(s[in.src[1]]);
    const T* __restrict b = static_cast<const T*>(s[in.src[2]]);
    if (n == kBlockSize) {
        for (int64_t i = 0; i < kBlockSize; ++i) o[i] = c[i] ? a[i] : b[i];
        return;
    }
    for (int64_t i = 0; i < n; ++i) o[i] = c[i] ? a[i] : b[i];
}

template <typename From, typename To> void convertLoop(const BlockInstr& in, void* const* s, int64_t n) {
    if constexpr (std::is_same_v<From, To>) {
        std::memcpy(s[in.dst], s[in.src[0]], static_cast<size_t>(n) * sizeof(To));
    } else {
        To* __restrict o = static_cast<To*>(s[in.dst]);
        const From* __restrict a = static_cast<const From*>(s[in.src[0]]);
        for (int64_t i = 0; i < n; ++i) o[i] = scalar_fn::convert<To>(a[i]);
    }
}

template <typename From, typename To> void gatherLoop(const void* src, int64_t stride, void* dst, int64_t n) {
    const From* a = static_cast<const From*>(src);
    To* o = static_cast<To*>(dst);
    if (stride == 0) {
        const To v = scalar_fn::convert<To>(a[0]);
        for (int64_t i = 0; i < n; ++i) o[i] = v;
        return;
    }
    for (int64_t i = 0; i < n; ++i) o[i] = scalar_fn::convert<To>(a[i * stride]);
}

template <typename From, typename To> void scatterLoop(const void* src, void* dst, int64_t stride, int64_t n) {
    const From* a = static_cast<const From*>(src);
    To* o = static_cast<To*>(dst);
    for (int64_t i = 0; i < n; ++i) o[i * stride] = scalar_fn::convert<To>(a[i]);
}

// One functor per element function so the loops above can inline it.
#define TL_FN1(Name, fn) \
    struct Name {        \
        template <typename T> static auto apply(T a) { return scalar_fn::fn(a); } \
    };
#define TL_FN2(Name, fn) \
    struct Name {        \
        template <typename T> static auto apply(T a, T b) { return scalar_fn::fn(a, b); } \
    };
TL_FN2(FAdd, add)
TL_FN2(FSub, sub)
TL_FN2(FMul, mul)
TL_FN2(FTrueDiv, trueDiv)
TL_FN2(FIntDiv, intDiv)
TL_FN2(FMod, mod)
TL_FN1(FNeg, neg)
TL_FN1(FAbs, abs)
TL_FN1(FExp, exp)
TL_FN1(FLog, log)
TL_FN1(FLog1p, log1p)
TL_FN1(FExpm1, expm1)
TL_FN1(FSqrt, sqrt)
TL_FN1(FSqr, sqr)
TL_FN1(FSin, sin)
TL_FN1(FCos, cos)
TL_FN1(FTanh, tanh)
TL_FN1(FSigmoid, sigmoid)
TL_FN1(FSoftplus, softplus)
TL_FN2(FPow, pow)
TL_FN2(FMaximum, maximum)
TL_FN2(FMinimum, minimum)
TL_FN2(FEq, eq)
TL_FN2(FNeq, neq)
TL_FN2(FLt, lt)
TL_FN2(FLe, le)
TL_FN2(FGt, gt)
TL_FN2(FGe, ge)
TL_FN2(FAnd, bitAnd)
TL_FN2(FOr, bitOr)
TL_FN2(FXor, bitXor)
TL_FN1(FInvert, invert)
TL_FN1(FIdentity, identity)
TL_FN1(FSign, sign)
TL_FN1(FFloor, floor)
TL_FN1(FCeil, ceil)
TL_FN1(FRoundHalfToEven, roundHalfToEven)
TL_FN1(FReciprocal, reciprocal)
TL_FN1(FErf, erf)
TL_FN1(FErfc, erfc)
TL_FN1(FSinh, sinh)
TL_FN1(FCosh, cosh)
TL_FN1(FTan, tan)
TL_FN1(FArcSin, arcsin)
TL_FN1(FArcCos, arccos)
TL_FN1(FArcTan, arctan)
TL_FN1(FLog2, log2)
TL_FN1(FLog10, log10)
TL_FN1(FExp2, exp2)
TL_FN2(FArcTan2, arctan2)
struct FClip {
    template <typename T> static T apply(T x, T lo, T hi) { return scalar_fn::clip(x, lo, hi); }
};
TL_FN2(FSecond, second)
TL_FN1(FIsNan, isnan)
TL_FN1(FIsInf, isinf)
TL_FN1(FTrunc, trunc)
TL_FN1(FRoundHalfAwayFromZero, roundHalfAwayFromZero)
TL_FN1(FDeg2Rad, deg2rad)
TL_FN1(FRad2Deg, rad2deg)
TL_FN1(FArcCosh, arccosh)
TL_FN1(FArcSinh, arcsinh)
TL_FN1(FArcTanh, arctanh)
TL_FN2(FMulWithoutZeros, mulWithoutZeros)
TL_FN1(FErfcx, erfcx)
TL_FN1(FErfinv, erfinv)
TL_FN1(FErfcinv, erfcinv)
TL_FN1(FGamma, gamma)
TL_FN1(FGammaLn, gammaln)
TL_FN1(FPsi, psi)
TL_FN1(FTriGamma, triGamma)
TL_FN2(FPolyGamma, polyGamma)
TL_FN2(FGammaInc, gammaInc)
TL_FN2(FGammaIncC, gammaIncC)
TL_FN2(FGammaIncInv, gammaIncInv)
TL_FN2(FGammaIncCInv, gammaIncCInv)
TL_FN2(FGammaU, gammaU)
TL_FN2(FGammaL, gammaL)
TL_FN1(FLog1mexp, log1mexp)
TL_FN1(FJ0, j0)
TL_FN1(FJ1, j1)
TL_FN2(FJv, jv)
TL_FN1(FI0, i0)
TL_FN1(FI1, i1)
TL_FN2(FIv, iv)
TL_FN2(FIve, ive)
TL_FN2(FKve, kve)
TL_FN2(FOwensT, owensT)
TL_FN1(FXlogX, xlogx)
TL_FN2(FXlogY0, xlogy0)
struct FBetaInc {
    template <typename T> static T apply(T a, T b, T x) { return scalar_fn::betaInc(a, b, x); }
};
struct FBetaIncInv {
    template <typename T> static T apply(T a, T b, T p) { return scalar_fn::betaIncInv(a, b, p); }
};
struct FHyp2F1 {
    template <typename T> static T apply(T a, T b, T c, T z) { return scalar_fn::hyp2f1(a, b, c, z); }
};
#undef TL_FN1
#undef TL_FN2

enum class Accepts { Any, Float, Discrete };

template <typename F, int Arity, Accepts A> BlockFn pick(DType d) {
    return dispatchDType(d, [](auto t) -> BlockFn {
        using T = decltype(t);
        constexpr bool ok = A == Accepts::Any || (A == Accepts::Float && std::is_floating_point_v<T>) ||
                            (A == Accepts::Discrete && !std::is_floating_point_v<T>);
        if constexpr (!ok) return nullptr;
        else if constexpr (Arity == 1) return &unaryLoop<F, T>;
        else if constexpr (Arity == 2) return &binaryLoop<F, T>;
        else if constexpr (Arity == 3) return &ternaryLoop<F, T>;
        else return &quaternaryLoop<F, T>;
    });
}

} // namespace

BlockFn scalarBlockKernel(ScalarOpCode code, DType compute) {
    using C = ScalarOpCode;
    using A = Accepts;
    if (BlockFn vector = vectorBlockKernel(code, compute)) return vector;
    if (BlockFn wide = wideArithmeticKernel(code, compute)) return wide;
    switch (code) {
    case C::Add: return pick<FAdd, 2, A::Any>(compute);
    case C::Sub: return pick<FSub, 2, A::Any>(compute);
    case C::Mul: return pick<FMul, 2, A::Any>(compute);
    case C::TrueDiv: return pick<FTrueDiv, 2, A::Float>(compute);
    case C::IntDiv: return pick<FIntDiv, 2, A::Any>(compute);
    case C::Mod: return pick<FMod, 2, A::Any>(compute);
    case C::Neg: return pick<FNeg, 1, A::Any>(compute);
    case C::Abs: return pick<FAbs, 1, A::Any>(compute);
    case C::Exp: return pick<FExp, 1, A::Float>(compute);
    case C::Log: return pick<FLog, 1, A::Float>(compute);
    case C::Log1p: return pick<FLog1p, 1, A::Float>(compute);
    case C::Expm1: return pick<FExpm1, 1, A::Float>(compute);
    case C::Sqrt: return pick<FSqrt, 1, A::Float>(compute);
    case C::Sqr: return pick<FSqr, 1, A::Any>(compute);
    case C::Sin: return pick<FSin, 1, A::Float>(compute);
    case C::Cos: return pick<FCos, 1, A::Float>(compute);
    case C::Tanh: return pick<FTanh, 1, A::Float>(compute);
    case C::Sigmoid: return pick<FSigmoid, 1, A::Float>(compute);
    case C::Softplus: return pick<FSoftplus, 1, A::Float>(compute);
    case C::Pow: return pick<FPow, 2, A::Any>(compute);
    case C::Maximum: return pick<FMaximum, 2, A::Any>(compute);
    case C::Minimum: return pick<FMinimum, 2, A::Any>(compute);
    case C::Eq: return pick<FEq, 2, A::Any>(compute);
    case C::Neq: return pick<FNeq, 2, A::Any>(compute);
    case C::Lt: return pick<FLt, 2, A::Any>(compute);
    case C::Le: return pick<FLe, 2, A::Any>(compute);
    case C::Gt: return pick<FGt, 2, A::Any>(compute);
    case C::Ge: return pick<FGe, 2, A::Any>(compute);
    case C::And: return pick<FAnd, 2, A::Discrete>(compute);
    case C::Or: return pick<FOr, 2, A::Discrete>(compute);
    case C::Xor: return pick<FXor, 2, A::Discrete>(compute);
    case C::Invert: return pick<FInvert, 1, A::Discrete>(compute);
    case C::Switch:
        return dispatchDType(compute, [](auto t) -> BlockFn { return &switchLoop<decltype(t)>; });
    case C::Identity:
    case C::Real: return pick<FIdentity, 1, A::Any>(compute);
    case C::Cast: return nullptr;
    case C::Sign: return pick<FSign, 1, A::Any>(compute);
    case C::Floor: return pick<FFloor, 1, A::Float>(compute);
    case C::Ceil: return pick<FCeil, 1, A::Float>(compute);
    case C::RoundHalfToEven: return pick<FRoundHalfToEven, 1, A::Float>(compute);
    case C::Reciprocal: return pick<FReciprocal, 1, A::Float>(compute);
    case C::Erf: return pick<FErf, 1, A::Float>(compute);
    case C::Erfc: return pick<FErfc, 1, A::Float>(compute);
    case C::Sinh: return pick<FSinh, 1, A::Float>(compute);
    case C::Cosh: return pick<FCosh, 1, A::Float>(compute);
    case C::Tan: return pick<FTan, 1, A::Float>(compute);
    case C::ArcSin: return pick<FArcSin, 1, A::Float>(compute);
    case C::ArcCos: return pick<FArcCos, 1, A::Float>(compute);
    case C::ArcTan: return pick<FArcTan, 1, A::Float>(compute);
    case C::Log2: return pick<FLog2, 1, A::Float>(compute);
    case C::Log10: return pick<FLog10, 1, A::Float>(compute);
    case C::Exp2: return pick<FExp2, 1, A::Float>(compute);
    case C::ArcTan2: return pick<FArcTan2, 2, A::Float>(compute);
    case C::Clip: return pick<FClip, 3, A::Any>(compute);
    case C::Second: return pick<FSecond, 2, A::Any>(compute);
    case C::IsNan: return pick<FIsNan, 1, A::Any>(compute);
    case C::IsInf: return pick<FIsInf, 1, A::Any>(compute);
    case C::Trunc: return pick<FTrunc, 1, A::Float>(compute);
    case C::RoundHalfAwayFromZero: return pick<FRoundHalfAwayFromZero, 1, A::Float>(compute);
    case C::Deg2Rad: return pick<FDeg2Rad, 1, A::Float>(compute);
    case C::Rad2Deg: return pick<FRad2Deg, 1, A::Float>(compute);
    case C::ArcCosh: return pick<FArcCosh, 1, A::Float>(compute);
    case C::ArcSinh: return pick<FArcSinh, 1, A::Float>(compute);
    case C::ArcTanh: return pick<FArcTanh, 1, A::Float>(compute);
    case C::MulWithoutZeros: return pick<FMulWithoutZeros, 2, A::Any>(compute);
    case C::Erfcx: return pick<FErfcx, 1, A::Float>(compute);
    case C::Erfinv: return pick<FErfinv, 1, A::Float>(compute);
    case C::Erfcinv: return pick<FErfcinv, 1, A::Float>(compute);
    case C::Gamma: return pick<FGamma, 1, A::Float>(compute);
    case C::GammaLn: return pick<FGammaLn, 1, A::Float>(compute);
    case C::Psi: return pick<FPsi, 1, A::Float>(compute);
    case C::TriGamma: return pick<FTriGamma, 1, A::Float>(compute);
    case C::PolyGamma: return pick<FPolyGamma, 2, A::Float>(compute);
    case C::GammaInc: return pick<FGammaInc, 2, A::Float>(compute);
    case C::GammaIncC: return pick<FGammaIncC, 2, A::Float>(compute);
    case C::GammaIncInv: return pick<FGammaIncInv, 2, A::Float>(compute);
    case C::GammaIncCInv: return pick<FGammaIncCInv, 2, A::Float>(compute);
    case C::GammaU: return pick<FGammaU, 2, A::Float>(compute);
    case C::GammaL: return pick<FGammaL, 2, A::Float>(compute);
    case C::Log1mexp: return pick<FLog1mexp, 1, A::Float>(compute);
    case C::BetaInc: return pick<FBetaInc, 3, A::Float>(compute);
    case C::BetaIncInv: return pick<FBetaIncInv, 3, A::Float>(compute);
    case C::J0: return pick<FJ0, 1, A::Float>(compute);
    case C::J1: return pick<FJ1, 1, A::Float>(compute);
    case C::Jv: return pick<FJv, 2, A::Float>(compute);
    case C::I0: return pick<FI0, 1, A::Float>(compute);
    case C::I1: return pick<FI1, 1, A::Float>(compute);
    case C::Iv: return pick<FIv, 2, A::Float>(compute);
    case C::Ive: return pick<FIve, 2, A::Float>(compute);
    case C::Kve: return pick<FKve, 2, A::Float>(compute);
    case C::OwensT: return pick<FOwensT, 2, A::Float>(compute);
    case C::Hyp2F1: return pick<FHyp2F1, 4, A::Float>(compute);
    case C::XlogX: return pick<FXlogX, 1, A::Float>(compute);
    case C::XlogY0: return pick<FXlogY0, 2, A::Float>(compute);
    }
    return nullptr;
}

BlockFn convertBlockKernel(DType from, DType to) {
    return dispatchDType(from, [&](auto f) -> BlockFn {
        return dispatchDType(to, [](auto t) -> BlockFn { return &convertLoop<decltype(f), decltype(t)>; });
    });
}

GatherFn gatherKernel(DType from, DType to) {
    return dispatchDType(from, [&](auto f) -> GatherFn {
        return dispatchDType(to, [](auto t) -> GatherFn { return &gatherLoop<decltype(f), decltype(t)>; });
    });
}

ScatterFn scatterKernel(DType from, DType to) {
    return dispatchDType(from, [&](auto f) -> ScatterFn {
        return dispatchDType(to, [](auto t) -> ScatterFn { return &scatterLoop<decltype(f), decltype(t)>; });
    });
}

} // namespace tl
