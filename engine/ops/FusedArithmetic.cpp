#include "ops/FusedArithmetic.h"

#include "ops/ScalarOps.h"

namespace tl {

namespace {

struct Add {
    template <typename T> static T apply(T a, T b) { return scalar_fn::add(a, b); }
};
struct Sub {
    template <typename T> static T apply(T a, T b) { return scalar_fn::sub(a, b); }
};
struct Mul {
    template <typename T> static T apply(T a, T b) { return scalar_fn::mul(a, b); }
};

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
    // A fixed trip count for full blocks, as the single-op loops have (it vectorises).
    if (n == kBlockSize) {
        for (int64_t i = 0; i < kBlockSize; ++i) o[i] = one(i);
        return;
    }
    for (int64_t i = 0; i < n; ++i) o[i] = one(i);
}

template <class Inner, class Outer> BlockFn pick(bool innerFirst, DType dtype) {
    if (dtype == DType::Float64) return innerFirst ? &fusedLoop<Inner, Outer, true, double> : &fusedLoop<Inner, Outer, false, double>;
    if (dtype == DType::Float32) return innerFirst ? &fusedLoop<Inner, Outer, true, float> : &fusedLoop<Inner, Outer, false, float>;
    return nullptr;
}

template <class Inner> BlockFn pickOuter(ScalarOpCode outer, bool innerFirst, DType dtype) {
    switch (outer) {
    case ScalarOpCode::Add: return pick<Inner, Add>(innerFirst, dtype);
    case ScalarOpCode::Sub: return pick<Inner, Sub>(innerFirst, dtype);
    case ScalarOpCode::Mul: return pick<Inner, Mul>(innerFirst, dtype);
    default: return nullptr;
    }
}

} // namespace

bool fusableArithmetic(ScalarOpCode code) {
    return code == ScalarOpCode::Add || code == ScalarOpCode::Sub || code == ScalarOpCode::Mul;
}

BlockFn fusedArithmeticKernel(ScalarOpCode inner, ScalarOpCode outer, bool innerFirst, DType dtype) {
    switch (inner) {
    case ScalarOpCode::Add: return pickOuter<Add>(outer, innerFirst, dtype);
    case ScalarOpCode::Sub: return pickOuter<Sub>(outer, innerFirst, dtype);
    case ScalarOpCode::Mul: return pickOuter<Mul>(outer, innerFirst, dtype);
    default: return nullptr;
    }
}

} // namespace tl
