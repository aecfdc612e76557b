"""An LKJ-Cholesky covariance as PyMC builds it: an unconstrained vector mapped by tanh to canonical
partial correlations, placed into the strict lower triangle with set_subtensor at tril indices,
rows completed by sqrt(1 - cumulative sums of squares), scaled by exp(log sigmas); the LKJ log-density
with the transform's log-Jacobian, a multivariate normal log-likelihood through solve_triangular, and
the gradient in all unconstrained parameters."""
import numpy as np
import pytensor
import pytensor.tensor as pt

D, N = 4, 12
m = D * (D - 1) // 2
Y = pt.matrix("Y", shape=(N, D))
z_raw = pt.vector("z_raw", shape=(m,))
log_sd = pt.vector("log_sd", shape=(D,))
eta = 2.0

rows, cols = np.tril_indices(D, -1)
z = pt.tanh(z_raw)
Zm = pt.zeros((D, D))[rows, cols].set(z)
# w_ij = z_ij * sqrt(1 - sum_{k<j} w_ik^2): do it column by column with cumsum of squares of z
one_minus = 1 - Zm ** 2
cum = pt.cumprod(pt.concatenate([pt.ones((D, 1)), one_minus[:, :-1]], axis=1), axis=1)
W = pt.tril(Zm * pt.sqrt(cum), -1) + pt.diag(pt.sqrt(pt.prod(pt.tril(one_minus, -1) + pt.triu(pt.ones((D, D))), axis=1)))
L = W * pt.exp(log_sd)[:, None]
logdet_jac = pt.sum(pt.log1p(-z ** 2)) + 0.5 * pt.sum(pt.log(cum[rows, cols]))
diagW = pt.diagonal(W)
lkj = pt.sum((D - np.arange(1, D + 1) + 2 * eta - 2) * pt.log(diagW))
sol = pt.linalg.solve_triangular(L, Y.T, lower=True)
ll = -0.5 * pt.sum(sol ** 2) - N * pt.sum(pt.log(pt.diagonal(L))) - 0.5 * N * D * np.log(2 * np.pi)
lp = ll + lkj + logdet_jac - 0.5 * pt.sum(log_sd ** 2)
corr = W @ W.T
grads = pytensor.grad(lp, [z_raw, log_sd])

inputs = [Y, z_raw, log_sd]
outputs = [lp, corr, L, *grads]

rng = np.random.default_rng(21)
C = np.array([[1, .5, .2, 0], [.5, 1, .3, .1], [.2, .3, 1, -.2], [0, .1, -.2, 1]])
values = {"Y": rng.normal(size=(N, D)) @ np.linalg.cholesky(C).T, "z_raw": rng.normal(size=m) * 0.4,
          "log_sd": rng.normal(size=D) * 0.2}
