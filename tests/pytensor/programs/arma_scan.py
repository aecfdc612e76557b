"""ARMA(1,1) innovations computed recursively with scan, their conditional log-likelihood and its gradient."""
import numpy as np
import pytensor
import pytensor.tensor as pt

y = pt.vector("y", shape=(30,))
phi = pt.scalar("phi")
theta = pt.scalar("theta")
mu = pt.scalar("mu")
log_sigma = pt.scalar("log_sigma")


def arma_step(y_t, y_tm1, err_tm1, phi, theta, mu):
    pred = mu + phi * (y_tm1 - mu) + theta * err_tm1
    return y_t - pred


errs, _ = pytensor.scan(arma_step, sequences=[dict(input=y, taps=[0, -1])],
                        outputs_info=[pt.zeros(())], non_sequences=[phi, theta, mu])
sigma = pt.exp(log_sigma)
loglike = -0.5 * pt.sum(errs**2) / sigma**2 - errs.shape[0] * log_sigma
grads = pytensor.grad(loglike, [phi, theta, mu, log_sigma])

inputs = [y, phi, theta, mu, log_sigma]
outputs = [loglike, errs, *grads]

rng = np.random.default_rng(25)
_e = rng.normal(size=31) * 0.5
_y = np.zeros(30)
for t in range(1, 30):
    _y[t] = 1.0 + 0.5 * (_y[t - 1] - 1.0) + 0.3 * _e[t - 1] + _e[t]
values = {"y": _y, "phi": np.array(0.4), "theta": np.array(0.2), "mu": np.array(0.9), "log_sigma": np.array(-0.6)}
