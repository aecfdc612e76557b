"""Normal and survival likelihoods through erf, erfc, erfcx, erfinv, log1mexp and log1pexp."""
import numpy as np
import pytensor.tensor as pt

x = pt.vector("x", shape=(25,))
mu = pt.scalar("mu")
sigma = pt.scalar("sigma")
q = pt.vector("q", shape=(9,))

z = (x - mu) / sigma
cdf = 0.5 * (1 + pt.erf(z / np.sqrt(2)))
log_sf = pt.log(0.5 * pt.erfc(z / np.sqrt(2)))
mills = pt.erfcx(z / np.sqrt(2))
quantiles = mu + sigma * np.sqrt(2) * pt.erfinv(2 * q - 1)
upper_quantiles = mu + sigma * np.sqrt(2) * pt.erfcinv(2 * q)
log_diff = pt.log1mexp(-pt.abs(z) - 0.1)
softplus = pt.log1pexp(z)

inputs = [x, mu, sigma, q]
outputs = [cdf, log_sf.sum(), mills, quantiles, upper_quantiles, log_diff, softplus]

rng = np.random.default_rng(19)
values = {
    "x": rng.normal(0.5, 2.0, size=25),
    "mu": np.array(0.4),
    "sigma": np.array(1.7),
    "q": np.linspace(0.05, 0.95, 9),
}
