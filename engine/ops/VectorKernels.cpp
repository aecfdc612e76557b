#include "ops/VectorKernels.h"

#include <array>
#include <utility>

namespace tl {

namespace {

// The transcendental functions on float32 / float64 go through SLEEF's vector
// loops (ops/VectorMath.h) instead of one C library call per element.
template <vmath::Fn F, typename T> void vectorUnaryLoop(const BlockInstr& in, void* const* s, int64_t n) {
    vmath::apply(F, static_cast<const T*>(s[in.src[0]]), static_cast<T*>(s[in.dst]), n);
}
template <vmath::Fn F, typename T> void vectorBinaryLoop(const BlockInstr& in, void* const* s, int64_t n) {
    vmath::apply2(F, static_cast<const T*>(s[in.src[0]]), static_cast<const T*>(s[in.src[1]]), static_cast<T*>(s[in.dst]), n);
}

// Every vectorised function's loops, by vmath::Fn, built once at compile time.
template <typename T, size_t... F>
constexpr std::array<BlockFn, vmath::kNumFns> vectorLoops(std::index_sequence<F...>) {
    return {(vmath::isBinary(static_cast<vmath::Fn>(F)) ? &vectorBinaryLoop<static_cast<vmath::Fn>(F), T>
                                                        : &vectorUnaryLoop<static_cast<vmath::Fn>(F), T>)...};
}
constexpr auto kVectorLoopsD = vectorLoops<double>(std::make_index_sequence<vmath::kNumFns>());
constexpr auto kVectorLoopsF = vectorLoops<float>(std::make_index_sequence<vmath::kNumFns>());

template <typename T> void pairedVectorLoop(const BlockInstr& in, void* const* s, int64_t n) {
    vmath::applyPair(static_cast<vmath::Fn>(in.pairFns[0]), static_cast<const T*>(s[in.src[0]]), static_cast<T*>(s[in.dst]),
                     static_cast<vmath::Fn>(in.pairFns[1]), static_cast<const T*>(s[in.src[1]]), static_cast<T*>(s[in.dst2]), n);
}

} // namespace

std::optional<vmath::Fn> vectorFnOf(ScalarOpCode code) {
    using C = ScalarOpCode;
    using V = vmath::Fn;
    switch (code) {
    case C::Exp: return V::Exp;
    case C::Expm1: return V::Expm1;
    case C::Exp2: return V::Exp2;
    case C::Log: return V::Log;
    case C::Log1p: return V::Log1p;
    case C::Log2: return V::Log2;
    case C::Log10: return V::Log10;
    case C::Sqrt: return V::Sqrt;
    case C::Sin: return V::Sin;
    case C::Cos: return V::Cos;
    case C::Tan: return V::Tan;
    case C::Sinh: return V::Sinh;
    case C::Cosh: return V::Cosh;
    case C::Tanh: return V::Tanh;
    case C::ArcSin: return V::ArcSin;
    case C::ArcCos: return V::ArcCos;
    case C::ArcTan: return V::ArcTan;
    case C::ArcSinh: return V::ArcSinh;
    case C::ArcCosh: return V::ArcCosh;
    case C::ArcTanh: return V::ArcTanh;
    case C::Erf: return V::Erf;
    case C::Erfc: return V::Erfc;
    case C::Sigmoid: return V::Sigmoid;
    case C::Softplus: return V::Softplus;
    case C::Log1mexp: return V::Log1mexp;
    case C::Pow: return V::Pow;
    case C::ArcTan2: return V::ArcTan2;
    default: return std::nullopt;
    }
}

BlockFn vectorBlockKernel(ScalarOpCode code, DType compute) {
    const std::optional<vmath::Fn> f = vectorFnOf(code);
    if (!f) return nullptr;
    if (compute == DType::Float64) return kVectorLoopsD[static_cast<size_t>(*f)];
    if (compute == DType::Float32) return kVectorLoopsF[static_cast<size_t>(*f)];
    return nullptr;
}

std::optional<vmath::Fn> pairableVectorFn(ScalarOpCode code, DType compute) {
    if (compute != DType::Float64 && compute != DType::Float32) return std::nullopt;
    const std::optional<vmath::Fn> f = vectorFnOf(code);
    if (!f || !vmath::isPrimitive(*f) || *f == vmath::Fn::Sqrt) return std::nullopt;
    return f;
}

BlockFn pairedVectorKernel(DType dtype) {
    if (dtype == DType::Float64) return &pairedVectorLoop<double>;
    if (dtype == DType::Float32) return &pairedVectorLoop<float>;
    return nullptr;
}

} // namespace tl
