// gamma, gammaln, psi, tri_gamma, polygamma and log1mexp (ops/SpecialFunctions.h).
// gamma and gammaln call the C library's tgamma and lgamma, as PyTensor's C code
// does (so compiled PyTensor graphs and tensorlens agree to the last bit); the
// polygamma family is Boost.Math's. Edges follow scipy.special.
#include "ops/SpecialFunctions.h"
#include "ops/SpecialPolicy.h"

#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/polygamma.hpp>
#include <boost/math/special_functions/trigamma.hpp>

#include <cmath>

namespace tl::special {

double gamma(double x) {
    if (std::isnan(x)) return x;
    // scipy: +inf at 0 of either sign and at the negative integers (poles), -inf at -inf.
    if (x == 0.0) return kInf;
    if (x < 0 && isInteger(x)) return kInf;
    if (x == -kInf) return -kInf;
    return std::tgamma(x);
}

double gammaln(double x) {
    if (std::isnan(x)) return x;
    if (x == -kInf) return -kInf;
    if (x <= 0 && isInteger(x)) return kInf;
    // lgamma_r: the sign is not wanted, and the reentrant form leaves signgam alone
    // (kernels run on several threads).
    int sign = 0;
    return lgamma_r(x, &sign);
}

double psi(double x) {
    if (std::isnan(x)) return x;
    if (x == 0.0) return std::signbit(x) ? kInf : -kInf;  // scipy: psi(-0) = inf, psi(+0) = -inf
    if (x == kInf) return kInf;
    if (x < 0 && isInteger(x)) return kNaN;
    if (x == -kInf) return kNaN;
    return guarded([&] { return boost::math::digamma(x, Policy()); });
}

double triGamma(double x) {
    if (std::isnan(x)) return x;
    if (x == kInf) return 0.0;
    if (x <= 0 && isInteger(x)) return kInf;
    if (x == -kInf) return kInf;
    return guarded([&] { return boost::math::trigamma(x, Policy()); });
}

double polyGamma(double n, double x) {
    if (std::isnan(n) || std::isnan(x)) return kNaN;
    if (n < 0 || !isInteger(n)) return kNaN;
    if (n == 0) return psi(x);
    if (n == 1) return triGamma(x);
    // scipy: (-1)^(n+1) n! zeta(n+1, x): 0 at +inf, ±inf (the sign of (-1)^(n+1)) at the poles.
    if (x == kInf) return 0.0;
    const bool odd = static_cast<int64_t>(n) % 2 == 1;
    if (x <= 0 && isInteger(x)) return odd ? kInf : -kInf;
    if (x == -kInf) return kNaN;
    return guarded([&] { return boost::math::polygamma(static_cast<int>(n), x, Policy()); });
}

double log1mexp(double x) {
    // PyTensor's Log1mexp: log1p(-exp(x)) below log(1/2), log(-expm1(x)) above.
    if (x < -0.6931471805599453) return std::log1p(-std::exp(x));
    return std::log(-std::expm1(x));
}

} // namespace tl::special
