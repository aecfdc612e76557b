"""Linear algebra at its edges: the determinant of a singular matrix and slogdet of one with a
negative determinant; Cholesky with on_error="nan" of a matrix that is not positive definite;
solve with assume_a "pos" and "sym"; eigenvalues of a matrix with a repeated eigenvalue; singular
values alone; the pseudo-inverse and the 2-, nuclear-, Frobenius- and inf-norms of a rank-deficient
matrix; and the gradient of slogdet's log-magnitude.

The Cholesky factor is taken of Q, a copy of N's values: given cholesky(N) in the same graph,
PyTensor 2.34 computes det(N) from that factor, which is NaN for N (not positive definite),
so its compiled slogdet(N) would be (NaN, NaN) where the matrix has sign -1 and log 2."""
import numpy as np
import pytensor
import pytensor.tensor as pt

S = pt.matrix("S", shape=(3, 3))
N = pt.matrix("N", shape=(3, 3))
Q = pt.matrix("Q", shape=(3, 3))
P = pt.matrix("P", shape=(3, 3))
R = pt.matrix("R", shape=(4, 3))
b = pt.vector("b", shape=(3,))

sign, logdet = pt.linalg.slogdet(N)
outputs = [
    pt.linalg.det(S), sign, logdet, pt.linalg.cholesky(Q, on_error="nan"),
    pt.linalg.solve(P, b, assume_a="pos"), pt.linalg.solve(P + P.T, b, assume_a="sym"),
    pt.linalg.eigh(P)[0], pt.linalg.svd(R, compute_uv=False), pt.linalg.pinv(R),
    pt.linalg.norm(R, ord=2), pt.linalg.norm(R, ord="nuc"), pt.linalg.norm(R, ord="fro"),
    pt.linalg.norm(R, ord=np.inf), pt.linalg.norm(b, ord=1), pt.linalg.norm(b, ord=-np.inf),
    pytensor.grad(logdet, N),
]
inputs = [S, N, Q, P, R, b]
values = {
    "S": np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.5, -1.0, 2.0]]),
    "N": np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 3.0], [4.0, -3.0, 8.0]]),
    "Q": np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 3.0], [4.0, -3.0, 8.0]]),
    "P": np.array([[4.0, 1.0, 0.0], [1.0, 4.0, 0.0], [0.0, 0.0, 5.0]]),
    "R": np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0], [1.0, 3.0, 4.0]]),
    "b": np.array([1.0, -2.0, 0.5]),
}
