"""A two-dimensional robust mixture: K Gaussian components with diagonal scales plus a broad outlier
component, weights from stick-breaking (sigmoid and cumprod), per-point log-densities (N, K+1) joined
with concatenate, logsumexp over components with keepdims, responsibilities, a switch that caps extreme
log-densities, hard assignments, and the gradient in all parameters."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.tensor.math import logsumexp

N, K, D = 30, 3, 2
X = pt.matrix("X", shape=(N, D))
mus = pt.matrix("mus", shape=(K, D))
log_sds = pt.matrix("log_sds", shape=(K, D))
v_raw = pt.vector("v_raw", shape=(K,))

v = pt.sigmoid(v_raw)
rest = pt.concatenate([pt.ones(1), pt.cumprod(1 - v)[:-1]])
w_in = v * rest
w = pt.concatenate([w_in, (1 - pt.sum(w_in))[None]])  # K+1 weights
diff = (X[:, None, :] - mus[None, :, :]) / pt.exp(log_sds)[None, :, :]
comp = -0.5 * pt.sum(diff ** 2, axis=-1) - pt.sum(log_sds, axis=-1) - D * 0.5 * np.log(2 * np.pi)
outl = pt.full((N, 1), -D * np.log(20.0))  # uniform on a 20x20 box
logp_nk = pt.concatenate([comp, outl], axis=1) + pt.log(w)
logp_nk = pt.switch(logp_nk < -50.0, -50.0 + 0.01 * (logp_nk + 50.0), logp_nk)
lse = logsumexp(logp_nk, axis=1, keepdims=True)
resp = pt.exp(logp_nk - lse)
ll = pt.sum(lse)
assign = pt.argmax(resp, axis=1)
n_out = pt.sum(pt.eq(assign, K))
grads = pytensor.grad(ll, [mus, log_sds, v_raw])

inputs = [X, mus, log_sds, v_raw]
outputs = [ll, resp, assign, n_out, *grads]

rng = np.random.default_rng(41)
centres = np.array([[-2.0, 0.0], [2.0, 1.0], [0.0, -2.5]])
_X = centres[rng.integers(0, K, size=N)] + rng.normal(size=(N, D)) * 0.5
_X[:3] = [[8.0, 8.0], [-9.0, 5.0], [7.0, -8.0]]
values = {"X": _X, "mus": centres + rng.normal(size=(K, D)) * 0.2, "log_sds": np.full((K, D), np.log(0.6)),
          "v_raw": np.array([0.0, 0.2, 2.0])}
