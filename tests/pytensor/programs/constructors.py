"""Array constructors and joins: arange, eye, tri, diag, split, concatenate, stack, kron, fill_diagonal."""
import numpy as np
import pytensor.tensor as pt
from pytensor.tensor.slinalg import kron

x = pt.vector("x", shape=(6,))
M = pt.matrix("M", shape=(3, 3))
n = pt.scalar("n", dtype="int64")
fill = pt.scalar("fill")

a, b, c = pt.split(x, [1, 2, 3], n_splits=3)
outputs = [
    pt.arange(n), pt.arange(1.0, 4.0, 0.5), pt.eye(4, 3, k=1), pt.tri(4, 4, -1), pt.diag(x[:3]), pt.diag(M),
    a, b, c, pt.concatenate([x, x[::-1]]), pt.stack([x[:3], M[0]], axis=1), kron(M, pt.eye(2)),
    pt.fill_diagonal(M, fill), pt.tril(M, -1) + pt.triu(M, 1), pt.ones_like(M) * pt.arange(3),
    pt.outer(x[:3], x[3:]), pt.zeros((n, 2)),
]
inputs = [x, M, n, fill]

rng = np.random.default_rng(39)
values = {"x": rng.normal(size=6), "M": rng.normal(size=(3, 3)), "n": np.array(5), "fill": np.array(-2.0)}
