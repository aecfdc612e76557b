"""A Gaussian-process regression: squared-exponential kernel, Cholesky marginal likelihood, its
gradient in the log hyperparameters, and the posterior mean at new points."""
import numpy as np
import pytensor
import pytensor.tensor as pt

X = pt.vector("X", shape=(15,))
y = pt.vector("y", shape=(15,))
X_new = pt.vector("X_new", shape=(5,))
log_ls = pt.scalar("log_ls")
log_eta = pt.scalar("log_eta")
log_noise = pt.scalar("log_noise")


def kernel(a, b):
    return pt.exp(2 * log_eta) * pt.exp(-0.5 * (a[:, None] - b[None, :]) ** 2 / pt.exp(2 * log_ls))


K = kernel(X, X) + pt.exp(2 * log_noise) * pt.eye(15)
L = pt.linalg.cholesky(K)
v = pt.linalg.solve_triangular(L, y, lower=True)
marginal = -0.5 * v @ v - pt.sum(pt.log(pt.diag(L))) - 7.5 * np.log(2 * np.pi)
alpha = pt.linalg.cho_solve((L, True), y)
grads = pytensor.grad(marginal, [log_ls, log_eta, log_noise])
mean_new = kernel(X_new, X) @ alpha

inputs = [X, y, X_new, log_ls, log_eta, log_noise]
outputs = [marginal, pt.stack(grads), mean_new]

rng = np.random.default_rng(48)
_X = np.sort(rng.uniform(-3, 3, size=15))
values = {"X": _X, "y": np.sin(_X) + rng.normal(size=15) * 0.1, "X_new": np.linspace(-2, 2, 5),
          "log_ls": np.array(0.0), "log_eta": np.array(0.1), "log_noise": np.array(-2.0)}
