"""A Poisson GLM with an exposure offset and group intercepts: log-likelihood, gradient and deviance."""
import numpy as np
import pytensor
import pytensor.tensor as pt

X = pt.matrix("X", shape=(40, 3))
counts = pt.vector("counts", shape=(40,))
exposure = pt.vector("exposure", shape=(40,))
group = pt.vector("group", shape=(40,), dtype="int32")
beta = pt.vector("beta", shape=(3,))
a = pt.vector("a", shape=(5,))

eta = X @ beta + a[group] + pt.log(exposure)
mu = pt.exp(eta)
ll = pt.sum(counts * eta - mu - pt.gammaln(counts + 1))
dev = 2 * pt.sum(pt.switch(counts > 0, counts * pt.log(counts / mu), 0) - (counts - mu))
g_beta, g_a = pytensor.grad(ll, [beta, a])

inputs = [X, counts, exposure, group, beta, a]
outputs = [ll, dev, g_beta, g_a]

rng = np.random.default_rng(45)
_X = rng.normal(size=(40, 3)) * 0.5
_g = rng.integers(0, 5, size=40).astype("int32")
_e = rng.uniform(0.5, 2.0, size=40)
values = {"X": _X, "counts": rng.poisson(_e * np.exp(_X @ [0.3, -0.2, 0.1] + 0.5)).astype("float64"),
          "exposure": _e, "group": _g, "beta": np.zeros(3), "a": np.full(5, 0.4)}
