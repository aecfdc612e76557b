"""A PyMC-style hierarchical model whose data live in shared variables (pm.Data / pm.MutableData)
and in large NumPy constants baked into the graph: non-centred group effects gathered by a shared
int index, a negative-binomial likelihood on shared counts, a log-link with an offset constant, and
the gradient in the free parameters."""
import numpy as np
import pytensor
import pytensor.tensor as pt

rng = np.random.default_rng(29)
N, G = 40, 6
_grp = rng.integers(0, G, size=N)
_x = rng.normal(size=N)
_offset = np.log(rng.uniform(0.5, 2.0, size=N))
_y = rng.negative_binomial(5, 5 / (5 + np.exp(0.4 + 0.3 * _x + _offset)))

x_sh = pytensor.shared(_x, name="x_data")
grp_sh = pytensor.shared(_grp.astype("int64"), name="grp_idx")
y_sh = pytensor.shared(_y.astype("float64"), name="y_obs")
offset = pt.constant(_offset, name="offset")

mu0 = pt.scalar("mu0")
beta = pt.scalar("beta")
z = pt.vector("z", shape=(G,))
log_tau = pt.scalar("log_tau")
log_alpha = pt.scalar("log_alpha")

tau = pt.exp(log_tau)
alpha = pt.exp(log_alpha)
eta = mu0 + tau * z[grp_sh] + beta * x_sh + offset
mu = pt.exp(eta)
ll = pt.sum(pt.gammaln(y_sh + alpha) - pt.gammaln(alpha) - pt.gammaln(y_sh + 1)
            + alpha * (log_alpha - pt.log(alpha + mu)) + y_sh * (eta - pt.log(alpha + mu)))
lp = ll - 0.5 * pt.sum(z ** 2) - 0.5 * mu0 ** 2 - 0.5 * beta ** 2 + (log_tau - tau) + (log_alpha - 0.1 * alpha)
grads = pytensor.grad(lp, [mu0, beta, z, log_tau, log_alpha])

inputs = [mu0, beta, z, log_tau, log_alpha]
outputs = [lp, *grads, mu[:5]]

values = {"mu0": 0.3, "beta": 0.2, "z": rng.normal(size=G) * 0.5, "log_tau": np.log(0.4),
          "log_alpha": np.log(4.0)}
reference_rtol = {5: 1e-8}
