"""A stochastic-volatility log-likelihood and its Hessian through the loop: PyTensor's compiled
graph merges the two loops' duplicate states and overwrites their traces in place."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.gradient import hessian

y = pt.vector("y", shape=(4,))
eps = pt.vector("eps", shape=(4,))
th = pt.vector("th", shape=(3,))
mu, phi, sigma = th[0], pt.tanh(th[1]), th[2]
hs, _ = pytensor.scan(lambda e, h, mu, phi, sigma: mu + phi * (h - mu) + sigma * e, sequences=eps, outputs_info=mu, non_sequences=[mu, phi, sigma])
ll = pt.sum(-0.5 * hs - 0.5 * y ** 2 * pt.exp(-hs))
inputs = [y, eps, th]
outputs = [hessian(ll, th)]
values = {"y": np.array([0.5, -1.0, 0.3, 0.8]), "eps": np.array([0.1, -0.4, 0.2, 0.5]), "th": np.array([-0.3, 0.8, 0.4])}
