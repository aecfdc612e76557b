"""A multivariate normal log-density via Cholesky: cholesky, cho_solve, log-determinant and gradient."""
import numpy as np
import pytensor
import pytensor.tensor as pt

X = pt.matrix("X", shape=(20, 4))
mu = pt.vector("mu", shape=(4,))
C = pt.matrix("C", shape=(4, 4))

cov = C @ C.T + pt.eye(4)
chol = pt.linalg.cholesky(cov)
diff = X - mu
z = pt.linalg.solve_triangular(chol, diff.T, lower=True)
logdet = 2 * pt.sum(pt.log(pt.diag(chol)))
logp = -0.5 * pt.sum(z**2) - 0.5 * X.shape[0] * (logdet + 4 * np.log(2 * np.pi))
precision_diff = pt.linalg.cho_solve((chol, True), diff.T)
upper = pt.linalg.cholesky(cov, lower=False)
g_mu, g_C = pytensor.grad(logp, [mu, C])

inputs = [X, mu, C]
outputs = [logp, chol, upper, precision_diff, g_mu, g_C]

rng = np.random.default_rng(29)
values = {"X": rng.normal(size=(20, 4)), "mu": rng.normal(size=4) * 0.1, "C": rng.normal(size=(4, 4)) * 0.5}
