"""Sorting and searching: sort/argsort, searchsorted into bins, repeat, and an empirical CDF."""
import numpy as np
import pytensor.tensor as pt

x = pt.vector("x", shape=(12,))
M = pt.matrix("M", shape=(3, 5))
edges = pt.vector("edges", shape=(5,))
reps = pt.vector("reps", shape=(3,), dtype="int64")

sorted_x = pt.sort(x)
order = pt.argsort(x)
bins = pt.searchsorted(edges, x)
ecdf = pt.searchsorted(sorted_x, x, side="right") / 12.0
outputs = [
    sorted_x, order, pt.sort(M, axis=0), pt.argsort(M, axis=1), pt.sort(-M, axis=None),
    bins, ecdf, pt.repeat(M, 2, axis=0), pt.repeat(edges[:3], reps), x[order][::-1],
]
inputs = [x, M, edges, reps]

rng = np.random.default_rng(38)
values = {"x": rng.normal(size=12), "M": rng.normal(size=(3, 5)), "edges": np.array([-1.5, -0.5, 0.0, 0.5, 1.5]),
          "reps": np.array([1, 0, 3])}
