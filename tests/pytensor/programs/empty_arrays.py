"""Arrays with zero-length dimensions: reductions of empty arrays (sum 0, prod 1, any/all, mean
nan), matmul over an empty inner dim, concatenating empties, empty slices, cumsum and sort of
empty vectors, indexing with an empty index vector, and a gradient through an empty slice."""
import numpy as np
import pytensor
import pytensor.tensor as pt

E = pt.matrix("E", shape=(3, 0))
F = pt.matrix("F", shape=(0, 4))
x = pt.vector("x", shape=(5,))
e = pt.vector("e", shape=(0,))
ei = pt.vector("ei", shape=(0,), dtype="int64")
dyn = pt.matrix("dyn", shape=(None, None))

outputs = [
    E.sum(axis=1), E.prod(axis=1), F.sum(axis=0), e.sum(), e.prod(), pt.all(e > 0), pt.any(e > 0),
    E @ F, F.T @ E.T, pt.concatenate([x, e]), pt.concatenate([E, E], axis=1), x[3:1], x[5:], pt.cumsum(e),
    pt.sort(e), x[ei], (x[2:2] * 3).sum(), pt.zeros((0, 3)), pt.arange(0), pt.stack([e, e]),
    dyn.sum(axis=0), dyn.shape[0] + dyn.shape[1], pt.dot(dyn, pt.ones((dyn.shape[1], 2))),
    pytensor.grad((x[4:4] ** 2).sum() + x[:0].sum() + x.sum(), x), e.mean(), pt.max(E, axis=0),
]
inputs = [E, F, x, e, ei, dyn]

values = {"E": np.zeros((3, 0)), "F": np.zeros((0, 4)), "x": np.arange(5.0), "e": np.zeros(0),
          "ei": np.zeros(0, dtype="int64"), "dyn": np.zeros((0, 3))}
