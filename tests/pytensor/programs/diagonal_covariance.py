"""Diagonal covariances as models write them, pt.diag(sigma**2) and sigma**2 * pt.eye(n),
with their determinant, inverse and Cholesky factor in a Gaussian log-density, and its
gradient with respect to the scales."""
import numpy as np
import pytensor
import pytensor.tensor as pt

sigma = pt.vector("sigma", shape=(4,))
tau = pt.scalar("tau")
y = pt.vector("y", shape=(4,))
Z = pt.matrix("Z", shape=(3, 3))

cov = pt.diag(sigma**2)
iso = tau**2 * pt.eye(y.shape[0])
logp = -0.5 * (y @ pt.linalg.inv(cov) @ y) - 0.5 * pt.log(pt.linalg.det(cov))
logp_iso = -0.5 * (y @ pt.linalg.inv(iso) @ y) - 0.5 * pt.log(pt.linalg.det(iso))
L = pt.linalg.cholesky(cov)
M = pt.linalg.cholesky((Z**2 + 1.0) * pt.eye(3))

inputs = [sigma, tau, y, Z]
outputs = [logp, logp_iso, L, M, pt.grad(logp + logp_iso, [sigma, tau])[0]]

rng = np.random.default_rng(41)
values = {
    "sigma": rng.uniform(0.5, 2.0, size=4),
    "tau": np.array(0.8),
    "y": rng.normal(size=4),
    "Z": rng.normal(size=(3, 3)),
}
