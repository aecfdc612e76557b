// The Gauss hypergeometric function 2F1(a, b; c; z) (ops/SpecialFunctions.h).
// Boost.Math 1.74 has no 2F1 of its own, only the generalized series pFq, which
// converges for |z| < 1 but needs ever more terms as z approaches 1 (and stops at
// its iteration limit without saying so). So the argument is first brought into
// [0, 0.9] by the classical transformations (Abramowitz & Stegun 15.3.3-6, 15.3.10-11):
//   z < 0:          Pfaff, 2F1(a, b; c; z) = (1-z)^-a 2F1(a, c-b; c; z/(z-1))
//   0.9 < z < 1:    two series in 1 - z when c - a - b is not an integer; when it is
//                   an integer m >= 0, a finite sum and a series in 1 - z with log(1 - z)
//                   and digamma terms (m < 0 first goes through Euler's transformation)
//   z = 1:          Gauss's sum Γ(c)Γ(c-a-b) / (Γ(c-a)Γ(c-b)) when c - a - b > 0
// A polynomial (a or b a non-positive integer) is summed as it stands for small z and
// as its Taylor expansion at z = 1 (coefficients from the Chu-Vandermonde sum, products
// without cancellation) for z >= 1/2; with c - a or c - b a non-positive integer,
// Euler's transformation makes it (1-z)^(c-a-b) times a polynomial, real for every z.
#include "ops/SpecialFunctions.h"
#include "ops/SpecialPolicy.h"

#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/special_functions/hypergeometric_pFq.hpp>

#include <cmath>
#include <vector>

