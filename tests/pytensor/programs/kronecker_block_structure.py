"""Structured covariances: a Kronecker product of two covariances (a separable spatio-temporal
GP) and a block-diagonal one (independent groups), with their determinants, diagonals,
inverses, Cholesky factors and pseudo-inverses, and the gradient of a log-density."""
import numpy as np
import pytensor
import pytensor.tensor as pt

A = pt.matrix("A", shape=(3, 3))
B = pt.matrix("B", shape=(2, 2))
C = pt.matrix("C", shape=(4, 4))
y = pt.vector("y", shape=(6,))

KA = A @ A.T + pt.eye(3)
KB = B @ B.T + pt.eye(2)
KC = C @ C.T + pt.eye(4)
K = pt.linalg.kron(KA, KB)
D = pt.linalg.block_diag(KA, KB, KC)

L = pt.linalg.cholesky(K)
logp = -0.5 * (y @ pt.linalg.solve(K, y)) - pt.log(pt.diag(L)).sum()
outputs = [
    pt.linalg.det(K), pt.linalg.det(D), pt.diag(K), pt.diag(D), pt.linalg.inv(K), pt.linalg.inv(D),
    L, pt.linalg.cholesky(D), pt.linalg.pinv(D), logp, pytensor.grad(logp, [A, B])[0],
    pt.log(pt.linalg.det(D)), pt.linalg.inv(pt.linalg.kron(A, B)),
]
inputs = [A, B, C, y]
rng = np.random.default_rng(176)
values = {"A": rng.normal(size=(3, 3)), "B": rng.normal(size=(2, 2)), "C": rng.normal(size=(4, 4)),
          "y": rng.normal(size=6)}
