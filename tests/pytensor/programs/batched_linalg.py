"""Batched linear algebra over a stack of matrices: inv, det, solve, cholesky and matmul (Blockwise)."""
import numpy as np
import pytensor.tensor as pt

As = pt.tensor3("As", shape=(3, 4, 4))
bs = pt.matrix("bs", shape=(3, 4))
Bs = pt.tensor3("Bs", shape=(3, 4, 2))

spd = pt.matmul(As, pt.swapaxes(As, -1, -2)) + pt.eye(4)
outputs = [
    pt.linalg.inv(As),
    pt.linalg.det(As),
    pt.linalg.solve(As, bs, b_ndim=1),
    pt.linalg.solve(spd, Bs, assume_a="pos", b_ndim=2),
    pt.linalg.cholesky(spd),
    pt.matmul(As, Bs),
    pt.einsum("bij,bj->bi", As, bs),
]
inputs = [As, bs, Bs]

rng = np.random.default_rng(32)
values = {"As": rng.normal(size=(3, 4, 4)) + 3 * np.eye(4), "bs": rng.normal(size=(3, 4)),
          "Bs": rng.normal(size=(3, 4, 2))}
