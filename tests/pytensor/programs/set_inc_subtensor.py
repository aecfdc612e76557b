"""Scatter updates: set_subtensor and inc_subtensor with repeated indices, masks and slices, and their gradient."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x = pt.vector("x", shape=(8,))
M = pt.matrix("M", shape=(5, 4))
idx = pt.vector("idx", shape=(6,), dtype="int64")
vals = pt.vector("vals", shape=(6,))

outputs = [
    pt.inc_subtensor(x[idx], vals),                      # repeated indices accumulate
    pt.set_subtensor(x[idx], vals),                      # repeated indices: the last write wins
    pt.inc_subtensor(M[idx[:3], 1:], 1.0),
    pt.set_subtensor(M[:, -1], M[:, 0] * 2),
    pt.set_subtensor(x[x < 0], 0.0),
    pt.inc_subtensor(M[idx[:4], idx[2:]], vals[:4]),
    pt.zeros((4,)).__getitem__(slice(None)).copy(),
    pytensor.grad(pt.sum(x[idx] ** 2), x),
]
inputs = [x, M, idx, vals]

rng = np.random.default_rng(36)
values = {"x": rng.normal(size=8), "M": rng.normal(size=(5, 4)), "idx": np.array([1, 3, 1, 0, 3, 2]),
          "vals": np.arange(1.0, 7.0)}
