#include "ops/ReduceFold.h"

#include "ops/ArithmeticLoops.h"

#include <limits>
#include <type_traits>

namespace tl {

namespace {

#define TL_FOLD_OP(Name, fn)                                                   \
    struct Name {                                                             \
        template <typename T> static T apply(T a, T b) { return scalar_fn::fn(a, b); } \
    };
TL_FOLD_OP(OpAdd, add)
TL_FOLD_OP(OpMul, mul)
TL_FOLD_OP(OpMax, maximum)
TL_FOLD_OP(OpMin, minimum)
TL_FOLD_OP(OpAnd, bitAnd)
TL_FOLD_OP(OpOr, bitOr)
TL_FOLD_OP(OpXor, bitXor)
TL_FOLD_OP(OpMulWithoutZeros, mulWithoutZeros)
#undef TL_FOLD_OP

template <typename Op, typename T> T identity() {
    if constexpr (std::is_same_v<Op, OpAdd> || std::is_same_v<Op, OpOr> || std::is_same_v<Op, OpXor>) return T(0);
    else if constexpr (std::is_same_v<Op, OpMul>) return T(1);
    // MulWithoutZeros' identity is 0 (pytensor/tensor/math.py): op(0, y) = y.
    else if constexpr (std::is_same_v<Op, OpMulWithoutZeros>) return T(0);
    else if constexpr (std::is_same_v<Op, OpAnd>) {
        if constexpr (std::is_same_v<T, bool>) return true;
        else return static_cast<T>(~T(0));
    } else if constexpr (std::is_same_v<Op, OpMax>) {
        if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
        else return std::numeric_limits<T>::lowest();
    } else {
        if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
        else return std::numeric_limits<T>::max();
    }
}

template <typename Op, typename T> void foldInto(void* accp, const void* mp, int64_t n) {
    T* __restrict acc = static_cast<T*>(accp);
    const T* __restrict m = static_cast<const T*>(mp);
    for (int64_t j = 0; j < n; ++j) acc[j] = Op::apply(acc[j], m[j]);
}

template <typename Op, typename T> void foldAll(void* accp, const void* mp, int64_t n) {
    constexpr int kLanes = arith::kSumLanes;  // the lanes of the float sums
    const T* __restrict m = static_cast<const T*>(mp);
    T lanes[kLanes];
    for (T& l : lanes) l = identity<Op, T>();
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (int l = 0; l < kLanes; ++l) lanes[l] = Op::apply(lanes[l], m[i + l]);
    T r = *static_cast<T*>(accp);
    for (T l : lanes) r = Op::apply(r, l);
    for (; i < n; ++i) r = Op::apply(r, m[i]);
    *static_cast<T*>(accp) = r;
}

template <typename Op, typename T> void fill(void* accp, int64_t n) {
    T* acc = static_cast<T*>(accp);
    const T v = identity<Op, T>();
    for (int64_t j = 0; j < n; ++j) acc[j] = v;
}

template <typename Op, bool BitOp> FoldKernels pick(DType d) {
    return dispatchDType(d, [](auto t) -> FoldKernels {
        using T = decltype(t);
        if constexpr (BitOp && std::is_floating_point_v<T>) return {};
        else if constexpr (std::is_same_v<Op, OpAdd> && (std::is_same_v<T, float> || std::is_same_v<T, double>)) {
            // Float sums at the CPU's widest vectors (ops/ArithmeticLoops.h), the same
            // lanes as foldAll's, so the same bits as at any other width.
            const int d = std::is_same_v<T, double> ? 1 : 0;
            return {&foldInto<Op, T>, arith::table().sumAll[d], arith::table().sumAllProducts[d], &fill<Op, T>};
        } else if constexpr (std::is_same_v<Op, OpAdd> && std::is_floating_point_v<T>)
            return {&foldInto<Op, T>, &foldAll<Op, T>, nullptr, &fill<Op, T>};
        else return {&foldInto<Op, T>, &foldAll<Op, T>, nullptr, &fill<Op, T>};
    });
}

} // namespace

bool reduceFoldable(ScalarOpCode code) { return reduceFoldKernels(code, DType::Int64).into != nullptr; }

FoldKernels reduceFoldKernels(ScalarOpCode code, DType acc) {
    using C = ScalarOpCode;
    switch (code) {
    case C::Add: return pick<OpAdd, false>(acc);
    case C::Mul: return pick<OpMul, false>(acc);
    case C::Maximum: return pick<OpMax, false>(acc);
    case C::Minimum: return pick<OpMin, false>(acc);
    case C::And: return pick<OpAnd, true>(acc);
    case C::Or: return pick<OpOr, true>(acc);
    case C::Xor: return pick<OpXor, true>(acc);
    case C::MulWithoutZeros: return pick<OpMulWithoutZeros, false>(acc);
    default: return {};
    }
}

} // namespace tl
