"""A Gaussian log-density that takes both det(K) and cholesky(K) of its covariance,
a solve with a 1x1 matrix (a one-dimensional observation model), and their gradients."""
import numpy as np
import pytensor
import pytensor.tensor as pt

X = pt.matrix("X", shape=(5, 3))
y = pt.vector("y", shape=(5,))
ls = pt.scalar("ls")
h = pt.matrix("h", shape=(1, 1))
obs = pt.vector("obs", shape=(1,))

d2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
K = pt.exp(-0.5 * d2 / ls**2) + 0.1 * pt.eye(5)
L = pt.linalg.cholesky(K)
alpha = pt.linalg.solve_triangular(L, y, lower=True)
logp = -0.5 * (alpha @ alpha) - 0.5 * pt.log(pt.linalg.det(K))
gain = pt.linalg.solve(h * h + 1.0, obs)

inputs = [X, y, ls, h, obs]
outputs = [logp, pt.grad(logp, ls), gain, pt.grad(gain.sum(), h)]

rng = np.random.default_rng(31)
values = {
    "X": rng.normal(size=(5, 3)),
    "y": rng.normal(size=5),
    "ls": np.array(1.3),
    "h": np.array([[0.7]]),
    "obs": np.array([2.5]),
}
