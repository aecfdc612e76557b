"""Decompositions, as a user checks them: eigh/eigvalsh, QR, SVD and LU, through sign-free quantities."""
import numpy as np
import pytensor.tensor as pt

S = pt.matrix("S", shape=(5, 5))
M = pt.matrix("M", shape=(6, 4))

sym = S + S.T
w, V = pt.linalg.eigh(sym)
Q, R = pt.linalg.qr(M)
U, s, Vt = pt.linalg.svd(M, full_matrices=False)
P, L, Up = pt.linalg.lu(S)
outputs = [
    w, pt.linalg.eigvalsh(sym, None), (V * w) @ V.T, pt.abs(pt.diag(R)), Q @ R,
    s, pt.linalg.svd(M, compute_uv=False), (U * s) @ Vt,
    P @ L @ Up, pt.abs(pt.diag(Up)).prod(),
]
inputs = [S, M]

rng = np.random.default_rng(31)
values = {"S": rng.normal(size=(5, 5)), "M": rng.normal(size=(6, 4))}
