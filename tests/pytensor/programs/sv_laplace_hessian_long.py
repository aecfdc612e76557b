"""Laplace step of the stochastic-volatility model: the Hessian in (mu, phi_raw, log_sigma)
through the loop, over 12 steps (a trace of thousands of rewrites, node ids far apart)."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.gradient import hessian

T = 12
y = pt.vector("y", shape=(T,))
eps = pt.vector("eps", shape=(T,))
th = pt.vector("th", shape=(3,))
mu, phi, sigma = th[0], pt.tanh(th[1]), pt.exp(th[2])

def step(e, h_prev, mu, phi, sigma):
    return mu + phi * (h_prev - mu) + sigma * e

hs, _ = pytensor.scan(step, sequences=eps, outputs_info=mu, non_sequences=[mu, phi, sigma])
ll = pt.sum(-0.5 * hs - 0.5 * y ** 2 * pt.exp(-hs)) - 0.5 * pt.sum(th ** 2)
inputs = [y, eps, th]
outputs = [hessian(ll, th)]
rng = np.random.default_rng(1)
values = {"y": rng.normal(size=T) * 0.8, "eps": rng.normal(size=T) * 0.5, "th": np.array([-0.3, 1.2, -1.0])}
