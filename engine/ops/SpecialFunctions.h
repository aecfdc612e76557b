#pragma once
// The special functions of pytensor.scalar.math in double precision, computed
// with Boost.Math (docs/ops.md#special-functions). They follow scipy.special,
// which PyTensor's Python implementations call: NaN outside a domain, ±inf at
// poles and on overflow, never an exception, and scipy's values at the edges
// (signed zeros, infinities, NaN arguments). The accuracy against scipy is
// measured by tests/engine/tst_special_functions.cpp on the reference values in
// tests/data/special_functions/.
//
// Kept out of ScalarOps.h so the Boost headers are compiled in the few files
// that implement these, not in every file that names a scalar op.

namespace tl::special {

// ---- error function family (SpecialErf.cpp) ----
/// exp(x²) erfc(x), without the overflow of either factor.
double erfcx(double x);
/// Inverse of erf on [-1, 1] (±inf at ±1).
double erfinv(double x);
/// Inverse of erfc on [0, 2] (+inf at 0, -inf at 2).
double erfcinv(double x);
/// Owen's T function T(h, a).
double owensT(double h, double a);

// ---- gamma family (SpecialGamma.cpp) ----
double gamma(double x);
/// log |Γ(x)|.
double gammaln(double x);
/// The digamma function ψ(x) (+inf at -0 and at negative integers... as scipy: see the .cpp).
double psi(double x);
/// ψ'(x), scipy's polygamma(1, x).
double triGamma(double x);
/// ψ^(n)(x) for a non-negative integer order n (NaN for other n).
double polyGamma(double n, double x);
/// log(1 - exp(x)) by PyTensor's formula (log1p(-exp(x)) below log(1/2), log(-expm1(x)) above).
double log1mexp(double x);

// ---- incomplete gamma and beta (SpecialIncomplete.cpp) ----
/// Regularized lower incomplete gamma P(k, x).
double gammaInc(double k, double x);
/// Regularized upper incomplete gamma Q(k, x).
double gammaIncC(double k, double x);
/// x with P(k, x) = p.
double gammaIncInv(double k, double p);
/// x with Q(k, x) = q.
double gammaIncCInv(double k, double q);
/// Upper incomplete gamma Γ(k, x) = Q(k, x) Γ(k) (PyTensor's gammau).
double gammaU(double k, double x);
/// Lower incomplete gamma γ(k, x) = P(k, x) Γ(k) (PyTensor's gammal).
double gammaL(double k, double x);
/// Regularized incomplete beta I_x(a, b).
double betaInc(double a, double b, double x);
/// x with I_x(a, b) = p.
double betaIncInv(double a, double b, double p);
/// The Gauss hypergeometric function 2F1(a, b; c; z) for real z ≤ 1.
double hyp2f1(double a, double b, double c, double z);

// ---- Bessel functions (SpecialBessel.cpp) ----
double j0(double x);
double j1(double x);
/// J_v(x) of real order v.
double jv(double v, double x);
double i0(double x);
double i1(double x);
/// I_v(x) of real order v.
double iv(double v, double x);
/// I_v(x) exp(-|x|).
double ive(double v, double x);
/// K_v(x) exp(x).
double kve(double v, double x);

} // namespace tl::special
