"""A covariance parameterised by a lower-triangular matrix with a log-diagonal (pt.tril, pt.triu,
pt.diag of a vector and of a matrix, pt.eye), the covariance L L^T + tau I, an inverse-Wishart-style
log-density with trace(S^-1 Psi) and log det through slogdet, the Frobenius norm of the upper part,
outer-product scatter of centred data, and the gradient in the free entries."""
import numpy as np
import pytensor
import pytensor.tensor as pt

D, N = 3, 20
Xd = pt.matrix("Xd", shape=(N, D))
A = pt.matrix("A", shape=(D, D))
log_tau = pt.scalar("log_tau")

L = pt.tril(A, -1) + pt.diag(pt.exp(pt.diag(A)))
S = L @ L.T + pt.exp(log_tau) * pt.eye(D)
Psi = pt.eye(D) * 2.0 + 0.5
xc = Xd - Xd.mean(axis=0)
scatter = pt.sum(xc[:, :, None] * xc[:, None, :], axis=0)  # sum of outer products
sign, logdet = pt.linalg.slogdet(S)
Sinv = pt.linalg.inv(S)
nu = D + 3.0
lp_iw = -(nu + D + 1) / 2 * logdet - 0.5 * pt.trace(Sinv @ Psi)
ll = -0.5 * N * logdet - 0.5 * pt.sum(Sinv * scatter)
lp = lp_iw + ll + pt.sum(pt.diag(A))
upper_norm = pt.sqrt(pt.sum(pt.triu(S, 1) ** 2))
o = pt.outer(pt.diag(S), pt.arange(1, D + 1))
gA, gt = pytensor.grad(lp, [A, log_tau])

inputs = [Xd, A, log_tau]
outputs = [lp, sign, S, upper_norm, o, gA, gt]

rng = np.random.default_rng(17)
values = {"Xd": rng.normal(size=(N, D)) @ np.array([[1, 0, 0], [0.5, 1, 0], [0.2, -0.3, 0.8]]),
          "A": rng.normal(size=(D, D)) * 0.3, "log_tau": np.log(0.1)}
