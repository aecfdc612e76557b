"""Newer NumPy-style helpers: vecdot, matvec, vecmat, median (odd and even lengths, along an axis),
ptp, cov and corrcoef-like normalisation, interp, geomspace/logspace, divmod, moveaxis,
broadcast_arrays, atleast_2d, allclose; (the gradient of interp is interp_grad_blockwise_view)."""
import numpy as np
import pytensor
import pytensor.tensor as pt

A = pt.matrix("A", shape=(4, 3))
B = pt.matrix("B", shape=(4, 3))
v = pt.vector("v", shape=(3,))
w = pt.vector("w", shape=(4,))
xp = pt.vector("xp", shape=(5,))
fp = pt.vector("fp", shape=(5,))
xq = pt.vector("xq", shape=(7,))
k = pt.vector("k", shape=(5,), dtype="int64")
T = pt.tensor3("T", shape=(2, 3, 4))

C = pt.cov(A.T)
sd = pt.sqrt(pt.diag(C))
curve = pt.interp(xq, xp, fp)
q, r = pt.divmod(k, 3)
b1, b2 = pt.broadcast_arrays(v, w[:, None])
outputs = [
    pt.vecdot(A, B), pt.matvec(A, v), pt.vecmat(w, A), pt.median(w), pt.median(xp), pt.median(A, axis=0),
    pt.ptp(A, axis=1), C, C / pt.outer(sd, sd), curve, pt.geomspace(1.0, 1000.0, 4), pt.logspace(0.0, 2.0, 5),
    q, r, pt.moveaxis(T, 0, -1), b1 + b2, pt.atleast_2d(v), pt.allclose(A, B), pt.allclose(A, A),
    pytensor.grad(pt.median(w) + pt.ptp(A), [w, A])[1],
]
inputs = [A, B, v, w, xp, fp, xq, k, T]
rng = np.random.default_rng(310)
values = {"A": rng.normal(size=(4, 3)), "B": rng.normal(size=(4, 3)), "v": rng.normal(size=3), "w": rng.normal(size=4),
          "xp": np.array([0.0, 1.0, 2.5, 3.0, 4.0]), "fp": rng.normal(size=5),
          "xq": np.array([-1.0, 0.0, 0.5, 2.5, 2.9, 4.0, 5.0]), "k": np.array([-7, -3, 0, 4, 11]),
          "T": rng.normal(size=(2, 3, 4))}
