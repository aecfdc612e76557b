"""A censored normal regression with PyMC's numerically stable normal_lcdf / normal_lccdf (erfcx in
the lower tail, log1p(-erfc/2) elsewhere, chosen by switch), left- and right-censored rows, and the
gradient in the weights and log sigma."""
import numpy as np
import pytensor
import pytensor.tensor as pt

X = pt.matrix("X", shape=(8, 2))
y = pt.vector("y", shape=(8,))
cens = pt.vector("cens", shape=(8,), dtype="int64")   # -1 left, 0 observed, 1 right
w = pt.vector("w", shape=(2,))
log_s = pt.scalar("log_s")


def normal_lcdf(mu, sigma, x):
    z = (x - mu) / sigma
    return pt.switch(pt.lt(z, -1.0), pt.log(pt.erfcx(-z / np.sqrt(2.0)) / 2.0) - pt.sqr(z) / 2.0,
                     pt.log1p(-pt.erfc(z / np.sqrt(2.0)) / 2.0))


def normal_lccdf(mu, sigma, x):
    z = (x - mu) / sigma
    return pt.switch(pt.gt(z, 1.0), pt.log(pt.erfcx(z / np.sqrt(2.0)) / 2.0) - pt.sqr(z) / 2.0,
                     pt.log1p(-pt.erfc(-z / np.sqrt(2.0)) / 2.0))


mu = X @ w
s = pt.exp(log_s)
obs = -0.5 * ((y - mu) / s) ** 2 - log_s - 0.5 * np.log(2 * np.pi)
lp = pt.switch(pt.eq(cens, -1), normal_lcdf(mu, s, y), pt.switch(pt.eq(cens, 1), normal_lccdf(mu, s, y), obs))
total = lp.sum()
g = pytensor.grad(total, [w, log_s])
inputs = [X, y, cens, w, log_s]
outputs = [lp, total, *g]
values = {"X": np.column_stack([np.ones(8), np.linspace(-2, 2, 8)]), "y": np.array([-6.0, -3.0, 0.1, 0.5, -0.2, 2.0, 5.0, 1.0]),
          "cens": np.array([-1, -1, 0, 0, 0, 1, 1, 1]), "w": np.array([0.2, 0.8]), "log_s": np.array(-0.5)}
