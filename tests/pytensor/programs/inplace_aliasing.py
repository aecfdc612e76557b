"""Writes into arrays that are also read elsewhere, as an imputation step does: set_subtensor and
inc_subtensor on one base whose original is still read afterwards, a chain of set_subtensors on the
same base, writes through strided (x[::2]), transposed (M.T[0]) and reshaped views, an elementwise
update whose input is also a graph output, and the input itself returned beside updated copies."""
import numpy as np
import pytensor.tensor as pt

x = pt.vector("x", shape=(6,))
M = pt.matrix("M", shape=(3, 4))
v = pt.vector("v", shape=(3,))

y1 = pt.set_subtensor(x[0], 10.0)
y2 = pt.inc_subtensor(x[1:3], 1.0)
chain = pt.set_subtensor(pt.set_subtensor(pt.set_subtensor(x[0], 1.0)[2], 2.0)[-1], 3.0)
strided = pt.inc_subtensor(x[::2], v)
tcol = pt.set_subtensor(M.T[0], v)
resh = pt.inc_subtensor(M.reshape((4, 3))[1], v)
ex = pt.exp(x)
upd = ex * 2 + 1
outputs = [y1, y2, chain, strided, tcol, resh, x, M, ex, upd, x[0] + y1[0], M.T, x[::-1], (x * 1)[1:]]
inputs = [x, M, v]
rng = np.random.default_rng(326)
values = {"x": rng.normal(size=6), "M": rng.normal(size=(3, 4)), "v": np.array([1.0, 2.0, 3.0])}
