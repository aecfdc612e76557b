// The Bessel functions of pytensor.scalar.math (ops/SpecialFunctions.h). j0 and j1
// call the C library, as PyTensor's C code does; the others are Boost.Math's. The
// exponentially scaled ive and kve are computed in long double, whose exponent
// range holds I_v(x) and K_v(x) for |x| up to about 11,000 before the scaling.
#include "ops/SpecialFunctions.h"
#include "ops/SpecialPolicy.h"

#include <boost/math/special_functions/bessel.hpp>

#include <cmath>

namespace tl::special {

double j0(double x) {
    if (std::isnan(x) || std::isinf(x)) return kNaN;  // scipy 1.10: NaN at ±inf
    return ::j0(x);
}

double j1(double x) {
    if (std::isnan(x) || std::isinf(x)) return kNaN;
    return ::j1(x);
}

double jv(double v, double x) {
    if (std::isnan(v) || std::isnan(x) || std::isinf(x)) return kNaN;
    if (x < 0 && !isInteger(v)) return kNaN;
    if (x == 0) {
        if (v == 0) return 1.0;
        if (v > 0 || isInteger(v)) return std::signbit(x) && isInteger(v) && static_cast<int64_t>(v) % 2 ? -0.0 : 0.0;
        return kInf;  // J_v(0) for negative non-integer v
    }
    if (std::isinf(v)) return kNaN;  // scipy: 0 for some x, NaN for others
    return guarded([&] { return boost::math::cyl_bessel_j(v, x, Policy()); });
}

double i0(double x) {
    if (std::isnan(x) || std::isinf(x)) return kNaN;
    return guarded([&] { return boost::math::cyl_bessel_i(0, x, Policy()); });
}

double i1(double x) {
    if (std::isnan(x) || std::isinf(x)) return kNaN;
    return guarded([&] { return boost::math::cyl_bessel_i(1, x, Policy()); });
}

double iv(double v, double x) {
    if (std::isnan(v) || std::isnan(x) || std::isinf(v)) return kNaN;
    if (x < 0 && !isInteger(v)) return kNaN;
    if (std::isinf(x)) return kNaN;
    if (x == 0) {
        if (v == 0) return 1.0;
        if (v > 0 || isInteger(v)) return 0.0;
        return kInf;
    }
    return guarded([&] { return boost::math::cyl_bessel_i(v, x, Policy()); });
}

double ive(double v, double x) {
    if (std::isnan(v) || std::isnan(x) || std::isinf(v) || std::isinf(x)) return kNaN;
    if (x < 0 && !isInteger(v)) return kNaN;
    const bool negativeFractional = v < 0 && !isInteger(v);
    if (x == 0) return negativeFractional ? kNaN : iv(v, x);  // scipy: NaN at the pole of I_v(0)
    const long double lx = x;
    const long double value = boost::math::cyl_bessel_i(static_cast<long double>(v), lx, Policy()) * std::exp(-std::fabs(lx));
    const double scaled = static_cast<double>(value);
    // scipy (AMOS) gives NaN, not inf, where I_v of a negative fractional order overflows.
    return negativeFractional && std::isinf(scaled) ? kNaN : scaled;
}

double kve(double v, double x) {
    if (std::isnan(x) || x < 0) return kNaN;
    if (x == 0) return kInf;  // whatever v is, as scipy
    if (std::isnan(v) || std::isinf(v) || std::isinf(x)) return kNaN;
    const long double lx = x;
    const long double value = boost::math::cyl_bessel_k(static_cast<long double>(v), lx, Policy()) * std::exp(lx);
    // K_v(x) is positive and finite for x > 0: a NaN here is Boost's overflow of K_v(tiny x).
    return std::isnan(value) ? kInf : static_cast<double>(value);
}

} // namespace tl::special
