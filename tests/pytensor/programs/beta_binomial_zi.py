"""Beta-binomial and zero-inflated Poisson log-likelihoods with their gradients: betaln,
gammaln, log1mexp, logaddexp-style switches, as PyMC writes them."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.tensor.special import betaln

n = pt.vector("n", shape=(6,), dtype="int64")
k = pt.vector("k", shape=(6,), dtype="int64")
a = pt.scalar("a")
b = pt.scalar("b")
lam = pt.scalar("lam")
psi = pt.scalar("psi")
y = pt.vector("y", shape=(6,), dtype="int64")

binom = pt.gammaln(n + 1) - pt.gammaln(k + 1) - pt.gammaln(n - k + 1)
bb = (binom + betaln(k + a, n - k + b) - betaln(a, b)).sum()
pois = y * pt.log(lam) - lam - pt.gammaln(y + 1)
zi = pt.switch(pt.eq(y, 0), pt.logaddexp(pt.log(psi), pt.log1p(-psi) - lam), pt.log1p(-psi) + pois).sum()
total = bb + zi
inputs = [n, k, a, b, lam, psi, y]
outputs = [total, *pytensor.grad(total, [a, b, lam, psi])]
values = {"n": np.array([5, 10, 3, 8, 12, 1]), "k": np.array([2, 7, 0, 8, 3, 1]), "a": np.array(1.7), "b": np.array(2.4),
          "lam": np.array(2.5), "psi": np.array(0.3), "y": np.array([0, 3, 0, 1, 5, 2])}
# The gradients read PyTensor's C psi, whose coefficients agree with scipy to ~1e-10.
reference_rtol = {1: 1e-8, 2: 1e-8}
