"""A generative regression that draws its noise with pt.random (random variables stay opaque in tensorlens)."""
import numpy as np
import pytensor
import pytensor.tensor as pt

rng_var = pytensor.shared(np.random.default_rng(42), name="rng")
X = pt.matrix("X", shape=(10, 2))
beta = pt.vector("beta", shape=(2,))
sigma = pt.scalar("sigma")

mu = X @ beta
next_rng, eps = pt.random.normal(0.0, 1.0, size=(10,), rng=rng_var).owner.outputs
y_sim = mu + sigma * eps
loglike = pt.sum(-0.5 * ((y_sim - mu) / sigma) ** 2 - pt.log(sigma))

inputs = [X, beta, sigma]
outputs = [mu, y_sim, loglike]

rng = np.random.default_rng(43)
values = {"X": rng.normal(size=(10, 2)), "beta": np.array([1.0, -0.5]), "sigma": np.array(0.8)}
