"""Gradients through linear algebra: cholesky, solve_triangular (both sides), slogdet, eigh
eigenvalues, singular values, inv, kron, pinv and det, as a model's log-density sums them."""
import numpy as np
import pytensor
import pytensor.tensor as pt

A = pt.matrix("A", shape=(4, 4))
R = pt.matrix("R", shape=(5, 3))
b = pt.vector("b", shape=(4,))
P = pt.matrix("P", shape=(2, 2))

spd = A @ A.T + 4 * pt.eye(4)
L = pt.linalg.cholesky(spd)
z = pt.linalg.solve_triangular(L, b, lower=True)
zt = pt.linalg.solve_triangular(L.T, z, lower=False)
sign, logdet = pt.linalg.slogdet(spd)
w = pt.linalg.eigvalsh(spd, pt.eye(4))
w2, _ = pt.linalg.eigh(spd)
sv = pt.linalg.svd(R, compute_uv=False)
iv = pt.linalg.inv(spd)
kr = pt.linalg.kron(P, A)
pv = pt.linalg.pinv(R)
dt = pt.linalg.det(A)

terms = [
    (z ** 2).sum(), (zt * b).sum(), logdet, (w ** 2).sum(), pt.log(w2).sum(), sv.sum(),
    pt.trace(iv), (kr ** 2).sum(), (pv ** 2).sum(), dt, pt.log(pt.diag(L)).sum(),
]
grads_A = [pytensor.grad(terms[i], A) for i in (0, 1, 2, 3, 4, 6, 7, 9, 10)]
gR = pytensor.grad(sv.sum(), R)          # (PyTensor's own pinv grad fails for a non-square R)
gpA = pytensor.grad((pt.linalg.pinv(A + 3 * pt.eye(4)) ** 2).sum(), A)
gb = pytensor.grad((z ** 2).sum() + (zt * b).sum(), b)
gP = pytensor.grad((kr ** 2).sum(), P)

inputs = [A, R, b, P]
outputs = [*terms, *grads_A, gR, gb, gP, gpA]

rng = np.random.default_rng(106)
values = {"A": rng.normal(size=(4, 4)), "R": rng.normal(size=(5, 3)), "b": rng.normal(size=4),
          "P": rng.normal(size=(2, 2))}
