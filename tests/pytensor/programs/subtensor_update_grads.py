"""Gradients of set_subtensor and inc_subtensor with respect to both the array and the values,
through slices, integer arrays (repeated), 2-D advanced indices and boolean masks."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x = pt.vector("x", shape=(8,))
M = pt.matrix("M", shape=(5, 4))
v = pt.vector("v", shape=(3,))
V = pt.matrix("V", shape=(2, 4))
idx = pt.vector("idx", shape=(3,), dtype="int64")
ridx = pt.vector("ridx", shape=(2,), dtype="int64")

a = pt.set_subtensor(x[2:5], v)
b = pt.inc_subtensor(x[idx], v * 2)
c = pt.set_subtensor(M[ridx], V)
d = pt.inc_subtensor(M[ridx, idx[::2]], v[:2])
e = pt.set_subtensor(M[M > 0.3], 0.0)
f = pt.inc_subtensor(M[::-2, 1:3], V[0, :2] * 1.5)  # rows 4, 2, 0
g = pt.set_subtensor(x[idx], v)          # repeated index
loss = ((a ** 2).sum() + (b * x).sum() + (pt.sin(c)).sum() + (d ** 3).sum() + (e * M).sum()
        + (f ** 2).sum() + (g * pt.arange(8)).sum())
grads = pytensor.grad(loss, [x, M, v, V])

inputs = [x, M, v, V, idx, ridx]
outputs = [a, b, c, d, e, f, g, *grads]

rng = np.random.default_rng(104)
values = {"x": rng.normal(size=8), "M": rng.normal(size=(5, 4)), "v": rng.normal(size=3), "V": rng.normal(size=(2, 4)),
          "idx": np.array([1, 6, 1]), "ridx": np.array([3, -5])}
