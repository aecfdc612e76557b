#pragma once
// The loop templates of ops/ArithmeticLoops.h. Each instruction set's unit includes
// this once: everything is in an unnamed namespace, so each unit has its own copies,
// compiled for its own instruction set, and the linker can never hand one unit's
// copy to another (no inline function or standard library template is called from
// a loop for the same reason: the operators are written out).
#include "ops/ArithmeticLoops.h"

namespace tl::arith {

namespace {

struct Add {
    template <typename T> static T apply(T a, T b) { return a + b; }
};
struct Sub {
    template <typename T> static T apply(T a, T b) { return a - b; }
};
struct Mul {
    template <typename T> static T apply(T a, T b) { return a * b; }
};
struct Div {
    template <typename T> static T apply(T a, T b) { return a / b; }
};
// scalar_fn::maximum / minimum: NaN (the default quiet NaN) when either is NaN.
struct Max {
    template <typename T> static T apply(T a, T b) { return b > a ? b : (a >= b ? a : T(__builtin_nan(""))); }
};
struct Min {
    template <typename T> static T apply(T a, T b) { return b < a ? b : (a <= b ? a : T(__builtin_nan(""))); }
};
struct Neg {
    template <typename T> static T apply(T a) { return -a; }
};
struct Abs {  // std::fabs: the sign bit cleared (NaN included)
    template <typename T> static T apply(T a) {
        if constexpr (sizeof(T) == 4) return __builtin_fabsf(a);
        else return __builtin_fabs(a);
    }
};
struct Sqr {
    template <typename T> static T apply(T a) { return a * a; }
};

struct Eq {
    template <typename T> static bool apply(T a, T b) { return a == b; }
};
struct Neq {
    template <typename T> static bool apply(T a, T b) { return a != b; }
};
struct Lt {
    template <typename T> static bool apply(T a, T b) { return a < b; }
};
struct Le {
    template <typename T> static bool apply(T a, T b) { return a <= b; }
};
struct Gt {
    template <typename T> static bool apply(T a, T b) { return a > b; }
};
struct Ge {
    template <typename T> static bool apply(T a, T b) { return a >= b; }
};

template <class Op, typename T> void unaryLoop(const BlockInstr& in, void* const* s, int64_t n) {
    T* __restrict o = static_cast<T*>(s[in.dst]);
    const T* __restrict a = static_cast<const T*>(s[in.src[0]]);
    if (n == kBlockSize) {
        for (int64_t i = 0; i < kBlockSize; ++i) o[i] = Op::apply(a[i]);
        return;
    }
    for (int64_t i = 0; i < n; ++i) o[i] = Op::apply(a[i]);
}

// A fixed trip count for full blocks, with restrict pointers, so the loop vectorises.
// The result is T, or bool for a comparison.
template <class Op, typename T> void binaryLoop(const BlockInstr& in, void* const* s, int64_t n) {
    using R = decltype(Op::apply(T{}, T{}));
    R* __restrict o = static_cast<R*>(s[in.dst]);
    const T* __restrict a = static_cast<const T*>(s[in.src[0]]);
    const T* __restrict b = static_cast<const T*>(s[in.src[1]]);
    if (n == kBlockSize) {
        for (int64_t i = 0; i < kBlockSize; ++i) o[i] = Op::apply(a[i], b[i]);
        return;
    }
    for (int64_t i = 0; i < n; ++i) o[i] = Op::apply(a[i], b[i]);
}

// outer(inner(a, b), c) or outer(c, inner(a, b)) per element: the same two roundings
// in the same order as the two separate loops.
template <class Inner, class Outer, bool InnerFirst, typename T>
void fusedLoop(const BlockInstr& in, void* const* s, int64_t n) {
    T* __restrict o = static_cast<T*>(s[in.dst]);
    const T* __restrict a = static_cast<const T*>(s[in.src[0]]);
    const T* __restrict b = static_cast<const T*>(s[in.src[1]]);
    const T* __restrict c = static_cast<const T*>(s[in.src[2]]);
    auto one = [&](int64_t i) {
        const T t = Inner::apply(a[i], b[i]);
        return InnerFirst ? Outer::apply(t, c[i]) : Outer::apply(c[i], t);
    };
    if (n == kBlockSize) {
        for (int64_t i = 0; i < kBlockSize; ++i) o[i] = one(i);
        return;
    }
    for (int64_t i = 0; i < n; ++i) o[i] = one(i);
}

// Sum folds (Table::sumAll, sumAllProducts): lanes start at +0, add's identity.
template <typename T> void sumAll(void* accp, const void* mp, int64_t n) {
    const T* __restrict m = static_cast<const T*>(mp);
    T lanes[kSumLanes] = {};
    int64_t i = 0;
    for (; i + kSumLanes <= n; i += kSumLanes)
        for (int l = 0; l < kSumLanes; ++l) lanes[l] = lanes[l] + m[i + l];
    T r = *static_cast<T*>(accp);
    for (int l = 0; l < kSumLanes; ++l) r = r + lanes[l];
    for (; i < n; ++i) r = r + m[i];
    *static_cast<T*>(accp) = r;
}

template <typename T> void sumAllProducts(void* accp, const void* ap, const void* bp, int64_t n) {
    const T* __restrict a = static_cast<const T*>(ap);
    const T* __restrict b = static_cast<const T*>(bp);
    T lanes[kSumLanes] = {};
    int64_t i = 0;
    for (; i + kSumLanes <= n; i += kSumLanes)
        for (int l = 0; l < kSumLanes; ++l) lanes[l] = lanes[l] + a[i + l] * b[i + l];
    T r = *static_cast<T*>(accp);
    for (int l = 0; l < kSumLanes; ++l) r = r + lanes[l];
    for (; i < n; ++i) r = r + a[i] * b[i];
    *static_cast<T*>(accp) = r;
}

template <class Op> void setUnary(Table& t, Unary op) {
    t.unary[static_cast<int>(op)][0] = &unaryLoop<Op, float>;
    t.unary[static_cast<int>(op)][1] = &unaryLoop<Op, double>;
}

template <class Op> void setCompare(Table& t, Compare op) {
    t.compare[static_cast<int>(op)][0] = &binaryLoop<Op, float>;
    t.compare[static_cast<int>(op)][1] = &binaryLoop<Op, double>;
}

template <class Op> void setBinary(Table& t, Binary op) {
    t.binary[static_cast<int>(op)][0] = &binaryLoop<Op, float>;
    t.binary[static_cast<int>(op)][1] = &binaryLoop<Op, double>;
}

template <class Inner, class Outer> void setFused(Table& t, Binary inner, Binary outer) {
    BlockFn(&f)[2][2] = t.fused[static_cast<int>(inner)][static_cast<int>(outer)];
    f[0][0] = &fusedLoop<Inner, Outer, false, float>;
    f[0][1] = &fusedLoop<Inner, Outer, false, double>;
    f[1][0] = &fusedLoop<Inner, Outer, true, float>;
    f[1][1] = &fusedLoop<Inner, Outer, true, double>;
}

template <class Inner> void setFusedWith(Table& t, Binary inner) {
    setFused<Inner, Add>(t, inner, Binary::Add);
    setFused<Inner, Sub>(t, inner, Binary::Sub);
    setFused<Inner, Mul>(t, inner, Binary::Mul);
}

void fillTable(Table& t) {
    setBinary<Add>(t, Binary::Add);
    setBinary<Sub>(t, Binary::Sub);
    setBinary<Mul>(t, Binary::Mul);
    setBinary<Div>(t, Binary::TrueDiv);
    setBinary<Max>(t, Binary::Maximum);
    setBinary<Min>(t, Binary::Minimum);
    setUnary<Neg>(t, Unary::Neg);
    setUnary<Abs>(t, Unary::Abs);
    setUnary<Sqr>(t, Unary::Sqr);
    setCompare<Eq>(t, Compare::Eq);
    setCompare<Neq>(t, Compare::Neq);
    setCompare<Lt>(t, Compare::Lt);
    setCompare<Le>(t, Compare::Le);
    setCompare<Gt>(t, Compare::Gt);
    setCompare<Ge>(t, Compare::Ge);
    setFusedWith<Add>(t, Binary::Add);
    setFusedWith<Sub>(t, Binary::Sub);
    setFusedWith<Mul>(t, Binary::Mul);
    t.sumAll[0] = &sumAll<float>;
    t.sumAll[1] = &sumAll<double>;
    t.sumAllProducts[0] = &sumAllProducts<float>;
    t.sumAllProducts[1] = &sumAllProducts<double>;
}

} // namespace

} // namespace tl::arith
