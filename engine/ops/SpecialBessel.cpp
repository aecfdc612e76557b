// The Bessel functions of pytensor.scalar.math (ops/SpecialFunctions.h). j0 and j1
// call the C library, as PyTensor's C code does; the others are Boost.Math's. The
// exponentially scaled ive and kve are computed in long double, whose exponent
// range holds I_v(x) and K_v(x) for |x| up to about 11,000 before the scaling;
// beyond that in Boost.Multiprecision's binary float of the same 64-bit precision
// with a 32-bit exponent (some microseconds a call), where e^-|x| I_v(x) and
// e^x K_v(x) keep their few significant digits (scipy's kve(0, 1e6) = 0.00125...).
#include "ops/SpecialFunctions.h"
#include "ops/SpecialPolicy.h"

#include <boost/math/special_functions/bessel.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>

#include <cmath>

namespace tl::special {

namespace {

namespace mp = boost::multiprecision;
// long double's precision with an exponent range no Bessel function of a double leaves.
using WideFloat = mp::number<mp::backends::cpp_bin_float<64, mp::backends::digit_base_2, void, std::int32_t>, mp::et_off>;
// Beyond this |x| the unscaled I_v and K_v leave long double's exponent range.
constexpr double kLongDoubleLimit = 10000.0;

// e^-|x| I_v(x) or e^x K_v(x) computed in T.
template <typename T> T scaledIn(T v, T x, bool modifiedFirstKind) {
    using std::exp;
    using std::fabs;
    return modifiedFirstKind ? boost::math::cyl_bessel_i(v, x, Policy()) * exp(-fabs(x))
                             : boost::math::cyl_bessel_k(v, x, Policy()) * exp(x);
}

// In long double or, for large |x|, in WideFloat.
double scaledBessel(double v, double x, bool modifiedFirstKind) {
    if (std::fabs(x) <= kLongDoubleLimit) return static_cast<double>(scaledIn<long double>(v, x, modifiedFirstKind));
    return scaledIn<WideFloat>(v, x, modifiedFirstKind).convert_to<double>();
}

} // namespace

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
    const double scaled = scaledBessel(v, x, true);
    // scipy (AMOS) gives NaN, not inf, where I_v of a negative fractional order overflows.
    return negativeFractional && std::isinf(scaled) ? kNaN : scaled;
}

double kve(double v, double x) {
    if (std::isnan(x) || x < 0) return kNaN;
    if (x == 0) return kInf;  // whatever v is, as scipy
    if (std::isnan(v) || std::isinf(v) || std::isinf(x)) return kNaN;
    const double value = scaledBessel(v, x, false);
    // K_v(x) is positive and finite for x > 0: a NaN here is Boost's overflow of K_v(tiny x).
    return std::isnan(value) ? kInf : value;
}

} // namespace tl::special
