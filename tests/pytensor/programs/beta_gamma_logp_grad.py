"""Beta and Gamma regression log-densities (betaln, gammaln, log1pexp link) and their gradients
in the unconstrained parameters (the gradients go through digamma)."""
import numpy as np
import pytensor
import pytensor.tensor as pt

y = pt.vector("y", shape=(25,))          # in (0, 1)
z = pt.vector("z", shape=(25,))          # > 0
X = pt.matrix("X", shape=(25, 3))
w = pt.vector("w", shape=(3,))
log_phi = pt.scalar("log_phi")
log_shape = pt.scalar("log_shape")

mu = pt.sigmoid(X @ w)
phi = pt.exp(log_phi)
a, b = mu * phi, (1 - mu) * phi
beta_lp = pt.sum((a - 1) * pt.log(y) + (b - 1) * pt.log1p(-y) - pt.special.betaln(a, b))
k = pt.exp(log_shape)
rate = k / pt.log1pexp(X @ w)             # softplus mean
gamma_lp = pt.sum(k * pt.log(rate) - pt.gammaln(k) + (k - 1) * pt.log(z) - rate * z)
total = beta_lp + gamma_lp
grads = pytensor.grad(total, [w, log_phi, log_shape])

inputs = [y, z, X, w, log_phi, log_shape]
outputs = [beta_lp, gamma_lp, *grads]
reference_rtol = {2: 1e-8, 3: 1e-8, 4: 1e-8}

rng = np.random.default_rng(101)
values = {"y": rng.beta(2, 3, size=25), "z": rng.gamma(2.0, 1.0, size=25), "X": rng.normal(size=(25, 3)),
          "w": np.array([0.3, -0.5, 0.2]), "log_phi": np.array(1.2), "log_shape": np.array(0.4)}
