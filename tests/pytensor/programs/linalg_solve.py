"""Linear systems: solve with each assume_a form, triangular solves and a least-squares fit."""
import numpy as np
import pytensor.tensor as pt

A = pt.matrix("A", shape=(5, 5))
S = pt.matrix("S", shape=(5, 5))
b = pt.vector("b", shape=(5,))
B = pt.matrix("B", shape=(5, 2))
L = pt.matrix("L", shape=(5, 5))

spd = S @ S.T + 5 * pt.eye(5)
sym = S + S.T
tri_l = pt.tril(L) + 3 * pt.eye(5)
outputs = [
    pt.linalg.solve(A, b),
    pt.linalg.solve(A, B, assume_a="gen"),
    pt.linalg.solve(sym, b, assume_a="sym"),
    pt.linalg.solve(spd, B, assume_a="pos"),
    pt.linalg.solve(A, b, transposed=True),
    pt.linalg.solve_triangular(tri_l, b, lower=True),
    pt.linalg.solve_triangular(tri_l.T, B, lower=False),
    pt.linalg.solve_triangular(tri_l, b, lower=True, trans="T", unit_diagonal=False),
    pt.linalg.lstsq(A[:, :3], b, -1)[0],
]
inputs = [A, S, b, B, L]

rng = np.random.default_rng(28)
values = {
    "A": rng.normal(size=(5, 5)) + 4 * np.eye(5),
    "S": rng.normal(size=(5, 5)),
    "b": rng.normal(size=5),
    "B": rng.normal(size=(5, 2)),
    "L": rng.normal(size=(5, 5)),
}
