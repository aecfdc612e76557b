// The Gauss hypergeometric function 2F1(a, b; c; z) (ops/SpecialFunctions.h).
// Boost.Math 1.74 has no 2F1 of its own, only the generalized series pFq, which
// converges for |z| < 1 but needs ever more terms as z approaches 1 (and stops at
// its iteration limit without saying so). So the argument is first brought into
// [0, 0.9] by the classical linear transformations (Abramowitz & Stegun 15.3.3-6):
//   z < 0:          Pfaff, 2F1(a, b; c; z) = (1-z)^-a 2F1(a, c-b; c; z/(z-1))
//   0.9 < z < 1:    1 - z, as two series in 1 - z (when c - a - b is not an integer)
//   z = 1:          Gauss's sum Γ(c)Γ(c-a-b) / (Γ(c-a)Γ(c-b)) when c - a - b > 0
// A polynomial (a or b a non-positive integer) is summed as it stands. Where
// c - a - b is an integer and z > 0.9 the series is summed directly, which
// converges up to z = 0.9999; beyond that the value is NaN (documented in docs/ops.md).
#include "ops/SpecialFunctions.h"
#include "ops/SpecialPolicy.h"

#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/special_functions/hypergeometric_pFq.hpp>

#include <cmath>

namespace tl::special {

namespace {

constexpr double kSeriesLimit = 0.9;
constexpr double kDirectLimit = 0.9999;

bool nonPositiveInteger(double x) { return x <= 0 && isInteger(x); }

// The terminating series of degree m = -a (a a non-positive integer), term by term.
double polynomial(double a, double b, double c, double z) {
    const int64_t m = static_cast<int64_t>(-a);
    double term = 1.0, sum = 1.0;
    for (int64_t n = 0; n < m; ++n) {
        const double dn = static_cast<double>(n);
        term *= (a + dn) * (b + dn) / ((c + dn) * (dn + 1.0)) * z;
        sum += term;
    }
    return sum;
}

double series(double a, double b, double c, double z) {
    return boost::math::hypergeometric_pFq({a, b}, {c}, z, static_cast<double*>(nullptr), Policy());
}

// Γ(p)Γ(q) / (Γ(r)Γ(s)), through lgamma where the gammas overflow; 0 when r or s is a pole.
double gammaRatio(double p, double q, double r, double s) {
    if (nonPositiveInteger(r) || nonPositiveInteger(s)) return 0.0;
    const double direct = std::tgamma(p) * std::tgamma(q) / (std::tgamma(r) * std::tgamma(s));
    if (std::isfinite(direct) && direct != 0.0) return direct;
    int sp = 1, sq = 1, sr = 1, ss = 1;
    const double l = lgamma_r(p, &sp) + lgamma_r(q, &sq) - lgamma_r(r, &sr) - lgamma_r(s, &ss);
    return sp * sq * sr * ss * std::exp(l);
}

// 0 <= z < 1 after the Pfaff step.
double unitInterval(double a, double b, double c, double z) {
    if (z <= kSeriesLimit) return series(a, b, c, z);
    const double s = c - a - b;
    if (!isInteger(s)) {
        const double w = 1.0 - z;
        const double first = gammaRatio(c, s, c - a, c - b) * series(a, b, a + b - c + 1.0, w);
        const double second = std::pow(w, s) * gammaRatio(c, -s, a, b) * series(c - a, c - b, s + 1.0, w);
        return first + second;
    }
    if (z <= kDirectLimit) return series(a, b, c, z);
    return kNaN;
}

} // namespace

double hyp2f1(double a, double b, double c, double z) {
    if (std::isnan(a) || std::isnan(b) || std::isnan(c) || std::isnan(z)) return kNaN;
    if (z == 0) return 1.0;
    const bool polyA = nonPositiveInteger(a), polyB = nonPositiveInteger(b);
    if (polyA || polyB) {
        const double deg = polyA && polyB ? std::fmax(a, b) : polyA ? a : b;  // the lower degree terminates first
        // A pole of (c)_n before the series ends: scipy gives inf.
        if (nonPositiveInteger(c) && c > deg) return kInf;
        if (std::isinf(z)) return kNaN;
        return deg == a ? polynomial(a, b, c, z) : polynomial(b, a, c, z);
    }
    if (nonPositiveInteger(c)) return kInf;
    if (std::isinf(z) || std::isinf(a) || std::isinf(b) || std::isinf(c)) return kNaN;
    if (z > 1) return kInf;  // complex-valued: scipy's real hyp2f1 returns inf
    if (z == 1) {
        if (c - a - b <= 0) return kInf;
        return gammaRatio(c, c - a - b, c - a, c - b);
    }
    if (z < 0) {
        // Pfaff: z / (z - 1) lies in (0, 1).
        const double w = z / (z - 1.0);
        return std::pow(1.0 - z, -a) * unitInterval(a, c - b, c, w);
    }
    return unitInterval(a, b, c, z);
}

} // namespace tl::special
