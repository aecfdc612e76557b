"""Gradients through factorizations: QR's R (reduced), SVD's U and
V (sign-invariant squares), solve with assume_a sym and pos, solve_triangular of a Cholesky factor,
matrix_power, block_diag, trace, solve_discrete_lyapunov and a batched inv and det."""
import numpy as np
import pytensor
import pytensor.tensor as pt

A = pt.matrix("A", shape=(4, 3))
S = pt.matrix("S", shape=(3, 3))
b = pt.vector("b", shape=(3,))
Bs = pt.tensor3("Bs", shape=(2, 3, 3))

Q, R = pt.linalg.qr(A, mode="economic")
U, sv, Vt = pt.linalg.svd(A, full_matrices=False)
spd = S @ S.T + pt.eye(3)
sym = S + S.T + 4 * pt.eye(3)
chol = pt.linalg.cholesky(spd)
terms = [
    (pt.abs(pt.diag(R)) * np.arange(1, 4)).sum(), ((U ** 2) * np.arange(12.0).reshape(4, 3)).sum(), ((Vt ** 2) * np.arange(9.0).reshape(3, 3)).sum(),
    pt.linalg.solve(sym, b, assume_a="sym").sum(),
    (pt.linalg.solve(spd, b, assume_a="pos") ** 2).sum(), (pt.linalg.solve_triangular(chol, b, lower=True) ** 2).sum(),  # cho_solve has no gradient in 2.34
    pt.linalg.matrix_power(S * 0.5, 3).sum(),
    (pt.linalg.block_diag(S, A.T @ A) ** 2).sum(), pt.trace(S @ S),
    pt.linalg.solve_discrete_lyapunov(0.3 * S, pt.eye(3)).sum(),
    pt.linalg.inv(Bs + 3 * pt.eye(3)).sum() + pt.linalg.det(Bs).sum(),
]
grads = [pytensor.grad(t, [v for v in (A, S, b, Bs) if v in pytensor.graph.traversal.graph_inputs([t])]) for t in terms]
inputs = [A, S, b, Bs]
outputs = [t for t in terms] + [g for gs in grads for g in gs]
rng = np.random.default_rng(312)
values = {"A": rng.normal(size=(4, 3)), "S": rng.normal(size=(3, 3)), "b": rng.normal(size=3), "Bs": rng.normal(size=(2, 3, 3))}
