// The incomplete gamma and beta functions and their inverses (ops/SpecialFunctions.h)
// with Boost.Math. scipy defines the edges Boost leaves to its error policy:
// P(0, x) = 1 and Q(0, x) = 0 for x > 0, P(k, inf) = 1, NaN for k < 0 or x < 0.
#include "ops/SpecialFunctions.h"
#include "ops/SpecialPolicy.h"

#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/gamma.hpp>

#include <cmath>

namespace tl::special {

namespace {

// NaN for what scipy's gammainc / gammaincc refuse; otherwise false and *edge unset.
bool incGammaEdge(double k, double x, bool upper, double* edge) {
    if (std::isnan(k) || std::isnan(x) || k < 0 || x < 0) {
        *edge = kNaN;
        return true;
    }
    if (k == 0) {
        *edge = x > 0 ? (upper ? 0.0 : 1.0) : kNaN;
        return true;
    }
    if (std::isinf(k)) {
        *edge = std::isinf(x) ? kNaN : (upper ? 1.0 : 0.0);
        return true;
    }
    if (std::isinf(x)) {
        *edge = upper ? 0.0 : 1.0;
        return true;
    }
    return false;
}

} // namespace

double gammaInc(double k, double x) {
    double edge;
    if (incGammaEdge(k, x, false, &edge)) return edge;
    return guarded([&] { return boost::math::gamma_p(k, x, Policy()); });
}

double gammaIncC(double k, double x) {
    double edge;
    if (incGammaEdge(k, x, true, &edge)) return edge;
    return guarded([&] { return boost::math::gamma_q(k, x, Policy()); });
}

double gammaIncInv(double k, double p) {
    if (std::isnan(k) || std::isnan(p) || k <= 0 || p < 0 || p > 1 || std::isinf(k)) return kNaN;
    if (p == 0) return 0.0;
    if (p == 1) return kInf;
    return guarded([&] { return boost::math::gamma_p_inv(k, p, Policy()); });
}

double gammaIncCInv(double k, double q) {
    if (std::isnan(k) || std::isnan(q) || k <= 0 || q < 0 || q > 1 || std::isinf(k)) return kNaN;
    if (q == 0) return kInf;
    if (q == 1) return 0.0;
    return guarded([&] { return boost::math::gamma_q_inv(k, q, Policy()); });
}

// PyTensor's implementations: the regularized function times gamma(k), as computed.
double gammaU(double k, double x) { return gammaIncC(k, x) * gamma(k); }
double gammaL(double k, double x) { return gammaInc(k, x) * gamma(k); }

double betaInc(double a, double b, double x) {
    if (std::isnan(a) || std::isnan(b) || std::isnan(x)) return kNaN;
    if (a <= 0 || b <= 0 || std::isinf(a) || std::isinf(b) || x < 0 || x > 1) return kNaN;
    return guarded([&] { return boost::math::ibeta(a, b, x, Policy()); });
}

double betaIncInv(double a, double b, double p) {
    // scipy looks at p first: 0 for p <= 0 and 1 for p >= 1 whatever a and b are.
    if (std::isnan(p)) return kNaN;
    if (p <= 0) return 0.0;
    if (p >= 1) return 1.0;
    if (std::isnan(a) || std::isnan(b) || a <= 0 || b <= 0 || std::isinf(a) || std::isinf(b)) return kNaN;
    return guarded([&] { return boost::math::ibeta_inv(a, b, p, Policy()); });
}

} // namespace tl::special
