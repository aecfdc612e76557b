"""Skew-normal and beta CDFs (owens_t, betainc), hyp2f1, trigamma and elementwise utilities."""
import numpy as np
import pytensor.tensor as pt

x = pt.vector("x", shape=(16,))
a = pt.scalar("a")
p = pt.vector("p", shape=(16,))
alpha = pt.scalar("alpha")
beta = pt.scalar("beta")
angles = pt.vector("angles", shape=(16,))

skew_cdf = 0.5 * pt.erfc(-x / np.sqrt(2)) - 2 * pt.owens_t(x, a)
beta_cdf = pt.betainc(alpha, beta, p)
hyp = pt.hyp2f1(alpha, beta, alpha + beta + 1, p * 0.9)
tri = pt.tri_gamma(alpha + x**2)
flags = pt.isnan(pt.log(x)) | pt.isinf(1 / pt.round(x))
rounded = [pt.trunc(3 * x), pt.round(2.5 * x, mode="half_away_from_zero"), pt.round(2.5 * x)]
degrees = pt.rad2deg(angles)
radians = pt.deg2rad(degrees + 10)
hyperbolic = pt.arcsinh(x) + pt.arctanh(p * 0.99) + pt.arccosh(1 + p)

inputs = [x, a, p, alpha, beta, angles]
outputs = [skew_cdf, beta_cdf, hyp, tri, flags, *rounded, degrees, radians, hyperbolic]

# PyTensor's C code computes psi and tri_gamma by short asymptotic series with 10-digit
# coefficients (AS 103, AS 121), which agree with scipy (and with tensorlens, which matches
# scipy to 1e-15) to about 1e-10 relative:
# tri (output 3) is compared with that tolerance.
reference_rtol = {3: 1e-8}

rng = np.random.default_rng(21)
values = {
    "x": np.round(rng.normal(size=16) * 2, 1),
    "a": np.array(1.8),
    "p": rng.uniform(0.01, 0.99, size=16),
    "alpha": np.array(2.0),
    "beta": np.array(3.5),
    "angles": rng.uniform(-np.pi, np.pi, size=16),
}
