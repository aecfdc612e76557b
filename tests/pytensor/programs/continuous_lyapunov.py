"""A stationary covariance as a continuous-time state-space (Ornstein-Uhlenbeck) model computes it:
pt.linalg.solve_continuous_lyapunov of a drift matrix with a learned log-rate diagonal, the
log-density of a path's last state under that covariance, and its gradient in the drift and noise."""
import numpy as np
import pytensor
import pytensor.tensor as pt

log_rates = pt.vector("log_rates", shape=(3,))
coupling = pt.matrix("coupling", shape=(3, 3))
noise = pt.vector("noise", shape=(3,))
x = pt.vector("x", shape=(3,))

A = -pt.diag(pt.exp(log_rates)) + 0.1 * coupling
Q = pt.diag(noise ** 2)
S = pt.linalg.solve_continuous_lyapunov(A, -Q)  # A S + S A^T + Q = 0
L = pt.linalg.cholesky(S)
z = pt.linalg.solve_triangular(L, x, lower=True)
logp = -0.5 * (z @ z) - pt.log(pt.diag(L)).sum() - 1.5 * np.log(2 * np.pi)
g = pytensor.grad(logp, [log_rates, coupling, noise])

inputs = [log_rates, coupling, noise, x]
outputs = [S, logp, *g]
rng = np.random.default_rng(4120)
values = {"log_rates": np.array([0.2, -0.4, 0.7]), "coupling": rng.normal(size=(3, 3)),
          "noise": np.array([0.5, 1.2, 0.8]), "x": rng.normal(size=3)}
