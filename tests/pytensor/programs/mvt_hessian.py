"""A multivariate Student-t log-density with a Cholesky-parameterised scale (log diagonal + strict
lower entries placed with set_subtensor at tril indices), its gradient and its full Hessian in the
location and the log degrees of freedom, as a Laplace approximation of a robust model needs."""
import numpy as np
import pytensor
import pytensor.tensor as pt

X = pt.matrix("X", shape=(12, 3))
mu = pt.vector("mu", shape=(3,))
log_nu = pt.scalar("log_nu")
chol_free = pt.vector("chol_free", shape=(6,))

nu = pt.exp(log_nu)
rows, cols = np.tril_indices(3)
L = pt.zeros((3, 3))
L = pt.set_subtensor(L[rows, cols], chol_free)
diag_idx = np.arange(3)
L = pt.set_subtensor(L[diag_idx, diag_idx], pt.exp(pt.diag(L)))
z = pt.linalg.solve_triangular(L, (X - mu).T, lower=True)
maha = (z ** 2).sum(axis=0)
logp = (pt.gammaln((nu + 3) / 2) - pt.gammaln(nu / 2) - 1.5 * pt.log(nu * np.pi)
        - pt.log(pt.diag(L)).sum() - (nu + 3) / 2 * pt.log1p(maha / nu)).sum()
theta = pt.concatenate([mu, log_nu[None]])
g = pytensor.grad(logp, [mu, log_nu, chol_free])
H = [pytensor.gradient.hessian(logp, mu), pytensor.grad(pytensor.grad(logp, log_nu), log_nu), pytensor.gradient.jacobian(pytensor.grad(logp, mu), log_nu)]
H_chol = pytensor.gradient.hessian(logp, chol_free)
inputs = [X, mu, log_nu, chol_free]
outputs = [logp, *g, *H, H_chol]
rng = np.random.default_rng(311)
values = {"X": rng.standard_t(5, size=(12, 3)), "mu": np.array([0.1, -0.2, 0.05]), "log_nu": np.array(1.2),
          "chol_free": np.array([0.1, 0.3, -0.2, -0.1, 0.2, 0.05])}
reference_rtol = {2: 1e-7, 4: 1e-7, 5: 1e-7, 6: 1e-7, 7: 1e-7}
