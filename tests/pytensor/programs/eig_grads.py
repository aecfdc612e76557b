"""Gradients through the symmetric eigenproblems, as a model's loss takes them: the sum of
eigenvalues and a weighted sum of squared eigenvectors (EighGrad, both UPLO), and the
generalized eigenvalues against the identity and an SPD matrix (EigvalshGrad)."""
import numpy as np
import pytensor
import pytensor.tensor as pt

A = pt.matrix("A", shape=(3, 3))
S = pt.matrix("S", shape=(3, 3))
B = pt.matrix("B", shape=(3, 3))

sym = A + A.T
spd = B @ B.T + 3 * pt.eye(3)
w, V = pt.linalg.eigh(sym)
wu, Vu = pt.linalg.eigh(sym, UPLO="U")
weights = np.arange(1.0, 10.0).reshape(3, 3)
outputs = [
    pytensor.grad(pt.linalg.eigh(A + A.T)[0].sum(), A),
    pytensor.grad((V ** 2 * weights).sum() + (w ** 2).sum(), A),
    pytensor.grad((Vu ** 2 * weights).sum() + wu.sum(), A),
    pytensor.grad(pt.linalg.eigvalsh(S, pt.eye(3)).sum(), S),
    *pytensor.grad((pt.linalg.eigvalsh(sym, spd) ** 2).sum(), [A, B]),
]
inputs = [A, S, B]

rng = np.random.default_rng(47)
values = {"A": rng.normal(size=(3, 3)), "S": rng.normal(size=(3, 3)), "B": rng.normal(size=(3, 3))}
