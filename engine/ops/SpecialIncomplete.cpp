// The incomplete gamma and beta functions and their inverses (ops/SpecialFunctions.h)
// with Boost.Math. scipy defines the edges Boost leaves to its error policy, and
// the order it checks them in decides what a NaN argument gives: P(k, 0) = 0 and
// Q(k, 0) = 1 whatever k is, P(0, x) = 1 for x > 0, I_0(a, b) = 0 and I_1(a, b) = 1
// for any a, b not <= 0. Boost's inverses lose the root for tiny probabilities and
// large shapes (ibeta_inv(2, 5.5, 1e-300) is off by a factor 1e100), so every
// inverse is refined by Newton's method in log x against the forward function.
#include "ops/SpecialFunctions.h"
#include "ops/SpecialPolicy.h"

#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/gamma.hpp>

#include <cmath>
#include <limits>

namespace tl::special {

namespace {

// The root of f(x) = target (0 < target) for f monotone and positive on (0, hi], from
// the estimate x0, with df its derivative: Newton steps on log f against u = log x,
// which are exact for f ~ C x^a and so reach a root near 1e-300 as fast as one near 1,
// kept inside the bracket the signs of f - target give (bisecting where a step would
// leave it). A root below the smallest subnormal is 0.
template <typename F, typename D> double refineRoot(F f, D df, double target, double x0, double hi, bool increasing) {
    constexpr double kTiny = std::numeric_limits<double>::denorm_min();
    if (increasing ? f(kTiny) >= target : f(kTiny) <= target) return 0.0;
    double loU = std::log(kTiny);
    double hiU = std::isinf(hi) ? std::log(std::numeric_limits<double>::max()) : std::log(hi);
    double u = x0 > kTiny && x0 <= hi ? std::log(x0) : 0.5 * (loU + hiU);
    const double logTarget = std::log(target);
    for (int it = 0; it < 200; ++it) {
        const double x = std::exp(u);
        const double fx = f(x);
        if (fx == target || std::isnan(fx)) return x;
        if ((fx > target) == increasing) hiU = u;
        else loU = u;
        double next = 0.5 * (loU + hiU);
        if (fx > 0) {
            const double slope = df(x) * x / fx;  // d log f / d u
            const double newton = u - (std::log(fx) - logTarget) / slope;
            if (newton > loU && newton < hiU) next = newton;
        }
        // A step in u is a relative step in x: stop at about one ulp of x.
        constexpr double kUlp = 2 * std::numeric_limits<double>::epsilon();
        if (std::fabs(next - u) <= kUlp || hiU - loU <= kUlp) return std::exp(next);
        u = next;
    }
    return std::exp(u);
}

// scipy's igam / igamc checks, in its order; false when (k, x) is an ordinary point.
bool incGammaEdge(double k, double x, bool upper, double* edge) {
    if (!upper && x == 0) {
        *edge = 0.0;
        return true;
    }
    if (x < 0 || k < 0) {
        *edge = kNaN;
        return true;
    }
    if (k == 0) {
        *edge = x > 0 ? (upper ? 0.0 : 1.0) : kNaN;
        return true;
    }
    if (upper && x == 0) {
        *edge = 1.0;
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
    if (std::isnan(k) || std::isnan(x)) {
        *edge = kNaN;
        return true;
    }
    return false;
}

// The edges of gammaincinv (lower) and gammainccinv: NaN outside k >= 0, 0 <= p <= 1;
// the ends of the probability range for any such k; NaN for k = 0 or inf in between.
bool incGammaInvEdge(double k, double p, bool upper, double* edge) {
    if (std::isnan(k) || std::isnan(p) || k < 0 || p < 0 || p > 1) {
        *edge = kNaN;
        return true;
    }
    if (p == 0 || p == 1) {
        *edge = (p == 0) == upper ? kInf : 0.0;
        return true;
    }
    if (k == 0 || std::isinf(k)) {
        *edge = kNaN;
        return true;
    }
    return false;
}

double gammaInverse(double k, double p, bool upper) {
    double edge;
    if (incGammaInvEdge(k, p, upper, &edge)) return edge;
    const double x0 = guarded([&] { return upper ? boost::math::gamma_q_inv(k, p, Policy()) : boost::math::gamma_p_inv(k, p, Policy()); });
    auto f = [&](double x) { return upper ? boost::math::gamma_q(k, x, Policy()) : boost::math::gamma_p(k, x, Policy()); };
    auto df = [&](double x) {
        const double d = boost::math::gamma_p_derivative(k, x, Policy());
        return upper ? -d : d;
    };
    return guarded([&] { return refineRoot(f, df, p, x0, kInf, !upper); });
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

double gammaIncInv(double k, double p) { return gammaInverse(k, p, false); }
double gammaIncCInv(double k, double q) { return gammaInverse(k, q, true); }

// PyTensor defines these as the regularized function times gamma(k); Boost computes
// the unregularized integrals directly, which keeps their digits where the regularized
// value is subnormal (gammau(1e-300, 30) = 3.02e-15, where the product gives 0).
double gammaU(double k, double x) {
    double edge;
    if (incGammaEdge(k, x, true, &edge)) return edge * gamma(k);
    return guarded([&] { return boost::math::tgamma(k, x, Policy()); });
}

double gammaL(double k, double x) {
    double edge;
    if (incGammaEdge(k, x, false, &edge)) return edge * gamma(k);
    return guarded([&] { return boost::math::tgamma_lower(k, x, Policy()); });
}

double betaInc(double a, double b, double x) {
    // scipy's incbet: shapes first (a NaN shape passes this test), then the ends of [0, 1].
    if (std::isnan(x) || a <= 0 || b <= 0) return kNaN;
    if (x == 0) return 0.0;
    if (x == 1) return 1.0;
    if (x < 0 || x > 1 || std::isnan(a) || std::isnan(b) || std::isinf(a) || std::isinf(b)) return kNaN;
    return guarded([&] { return boost::math::ibeta(a, b, x, Policy()); });
}

double betaIncInv(double a, double b, double p) {
    // scipy looks at p first: 0 for p <= 0 and 1 for p >= 1 whatever a and b are.
    if (std::isnan(p)) return kNaN;
    if (p <= 0) return 0.0;
    if (p >= 1) return 1.0;
    if (std::isnan(a) || std::isnan(b) || a <= 0 || b <= 0 || std::isinf(a) || std::isinf(b)) return kNaN;
    // A root above 1/2 is found as y = 1 - x from the mirrored problem I_y(b, a) = 1 - p,
    // so that it keeps its distance to 1; one below from I_x(a, b) = p, so that it keeps
    // its digits however small it is.
    const double x0 = guarded([&] { return boost::math::ibeta_inv(a, b, p, Policy()); });
    const bool mirror = x0 > 0.5;
    const double sa = mirror ? b : a, sb = mirror ? a : b, sp = mirror ? 1.0 - p : p;
    auto f = [&](double y) { return boost::math::ibeta(sa, sb, y, Policy()); };
    auto df = [&](double y) { return boost::math::ibeta_derivative(sa, sb, y, Policy()); };
    const double y = guarded([&] { return refineRoot(f, df, sp, mirror ? 1.0 - x0 : x0, 1.0, true); });
    return mirror ? 1.0 - y : y;
}

} // namespace tl::special
