"""A Laplace approximation of an AR(1) model whose log-likelihood is accumulated by a scan: the
gradient and the full Hessian (pytensor.gradient.hessian, second derivatives through the scan's
gradient loop) in (phi, log_sigma, c), the log-determinant of the negative Hessian and the Laplace
evidence."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.gradient import hessian

T = 15
y = pt.vector("y", shape=(T,))
theta = pt.vector("theta", shape=(3,))  # phi, log_sigma, c

phi, log_sigma, c = theta[0], theta[1], theta[2]


def step(yt, yprev, acc, phi, log_sigma, c):
    r = yt - c - phi * yprev
    return acc - 0.5 * (r * pt.exp(-log_sigma)) ** 2 - log_sigma


accs, _ = pytensor.scan(step, sequences=[y[1:], y[:-1]], outputs_info=pt.zeros(()),
                        non_sequences=[phi, log_sigma, c])
lp = accs[-1] - 0.5 * pt.sum(theta ** 2)
g = pytensor.grad(lp, theta)
Hm = hessian(lp, theta)
_, logdet = pt.linalg.slogdet(-Hm)
evidence = lp + 1.5 * np.log(2 * np.pi) - 0.5 * logdet

inputs = [y, theta]
outputs = [lp, g, Hm, evidence]

rng = np.random.default_rng(83)
_y = np.zeros(T)
for i in range(1, T):
    _y[i] = 0.5 + 0.7 * _y[i - 1] + rng.normal() * 0.4
values = {"y": _y, "theta": np.array([0.6, np.log(0.5), 0.4])}
