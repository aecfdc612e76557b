"""A mixture of K multivariate normals with per-component Cholesky factors, computed in one batched
graph: cholesky and solve_triangular over the component axis (Blockwise) broadcasting against the data,
log-determinants from the batched diagonals, logsumexp over components, and the gradient in the means,
the covariance factors and the weights."""
import numpy as np
import pytensor
import pytensor.tensor as pt

X = pt.matrix("X", shape=(10, 2))
mus = pt.matrix("mus", shape=(3, 2))
Cs = pt.tensor3("Cs", shape=(3, 2, 2))
logits = pt.vector("logits", shape=(3,))

covs = pt.matmul(Cs, Cs.swapaxes(-1, -2)) + 0.5 * pt.eye(2)
Ls = pt.linalg.cholesky(covs)                          # (3, 2, 2)
diff = X[None, :, :] - mus[:, None, :]                 # (3, 10, 2)
z = pt.linalg.solve_triangular(Ls, diff.swapaxes(-1, -2), lower=True)   # (3, 2, 10)
logdet = pt.log(pt.diagonal(Ls, axis1=-2, axis2=-1)).sum(-1)           # (3,)
comp = -0.5 * (z ** 2).sum(axis=1) - logdet[:, None] - np.log(2 * np.pi)  # (3, 10)
lw = pt.special.log_softmax(logits)
ll = pt.logsumexp(comp + lw[:, None], axis=0).sum()
g = pytensor.grad(ll, [mus, Cs, logits])
inputs = [X, mus, Cs, logits]
outputs = [Ls, comp, ll, *g]
rng = np.random.default_rng(328)
values = {"X": rng.normal(size=(10, 2)), "mus": rng.normal(size=(3, 2)), "Cs": rng.normal(size=(3, 2, 2)) * 0.7,
          "logits": np.array([0.1, -0.3, 0.5])}
