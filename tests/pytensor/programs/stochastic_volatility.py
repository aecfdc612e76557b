"""A non-centred stochastic-volatility model: log-volatility AR(1) built with scan from standard
innovations, the returns' Gaussian log-likelihood, priors on transformed parameters, and the
gradient a NUTS sampler needs (through the scan)."""
import numpy as np
import pytensor
import pytensor.tensor as pt

T = 30
y = pt.vector("y", shape=(T,))
eps = pt.vector("eps", shape=(T,))
mu = pt.scalar("mu")
phi_raw = pt.scalar("phi_raw")
log_sigma = pt.scalar("log_sigma")

phi = pt.tanh(phi_raw)
sigma = pt.exp(log_sigma)
h0 = mu + sigma / pt.sqrt(1 - phi ** 2) * eps[0]


def step(e, h_prev, mu, phi, sigma):
    return mu + phi * (h_prev - mu) + sigma * e


hs, _ = pytensor.scan(step, sequences=eps[1:], outputs_info=h0, non_sequences=[mu, phi, sigma])
h = pt.concatenate([h0[None], hs])
loglik = pt.sum(-0.5 * np.log(2 * np.pi) - 0.5 * h - 0.5 * y ** 2 * pt.exp(-h))
logprior = (-0.5 * pt.sum(eps ** 2) - 0.5 * mu ** 2 / 4.0
            + pt.log1p(-phi ** 2) + (19.0 * pt.log1p(phi) + 0.5 * pt.log1p(-phi))
            - sigma + log_sigma)
logp = loglik + logprior
grads = pytensor.grad(logp, [mu, phi_raw, log_sigma, eps])

inputs = [y, eps, mu, phi_raw, log_sigma]
outputs = [logp, h, *grads]

rng = np.random.default_rng(101)
values = {"y": rng.normal(size=T) * 0.8, "eps": rng.normal(size=T) * 0.5, "mu": -0.3,
          "phi_raw": 1.2, "log_sigma": -1.0}
