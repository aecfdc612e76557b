"""Reductions over all axes and single axes: max, min, prod, all, any, argmax, argmin, mean, var, std."""
import numpy as np
import pytensor.tensor as pt

M = pt.tensor3("M", shape=(4, 5, 3))
mask = pt.matrix("mask", shape=(4, 5), dtype="bool")

outputs = [
    M.max(), M.max(axis=1), M.min(axis=(0, 2)), M.prod(axis=-1), pt.prod(M[0], axis=None),
    pt.all(mask), pt.all(mask, axis=1), pt.any(mask, axis=0), pt.any(M > 2.0),
    pt.argmax(M, axis=2), pt.argmin(M.reshape((20, 3)), axis=0), pt.argmax(M),
    M.mean(axis=0), M.var(axis=1), M.std(axis=(1, 2)), pt.max(M, axis=1, keepdims=True),
    M.sum(axis=(0, 1), dtype="float32"), pt.sum(mask, axis=1),
]
inputs = [M, mask]

rng = np.random.default_rng(22)
values = {"M": rng.normal(size=(4, 5, 3)) * 1.5, "mask": rng.uniform(size=(4, 5)) < 0.7}
