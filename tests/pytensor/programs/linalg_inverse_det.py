"""Determinants and inverses: det, slogdet, inv, pinv, matrix_power and a trace."""
import numpy as np
import pytensor
import pytensor.tensor as pt

A = pt.matrix("A", shape=(4, 4))
R = pt.matrix("R", shape=(6, 3))

sign, logabsdet = pt.linalg.slogdet(A)
outputs = [
    pt.linalg.det(A), sign, logabsdet, pt.linalg.inv(A), pt.linalg.pinv(R),
    pt.linalg.matrix_power(A, 3), pt.linalg.trace(A @ A.T),
    pytensor.grad(pt.log(pt.abs(pt.linalg.det(A))), A),
]
inputs = [A, R]

rng = np.random.default_rng(30)
values = {"A": rng.normal(size=(4, 4)) + 2 * np.eye(4), "R": rng.normal(size=(6, 3))}
