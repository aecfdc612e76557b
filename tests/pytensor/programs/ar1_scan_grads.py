"""A latent AR(1) process written with scan and its log-likelihood's gradients in rho,
sigma and the innovations, plus a Gaussian random walk through cumsum, as time-series
models in PyMC are written."""
import numpy as np
import pytensor
import pytensor.tensor as pt

eps = pt.vector("eps", shape=(8,))
rho = pt.scalar("rho")
sigma = pt.scalar("sigma")
obs = pt.vector("obs", shape=(8,))

xs = pytensor.scan(lambda e, x, rho, sigma: rho * x + sigma * e, sequences=[eps], outputs_info=[pt.zeros(())],
                   non_sequences=[rho, sigma])[0]
ll = -0.5 * ((obs - xs) ** 2).sum() - 0.5 * (eps ** 2).sum()
walk = pt.cumsum(eps * sigma)
ll2 = -0.5 * ((obs - walk) ** 2).sum()
inputs = [eps, rho, sigma, obs]
outputs = [ll, *pytensor.grad(ll, [rho, sigma, eps]), ll2, *pytensor.grad(ll2, [sigma, eps])]
values = {"eps": np.array([0.3, -0.5, 1.2, 0.1, -0.9, 0.4, 0.0, 0.7]), "rho": np.array(0.8), "sigma": np.array(0.6),
          "obs": np.array([0.2, -0.1, 0.9, 0.8, 0.0, 0.3, 0.1, 0.5])}
