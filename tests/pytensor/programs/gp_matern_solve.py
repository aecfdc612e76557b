"""A Gaussian process with a Matern-3/2 kernel on 2-D inputs: distances through sqrt of squared
differences with a jitter, the marginal likelihood through a general solve and slogdet (no Cholesky),
automatic relevance determination lengthscales, the gradient in the log hyperparameters, and the
predictive mean and variance at new points."""
import numpy as np
import pytensor
import pytensor.tensor as pt

N, M = 15, 5
X = pt.matrix("X", shape=(N, 2))
y = pt.vector("y", shape=(N,))
Xs = pt.matrix("Xs", shape=(M, 2))
log_ls = pt.vector("log_ls", shape=(2,))
log_amp = pt.scalar("log_amp")
log_noise = pt.scalar("log_noise")


def matern32(A, B):
    d2 = pt.sum(((A[:, None, :] - B[None, :, :]) / pt.exp(log_ls)) ** 2, axis=-1)
    r = pt.sqrt(d2 + 1e-12)
    s = np.sqrt(3.0) * r
    return pt.exp(2 * log_amp) * (1 + s) * pt.exp(-s)


K = matern32(X, X) + pt.exp(2 * log_noise) * pt.eye(N)
alpha = pt.linalg.solve(K, y)
_, logdet = pt.linalg.slogdet(K)
mll = -0.5 * y @ alpha - 0.5 * logdet - 0.5 * N * np.log(2 * np.pi)
Ks = matern32(Xs, X)
mean = Ks @ alpha
var = pt.exp(2 * log_amp) - pt.sum(Ks * pt.linalg.solve(K, Ks.T).T, axis=1)
grads = pytensor.grad(mll, [log_ls, log_amp, log_noise])

inputs = [X, y, Xs, log_ls, log_amp, log_noise]
outputs = [mll, mean, var, *grads]

rng = np.random.default_rng(19)
_X = rng.uniform(-2, 2, size=(N, 2))
values = {"X": _X, "y": np.sin(_X[:, 0]) + 0.3 * _X[:, 1] + rng.normal(size=N) * 0.1,
          "Xs": rng.uniform(-2, 2, size=(M, 2)), "log_ls": np.log([1.0, 2.0]), "log_amp": 0.0,
          "log_noise": np.log(0.1)}
