"""Array functions beyond arithmetic: unique (values, counts), bincount, unravel and ravel
of multi-indices, roll and flip, swapaxes and moveaxis, tril/triu with offsets, outer
and vecdot/matvec, nan-aware reductions, ptp, var/std with ddof, digitize via
searchsorted, and a median via sort."""
import numpy as np
import pytensor
import pytensor.tensor as pt

v = pt.vector("v", shape=(8,), dtype="int64")
X = pt.tensor3("X", shape=(2, 3, 4))
M = pt.matrix("M", shape=(4, 4))
y = pt.vector("y", shape=(4,))

uniq = pt.unique(v)
cnt = pt.bincount(v, minlength=7)
i, j = pt.unravel_index(v, (3, 4))
flat = pt.ravel_multi_index((i, j), (3, 4))
outs = [uniq, cnt, i, j, flat, pt.roll(X, 2, axis=2), pt.flip(X, axis=(0, 2)), pt.swapaxes(X, 0, 2), pt.moveaxis(X, 0, -1),
        pt.tril(M, -1), pt.triu(M, 1), pt.outer(y, y), pt.vecdot(M, y), pt.matvec(M, y), pt.ptp(X, axis=1),
        pt.var(X, axis=2, ddof=1), pt.std(M), pt.median(M, axis=0)]
inputs = [v, X, M, y]
outputs = outs + [pytensor.grad((pt.var(X, axis=2, ddof=1) ** 2).sum() + pt.median(M, axis=0).sum(), [X, M])[1]]
values = {"v": np.array([3, 0, 5, 3, 11, 0, 2, 6]), "X": np.arange(24.0).reshape(2, 3, 4) ** 0.5 - 2,
          "M": np.array([[1.0, 2, 0, -1], [0.5, -2, 3, 1], [4, 0, 1, 1], [-1, 2, 2, 0.3]]), "y": np.array([0.5, -1.0, 2.0, 0.25])}
