"""Constrained-parameter transforms and their log-Jacobians as PyMC builds them: the
stick-breaking simplex (log1p, cumprod, concatenate), an ordered vector (cumsum of exp),
a sum-to-zero vector, and the gradients of a Dirichlet log-density through them."""
import numpy as np
import pytensor
import pytensor.tensor as pt

y = pt.vector("y", shape=(4,))
alpha = pt.vector("alpha", shape=(5,))
u = pt.vector("u", shape=(3,))

K = 5
k = pt.arange(K - 1)
zs = pt.sigmoid(y - pt.log(K - 1 - k))
rem = pt.concatenate([pt.ones(1), pt.cumprod(1 - zs)])
simplex = pt.concatenate([zs, pt.ones(1)]) * rem
logdet = (pt.log(zs) + pt.log1p(-zs)).sum() + pt.log(rem[:-1]).sum()
dir_logp = pt.gammaln(alpha.sum()) - pt.gammaln(alpha).sum() + ((alpha - 1) * pt.log(simplex)).sum() + logdet
ordered = pt.concatenate([u[:1], u[:1] + pt.cumsum(pt.exp(u[1:]))])
szero = pt.concatenate([u, -u.sum(keepdims=True)])
inputs = [y, alpha, u]
outputs = [simplex, dir_logp, pytensor.grad(dir_logp, y), pytensor.grad(dir_logp, alpha), ordered,
           pytensor.grad((ordered ** 2).sum(), u), szero]
values = {"y": np.array([0.3, -0.2, 1.0, 0.1]), "alpha": np.array([1.5, 2.0, 0.7, 3.0, 1.1]), "u": np.array([-1.0, 0.2, 0.5])}
# The gradient in alpha reads PyTensor's C psi, whose coefficients agree with scipy to ~1e-10.
reference_rtol = {3: 1e-8}
