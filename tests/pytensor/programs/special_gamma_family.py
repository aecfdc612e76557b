"""Count-data likelihoods built from the gamma family: negative binomial and beta-binomial log-pmfs."""
import numpy as np
import pytensor.tensor as pt
from pytensor.tensor.special import betaln

k = pt.vector("k", shape=(20,))
n = pt.vector("n", shape=(20,))
alpha = pt.scalar("alpha")
beta = pt.scalar("beta")
mu = pt.vector("mu", shape=(20,))

negbin = (pt.gammaln(k + alpha) - pt.gammaln(alpha) - pt.gammaln(k + 1)
          + alpha * pt.log(alpha / (alpha + mu)) + k * pt.log(mu / (alpha + mu)))
betabin = (pt.gammaln(n + 1) - pt.gammaln(k + 1) - pt.gammaln(n - k + 1)
           + betaln(k + alpha, n - k + beta) - betaln(alpha, beta))
score = pt.digamma(k + alpha) - pt.digamma(alpha)
curvature = pt.polygamma(1, k + alpha)
gamma_fn = pt.gamma(alpha + k / 10)
reg_lower = pt.gammainc(alpha, mu)
reg_upper = pt.gammaincc(alpha, mu)
inc_upper = pt.gammau(alpha, mu)
inc_lower = pt.gammal(alpha, mu)

inputs = [k, n, alpha, beta, mu]
outputs = [negbin.sum(), betabin, score, curvature, gamma_fn, reg_lower, reg_upper, inc_upper, inc_lower]

# PyTensor's C code computes psi and tri_gamma by short asymptotic series with 10-digit
# coefficients (AS 103, AS 121), which agree with scipy (and with tensorlens, which matches
# scipy to 1e-15) to about 1e-10 relative:
# score (digamma) and curvature (polygamma(1, .)) are compared with that tolerance.
reference_rtol = {2: 1e-8, 3: 1e-8}

rng = np.random.default_rng(18)
_n = rng.integers(5, 30, size=20).astype("float64")
values = {
    "k": np.floor(_n * rng.uniform(size=20)),
    "n": _n,
    "alpha": np.array(2.5),
    "beta": np.array(1.5),
    "mu": rng.uniform(0.5, 8.0, size=20),
}
