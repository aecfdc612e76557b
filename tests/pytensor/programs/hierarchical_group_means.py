"""A hierarchical normal model: group means gathered by index, its log-density and gradient."""
import numpy as np
import pytensor
import pytensor.tensor as pt

y = pt.vector("y", shape=(40,))
group = pt.vector("group", shape=(40,), dtype="int64")
mu = pt.scalar("mu")
log_tau = pt.scalar("log_tau")
theta = pt.vector("theta", shape=(8,))
sigma = pt.scalar("sigma")

tau = pt.exp(log_tau)
logp_theta = pt.sum(-0.5 * ((theta - mu) / tau) ** 2 - pt.log(tau))
logp_y = pt.sum(-0.5 * ((y - theta[group]) / sigma) ** 2) - y.shape[0] * pt.log(sigma)
logp = logp_theta + logp_y + log_tau
dlogp = pytensor.grad(logp, [mu, log_tau, theta])

inputs = [y, group, mu, log_tau, theta, sigma]
outputs = [logp, *dlogp]

rng = np.random.default_rng(16)
_group = rng.integers(0, 8, size=40)
values = {
    "y": rng.normal(size=8)[_group] + rng.normal(size=40) * 0.5,
    "group": _group,
    "mu": np.array(0.1),
    "log_tau": np.array(-0.2),
    "theta": rng.normal(size=8),
    "sigma": np.array(0.7),
}
