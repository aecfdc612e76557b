"""Decompositions, as a user checks them: eigh/eigvalsh, QR, SVD and LU factors, through sign-free quantities."""
import numpy as np
import pytensor.tensor as pt

S = pt.matrix("S", shape=(5, 5))
M = pt.matrix("M", shape=(6, 4))

sym = S + S.T
w, V = pt.linalg.eigh(sym)
Q, R = pt.linalg.qr(M)
U, s, Vt = pt.linalg.svd(M, full_matrices=False)
lu, piv = pt.linalg.lu_factor(S)
outputs = [
    w, pt.linalg.eigvalsh(sym, pt.eye(5)), (V * w) @ V.T, pt.abs(pt.diag(R)), Q @ R,
    s, pt.linalg.svd(M, compute_uv=False), (U * s) @ Vt,
    pt.linalg.lu_solve((lu, piv), M[:5]), pt.abs(pt.diag(lu)).prod(),
]
inputs = [S, M]

rng = np.random.default_rng(31)
values = {"S": rng.normal(size=(5, 5)), "M": rng.normal(size=(6, 4))}
