"""Jacobians and Hessians with pytensor.gradient: the scan-based (vectorize=False) and vectorized
forms of the Jacobian of a vector function and the Hessian of a log-density, a Jacobian of a
matrix-valued function, and a Hessian-based Laplace log-determinant."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.gradient import jacobian, hessian

x = pt.vector("x", shape=(4,))
W = pt.matrix("W", shape=(3, 4))

f = pt.tanh(W @ x) * pt.exp(-x[:3] ** 2)
J_scan = jacobian(f, x)
J_vec = jacobian(f, x, vectorize=True)
logp = -0.5 * (x ** 2).sum() - pt.log1pexp(W @ x).sum() + pt.sum(pt.sin(x) * x[::-1])
H_scan = hessian(logp, x)
J_mat = jacobian(pt.outer(x, x[:2]).ravel(), x, vectorize=True)
J_W = jacobian(f, W)
laplace = pt.linalg.slogdet(-H_scan + 3 * pt.eye(4))[1]
J_list = jacobian(f, [x, W], vectorize=True)

inputs = [x, W]
outputs = [J_scan, J_vec, H_scan, J_mat, J_W, laplace, *J_list]

rng = np.random.default_rng(114)
values = {"x": rng.normal(size=4), "W": rng.normal(size=(3, 4)) * 0.7}
