"""Updates that PyTensor turns into BLAS calls: a rank-1 covariance update, y + A x and C + A B."""
import numpy as np
import pytensor.tensor as pt

A = pt.matrix("A", shape=(6, 4))
B = pt.matrix("B", shape=(4, 5))
C = pt.matrix("C", shape=(6, 5))
x = pt.vector("x", shape=(4,))
y = pt.vector("y", shape=(6,))
u = pt.vector("u", shape=(6,))
alpha = pt.scalar("alpha")

outputs = [
    C + pt.dot(A, B),
    0.5 * C - alpha * pt.dot(A, B),
    y + alpha * pt.dot(A, x),
    2 * y - pt.dot(A, x),
    A + alpha * pt.outer(u, x),
    pt.dot(x, pt.dot(A.T, y)),
    pt.dot(A.T, A),
]
inputs = [A, B, C, x, y, u, alpha]

rng = np.random.default_rng(46)
values = {"A": rng.normal(size=(6, 4)), "B": rng.normal(size=(4, 5)), "C": rng.normal(size=(6, 5)),
          "x": rng.normal(size=4), "y": rng.normal(size=6), "u": rng.normal(size=6), "alpha": np.array(0.7)}
