"""A zero-inflated Poisson and a two-component Poisson mixture: log-likelihoods with gammaln and logaddexp."""
import numpy as np
import pytensor
import pytensor.tensor as pt

counts = pt.vector("counts", shape=(50,), dtype="int64")
log_rate = pt.vector("log_rate", shape=(2,))
logit_w = pt.scalar("logit_w")
logit_zero = pt.scalar("logit_zero")

k = counts.astype("float64")
rates = pt.exp(log_rate)
pois = k[:, None] * log_rate[None, :] - rates[None, :] - pt.gammaln(k + 1)[:, None]
w = pt.sigmoid(logit_w)
mix = pt.logaddexp(pt.log(w) + pois[:, 0], pt.log1p(-w) + pois[:, 1])
pi = pt.sigmoid(logit_zero)
zip_ll = pt.switch(pt.eq(counts, 0), pt.log(pi + (1 - pi) * pt.exp(-rates[0])), pt.log1p(-pi) + pois[:, 0])
total = mix.sum() + zip_ll.sum()
grads = pytensor.grad(total, [log_rate, logit_w, logit_zero])

inputs = [counts, log_rate, logit_w, logit_zero]
outputs = [total, mix, zip_ll, *grads]

rng = np.random.default_rng(26)
_c = np.where(rng.uniform(size=50) < 0.4, rng.poisson(1.0, 50), rng.poisson(6.0, 50))
_c[rng.uniform(size=50) < 0.15] = 0
values = {"counts": _c, "log_rate": np.log([1.2, 5.5]), "logit_w": np.array(-0.3), "logit_zero": np.array(-1.5)}
