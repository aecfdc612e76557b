"""Gradients of cumulative ops: cumsum and cumprod along each axis, a reverse cumsum through
negative-step slices, a survival curve from a cumprod of hazards, and cumsum of ints."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x = pt.vector("x", shape=(8,))
M = pt.matrix("M", shape=(3, 5))
h = pt.vector("h", shape=(6,))
k = pt.vector("k", shape=(6,), dtype="int32")

rev = pt.cumsum(x[::-1])[::-1]
surv = pt.cumprod(1 - pt.sigmoid(h))
cs0 = pt.cumsum(M, axis=0)
cs1 = pt.cumsum(M, axis=-1)
cp0 = pt.cumprod(M, axis=0)
cpn = pt.cumprod(M)                  # axis=None flattens
csn = pt.cumsum(M.T)
ik = pt.cumsum(k)
ip = pt.cumprod(k)
loss = (rev * x).sum() + pt.log(surv).sum() + (cs0 ** 2).sum() + (cs1 * M).sum() + cp0.sum() + cpn[-3:].sum() + csn.sum()
grads = pytensor.grad(loss, [x, M, h])

inputs = [x, M, h, k]
outputs = [rev, surv, cs0, cs1, cp0, cpn, csn, ik, ip, *grads]

rng = np.random.default_rng(107)
values = {"x": rng.normal(size=8), "M": rng.uniform(-1.2, 1.2, size=(3, 5)), "h": rng.normal(size=6),
          "k": np.array([3, -1, 0, 2, -5, 4], dtype="int32")}
