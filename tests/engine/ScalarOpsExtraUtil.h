#pragma once
// Shared by the suites of the widened scalar vocabulary (tst_scalar_ops_extra,
// tst_scalar_ops_extra_rop): the new unary ops with their PyTensor names and the
// C library functions their kernels must agree with, edge values, one-op runs.
#include "builder/Math.h"
#include "exec/Executor.h"
#include "ops/ScalarOps.h"

#include <cmath>
#include <functional>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

namespace tl::test {

using C = ScalarOpCode;

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

struct Unary {
    C code;
    const char* inner;  // str(scalar_op), printed inside Composites
    const char* outer;  // str(Elemwise) == inner.capitalize()
    Var (*build)(const Var&);
    double (*ref64)(double);
    float (*ref32)(float);
};

// The C library's functions as the references (the kernels must agree with them).
inline const std::vector<Unary>& unaries() {
    static const std::vector<Unary> v = {
        {C::Sign, "sign", "Sign", &sign, [](double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : std::isnan(x) ? x : 0.0; },
         [](float x) { return x > 0 ? 1.0f : x < 0 ? -1.0f : std::isnan(x) ? x : 0.0f; }},
        {C::Floor, "floor", "Floor", &floor, [](double x) { return std::floor(x); }, [](float x) { return std::floor(x); }},
        {C::Ceil, "ceil", "Ceil", &ceil, [](double x) { return std::ceil(x); }, [](float x) { return std::ceil(x); }},
        // nearbyint under the default FE_TONEAREST mode is round-half-to-even.
        {C::RoundHalfToEven, "RoundHalfToEven", "Roundhalftoeven", &roundHalfToEven,
         [](double x) { return std::nearbyint(x); }, [](float x) { return std::nearbyint(x); }},
        {C::Reciprocal, "reciprocal", "Reciprocal", &reciprocal, [](double x) { return 1.0 / x; },
         [](float x) { return 1.0f / x; }},
        {C::Erf, "erf", "Erf", &erf, [](double x) { return std::erf(x); }, [](float x) { return std::erf(x); }},
        {C::Erfc, "erfc", "Erfc", &erfc, [](double x) { return std::erfc(x); }, [](float x) { return std::erfc(x); }},
        {C::Sinh, "sinh", "Sinh", &sinh, [](double x) { return std::sinh(x); }, [](float x) { return std::sinh(x); }},
        {C::Cosh, "cosh", "Cosh", &cosh, [](double x) { return std::cosh(x); }, [](float x) { return std::cosh(x); }},
        {C::Tan, "tan", "Tan", &tan, [](double x) { return std::tan(x); }, [](float x) { return std::tan(x); }},
        {C::ArcSin, "arcsin", "Arcsin", &arcsin, [](double x) { return std::asin(x); }, [](float x) { return std::asin(x); }},
        {C::ArcCos, "arccos", "Arccos", &arccos, [](double x) { return std::acos(x); }, [](float x) { return std::acos(x); }},
        {C::ArcTan, "arctan", "Arctan", &arctan, [](double x) { return std::atan(x); }, [](float x) { return std::atan(x); }},
        {C::Log2, "log2", "Log2", &log2, [](double x) { return std::log2(x); }, [](float x) { return std::log2(x); }},
        {C::Log10, "log10", "Log10", &log10, [](double x) { return std::log10(x); }, [](float x) { return std::log10(x); }},
        {C::Exp2, "exp2", "Exp2", &exp2, [](double x) { return std::exp2(x); }, [](float x) { return std::exp2(x); }},
    };
    return v;
}

inline const Unary& unaryOf(C code) {
    for (const Unary& u : unaries())
        if (u.code == code) return u;
    throw std::logic_error("not a new unary op");
}

// 0, -0, halves (ties for rounding), integers, domain edges, NaN and ±inf.
inline const std::vector<double> kEdges = {0.0,  -0.0, 0.5,  -0.5, 1.5,   -1.5,  2.5,  -2.5, 3.5,  0.49999999999999994,
                                    1.0,  -1.0, 0.3,  -0.7, 3.7,   -3.7,  100., 1e-300, -1e300, 7.0,
                                    kNaN, kInf, -kInf};

inline NDArray vec(DType d, const std::vector<double>& v) { return NDArray::fromVector(d, {static_cast<int64_t>(v.size())}, v); }

// Runs f on one vector input of dtype `d` holding `values`.
inline NDArray runUnary(const std::function<Var(const Var&)>& f, DType d, const std::vector<double>& values) {
    GraphBuilder b;
    Var x = b.input("x", d, {static_cast<int64_t>(values.size())});
    auto g = b.finish({f(x)});
    const NDArray in = vec(d, values);
    return runGraph(*g, std::span<const NDArray>(&in, 1)).outputs.at(0);
}

inline DType outDType(C code, std::vector<DType> ins) { return scalarOutputDType(code, ins); }

} // namespace tl::test
