"""A negative binomial regression with exposure offsets and a random intercept per group, as PyMC
writes its log density: log-link rate from a design matrix product, group effects by advanced
indexing, the NB2 log-pmf through gammaln, log and log1p, a half-normal prior on the dispersion
through its log, large counts (gammaln of 1e4) and zero counts; the value and its gradient in every
parameter, as a sampler asks for them."""
import numpy as np
import pytensor
import pytensor.tensor as pt

X = pt.matrix("X", shape=(12, 3))
y = pt.vector("y", shape=(12,), dtype="int64")
group = pt.vector("group", shape=(12,), dtype="int64")
log_exposure = pt.vector("log_exposure", shape=(12,))
beta = pt.vector("beta", shape=(3,))
u = pt.vector("u", shape=(4,))
log_alpha = pt.scalar("log_alpha")
log_sigma = pt.scalar("log_sigma")

alpha = pt.exp(log_alpha)
sigma = pt.exp(log_sigma)
eta = X @ beta + u[group] * sigma + log_exposure
mu = pt.exp(eta)
logp_y = (pt.gammaln(y + alpha) - pt.gammaln(alpha) - pt.gammaln(y + 1)
          + alpha * (pt.log(alpha) - pt.log(alpha + mu)) + y * (pt.log(mu) - pt.log(alpha + mu)))
logp_u = -0.5 * pt.sum(u**2) - 2 * np.log(2 * np.pi) / 2
logp_alpha = -0.5 * alpha**2 + log_alpha + np.log(np.sqrt(2 / np.pi))
logp_sigma = -sigma + log_sigma
logp = pt.sum(logp_y) + logp_u + logp_alpha + logp_sigma
params = [beta, u, log_alpha, log_sigma]
outputs = [logp, logp_y, *pytensor.grad(logp, params)]
inputs = [X, y, group, log_exposure, *params]
rng = np.random.default_rng(1306)
values = {
    "X": np.column_stack([np.ones(12), rng.normal(size=12), rng.normal(size=12)]),
    "y": np.array([0, 0, 3, 7, 12, 0, 1, 10000, 25, 4, 2, 0], dtype="int64"),
    "group": np.array([0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3], dtype="int64"),
    "log_exposure": np.log(np.array([1.0, 2.0, 0.5, 1.0, 3.0, 1.0, 1.0, 2000.0, 4.0, 1.0, 0.2, 1.0])),
    "beta": np.array([0.3, -0.2, 0.5]), "u": np.array([0.1, -0.4, 0.25, 0.0]),
    "log_alpha": np.array(0.7), "log_sigma": np.array(-0.5),
}

# The gradient in log_alpha goes through psi, which PyTensor's C code computes by a short
# asymptotic series (AS 103) good to about 1e-10 relative, where tensorlens matches scipy
# to 1e-15: that output is compared with this tolerance.
reference_rtol = {4: 1e-8}
