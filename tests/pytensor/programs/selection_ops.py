"""Data-dependent selections: nonzero, unique with counts, choose, permute_row_elements, bartlett window."""
import numpy as np
import pytensor.tensor as pt

x = pt.vector("x", shape=(10,))
labels = pt.vector("labels", shape=(12,), dtype="int64")
choice = pt.vector("choice", shape=(4,), dtype="int64")
C = pt.matrix("C", shape=(3, 4))
perm = pt.vector("perm", shape=(4,), dtype="int64")

(nz,) = pt.nonzero(x > 0)
uniq, counts = pt.unique(labels, return_counts=True)
outputs = [
    nz, x[nz].sum(), pt.flatnonzero(labels % 2), uniq, counts, pt.unique(labels, return_inverse=True)[1],
    pt.choose(choice, C), pt.permute_row_elements(C, perm), pt.bartlett(7), pt.bincount(labels, minlength=6),
]
inputs = [x, labels, choice, C, perm]

rng = np.random.default_rng(40)
values = {"x": rng.normal(size=10), "labels": rng.integers(0, 5, size=12), "choice": np.array([2, 0, 1, 2]),
          "C": rng.normal(size=(3, 4)), "perm": np.array([3, 1, 0, 2])}
