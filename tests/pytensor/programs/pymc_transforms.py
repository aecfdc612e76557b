"""PyMC's default transforms with their log-Jacobians: ordered (x0, exp of increments, cumsum),
sum-to-zero (ZeroSumTransform-style: append and subtract a scaled mean), stick-breaking simplex,
log-odds interval (a, b) and the log-exp-m1 (softplus inverse) transform, a model log-density on the
constrained values, and its gradient and Hessian in the unconstrained vector."""
import numpy as np
import pytensor
import pytensor.tensor as pt

u = pt.vector("u", shape=(12,))
data = pt.vector("data", shape=(5,))

u_ord, u_zs, u_sb, u_iv, u_pos = u[:3], u[3:6], u[6:9], u[9:11], u[11]
ordered = pt.concatenate([u_ord[:1], u_ord[0] + pt.cumsum(pt.exp(u_ord[1:]))])
jac_ord = u_ord[1:].sum()
n = 4
zs_last = -u_zs.sum() / (np.sqrt(n) + n)
zs = pt.concatenate([u_zs + zs_last, [-(u_zs.sum() + zs_last * 3)]])  # sums to zero (not compared: its sum is roundoff)
k = 4
shift = pt.log(np.arange(k - 1, 0, -1.0))
zsb = pt.sigmoid(u_sb - shift)
rem = pt.concatenate([[1.0], pt.cumprod(1 - zsb)])
simplex = pt.concatenate([zsb, [1.0]]) * rem
jac_sb = (pt.log(zsb) + pt.log1p(-zsb) + pt.log(rem[:-1])).sum()
lo, hi = -1.0, 3.0
iv = lo + (hi - lo) * pt.sigmoid(u_iv)
jac_iv = (pt.log(hi - lo) + pt.log(pt.sigmoid(u_iv)) + pt.log1p(-pt.sigmoid(u_iv))).sum()
pos = pt.softplus(u_pos)
jac_pos = -pt.softplus(-u_pos)
logp = (-0.5 * ((data[:3] - ordered) ** 2).sum() - 0.5 * (zs ** 2).sum() + (2.0 * pt.log(simplex)).sum()
        - (iv ** 2).sum() - pos + jac_ord + jac_sb + jac_iv + jac_pos)
g = pytensor.grad(logp, u)
H = pytensor.gradient.hessian(logp, u)
inputs = [u, data]
outputs = [ordered, zs, simplex, iv, pos, logp, g, H]
rng = np.random.default_rng(327)
values = {"u": rng.normal(size=12) * 0.7, "data": np.array([-1.0, 0.3, 1.2, 0.0, 0.5])}
