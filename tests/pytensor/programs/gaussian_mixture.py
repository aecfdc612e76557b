"""A one-dimensional Gaussian mixture: log-likelihood with logsumexp, responsibilities and gradients."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x = pt.vector("x", shape=(80,))
log_w = pt.vector("log_w", shape=(3,))
means = pt.vector("means", shape=(3,))
log_sd = pt.vector("log_sd", shape=(3,))

sd = pt.exp(log_sd)
log_norm_w = log_w - pt.logsumexp(log_w)
comp = -0.5 * ((x[:, None] - means[None, :]) / sd) ** 2 - log_sd - 0.5 * np.log(2 * np.pi)
joint = comp + log_norm_w
ll = pt.logsumexp(joint, axis=1)
resp = pt.exp(joint - ll[:, None])
total = ll.sum()
grads = pytensor.grad(total, [log_w, means, log_sd])

inputs = [x, log_w, means, log_sd]
outputs = [total, resp, *grads]

rng = np.random.default_rng(17)
values = {
    "x": np.concatenate([rng.normal(-2, 0.5, 30), rng.normal(1, 1.0, 50)]),
    "log_w": np.log([0.3, 0.5, 0.2]),
    "means": np.array([-1.5, 0.0, 2.0]),
    "log_sd": np.array([-0.5, 0.0, 0.2]),
}
