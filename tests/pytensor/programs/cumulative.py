"""Cumulative sums and products along axes, differences and a stick-breaking construction."""
import numpy as np
import pytensor.tensor as pt

x = pt.vector("x", shape=(10,))
M = pt.matrix("M", shape=(4, 6))
v = pt.vector("v", shape=(7,))

stick = pt.sigmoid(v)
remaining = pt.concatenate([pt.ones((1,)), pt.cumprod(1 - stick)[:-1]])
weights = stick * remaining
outputs = [
    pt.cumsum(x), pt.cumsum(M, axis=0), pt.cumsum(M, axis=1), pt.cumprod(M, axis=-1), pt.cumprod(x),
    pt.diff(x), pt.diff(M, n=2, axis=1), weights, 1 - weights.sum(),
]
inputs = [x, M, v]

rng = np.random.default_rng(37)
values = {"x": rng.normal(size=10), "M": rng.uniform(0.5, 1.5, size=(4, 6)), "v": rng.normal(size=7)}
