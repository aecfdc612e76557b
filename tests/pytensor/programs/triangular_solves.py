"""Linear-algebra gradients models need: solve_triangular (lower and upper, transposed),
cho_solve (which has no gradient in PyTensor), a Kronecker product, and the log-determinant through a Cholesky factor, with
gradients of a multivariate-normal log-density."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.tensor.slinalg import cho_solve, solve_triangular

A = pt.matrix("A", shape=(3, 3))
B = pt.matrix("B", shape=(2, 2))
x = pt.vector("x", shape=(3,))
Y = pt.matrix("Y", shape=(3, 2))

S = A @ A.T + 0.5 * pt.eye(3)
L = pt.linalg.cholesky(S)
z = solve_triangular(L, x, lower=True)
logp = -0.5 * (z @ z) - pt.log(pt.diag(L)).sum()
W = solve_triangular(L.T, Y, lower=False, trans=0)
V = cho_solve((L, True), Y)
K = pt.linalg.kron(B, S)
inputs = [A, B, x, Y]
outputs = [logp, pytensor.grad(logp, A), pytensor.grad(logp, x), W, V, pytensor.grad((W ** 2).sum(), A), K,
           pytensor.grad(pt.trace(K), B)]
values = {"A": np.array([[1.0, 0.2, -0.3], [0.0, 1.5, 0.4], [0.3, -0.1, 0.8]]), "B": np.array([[2.0, 0.5], [0.1, 1.0]]),
          "x": np.array([0.5, -1.0, 2.0]), "Y": np.arange(6.0).reshape(3, 2) / 5.0}