namespace tl::special {

namespace {

constexpr double kSeriesLimit = 0.9;

bool nonPositiveInteger(double x) { return x <= 0 && isInteger(x); }

// The terminating series of degree m = -a (a a non-positive integer; c not a pole
// before the series ends). Near z = 1 its terms cancel (2F1(-3, 2; 1; 0.999999) is
// -3e-12 from terms of order 10), so there it is summed in powers of w = 1 - z (exact
// for z >= 1/2): d_j = (-1)^j (a)_j (b)_j / ((c)_j j!) (c-b)_(m-j) / (c+j)_(m-j).
double polynomial(double a, double b, double c, double z) {
    const int64_t m = static_cast<int64_t>(-a);
    if (z >= 0.5 && z <= 2.0) {
        std::vector<double> gauss(static_cast<size_t>(m) + 1);  // (c-b)_(m-j) / (c+j)_(m-j)
        gauss[static_cast<size_t>(m)] = 1.0;
        for (int64_t j = m - 1; j >= 0; --j)
            gauss[static_cast<size_t>(j)] = gauss[static_cast<size_t>(j) + 1] * (c - b + static_cast<double>(m - j - 1)) /
                                            (c + static_cast<double>(j));
        const double w = 1.0 - z;
        double coef = 1.0, power = 1.0, sum = gauss[0];
        for (int64_t j = 0; j < m; ++j) {
            const double dj = static_cast<double>(j);
            coef *= -(a + dj) * (b + dj) / ((c + dj) * (dj + 1.0));
            power *= w;
            sum += coef * gauss[static_cast<size_t>(j) + 1] * power;
        }
        return sum;
    }
    double term = 1.0, sum = 1.0;
    for (int64_t n = 0; n < m; ++n) {
        const double dn = static_cast<double>(n);
        term *= (a + dn) * (b + dn) / ((c + dn) * (dn + 1.0)) * z;
        sum += term;
    }
    return sum;
}

// The terminating case, the series ending at the lower degree of a and b.
double terminating(double a, double b, double c, double z) {
    const bool polyA = nonPositiveInteger(a), polyB = nonPositiveInteger(b);
    const bool byA = polyA && (!polyB || a >= b);
    return byA ? polynomial(a, b, c, z) : polynomial(b, a, c, z);
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

// c = a + b + m, m = 0, 1, 2, ..., in w = 1 - z (A&S 15.3.10-11):
//   Γ(m)Γ(c) / (Γ(a+m)Γ(b+m)) sum_{n<m} (a)_n (b)_n / (n! (1-m)_n) w^n
//   - (-w)^m Γ(c) / (Γ(a)Γ(b)) sum_n (a+m)_n (b+m)_n / (n! (n+m)!) w^n
//       [log w - ψ(n+1) - ψ(n+m+1) + ψ(a+n+m) + ψ(b+n+m)]
double integerGap(double a, double b, int64_t m, double w) {
    const double c = a + b + static_cast<double>(m);
    double finite = 0.0;
    if (m > 0) {
        double term = 1.0, sum = 1.0;
        for (int64_t n = 0; n + 1 < m; ++n) {
            const double dn = static_cast<double>(n);
            term *= (a + dn) * (b + dn) / ((dn + 1.0) * (1.0 - static_cast<double>(m) + dn)) * w;
            sum += term;
        }
        finite = gammaRatio(static_cast<double>(m), c, a + static_cast<double>(m), b + static_cast<double>(m)) * sum;
    }
    const double dm = static_cast<double>(m);
    const double logW = std::log(w);
    double coef = 1.0 / std::tgamma(dm + 1.0), sum = 0.0;
    for (int n = 0; n < 2000; ++n) {
        const double dn = n;
        const double t = coef * (logW - psi(dn + 1.0) - psi(dn + dm + 1.0) + psi(a + dn + dm) + psi(b + dn + dm));
        sum += t;
        if (n > 2 && std::fabs(t) <= 1e-17 * std::fabs(sum)) break;
        coef *= (a + dm + dn) * (b + dm + dn) / ((dn + 1.0) * (dn + dm + 1.0)) * w;
    }
    return finite - std::pow(-w, dm) * gammaRatio(c, 1.0, a, b) * sum;
}

// 0 <= z < 1 after the Pfaff step.
double unitInterval(double a, double b, double c, double z) {
    if (z <= kSeriesLimit) return series(a, b, c, z);
    const double s = c - a - b;
    const double w = 1.0 - z;
    if (!isInteger(s)) {
        const double first = gammaRatio(c, s, c - a, c - b) * series(a, b, a + b - c + 1.0, w);
        const double second = std::pow(w, s) * gammaRatio(c, -s, a, b) * series(c - a, c - b, s + 1.0, w);
        return first + second;
    }
    if (s >= 0) return integerGap(a, b, static_cast<int64_t>(s), w);
    // Euler: (1-z)^s 2F1(c-a, c-b; c; z), whose gap is -s > 0.
    return std::pow(w, s) * integerGap(c - a, c - b, static_cast<int64_t>(-s), w);
}

} // namespace

double hyp2f1(double a, double b, double c, double z) {
    if (std::isnan(z) || std::isnan(a) || std::isnan(b) || std::isnan(c)) return kNaN;
    if (z == 0) return 1.0;
    const bool polyA = nonPositiveInteger(a), polyB = nonPositiveInteger(b);
    if (polyA || polyB) {
        const double deg = polyA && polyB ? std::fmax(a, b) : polyA ? a : b;  // the lower degree terminates first
        // A pole of (c)_n before the series ends: scipy gives inf.
        if (nonPositiveInteger(c) && c > deg) return kInf;
        if (std::isinf(z)) return kNaN;
        return terminating(a, b, c, z);
    }
    if (nonPositiveInteger(c)) return std::isinf(z) ? kNaN : kInf;
    if (std::isinf(a) || std::isinf(b) || std::isinf(c)) return kNaN;
    if (nonPositiveInteger(c - a) || nonPositiveInteger(c - b)) {
        // Euler: (1-z)^(c-a-b) times a polynomial, real on the whole line.
        if (std::isinf(z)) return kNaN;
        return std::pow(1.0 - z, c - a - b) * terminating(c - a, c - b, c, z);
    }
    // Complex-valued beyond 1: scipy's real hyp2f1 returns inf; at +inf NaN where c - a - b
    // is a negative integer, as scipy.
    if (z == kInf && c - a - b < 0 && isInteger(c - a - b)) return kNaN;
    if (z > 1) return kInf;
    if (z == -kInf) {
        // 2F1 ~ C (-z)^-a + D (-z)^-b: 0 when both decay; with a - b an integer the
        // expansion has log terms and scipy gives NaN.
        return a > 0 && b > 0 && !isInteger(a - b) ? 0.0 : kNaN;
    }
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
