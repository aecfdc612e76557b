"""Gradients of special functions as likelihoods need them: erfcx, erfinv, erfcinv, owens_t (in x
and a), betaln, log1mexp, softplus, xlogy0, i0, i1, iv (in x), ive (in x), jv (in x), kve, gammaln's
second derivative (trigamma), digamma's derivative (polygamma 1) and third derivative of gammaln
(polygamma 2), through grad and a Hessian."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.tensor.special import betaln
from pytensor.tensor.xlogx import xlogy0

x = pt.vector("x", shape=(5,))
p = pt.vector("p", shape=(5,))
a = pt.scalar("a")
nu = pt.scalar("nu")

f = (pt.erfcx(x) + pt.erfinv(p * 2 - 1) + pt.erfcinv(p) + pt.owens_t(x, a) + betaln(x, a) + pt.log1mexp(-x)
     + pt.softplus(-x) + xlogy0(p, x) + pt.i0(x) + pt.i1(x) + pt.iv(nu, x) + pt.ive(nu, x) + pt.jv(nu, x)
     + pt.kve(nu, x)).sum()
gx, gp, ga = pytensor.grad(f, [x, p, a])
lg = pt.gammaln(x * a).sum()
h = pytensor.grad(pytensor.grad(lg, a), a)
d3 = pytensor.grad(pytensor.grad(pytensor.grad(pt.gammaln(a), a), a), a)
inputs = [x, p, a, nu]
outputs = [f, gx, gp, ga, h, d3]
values = {"x": np.array([0.3, 0.9, 1.7, 3.2, 6.0]), "p": np.array([0.05, 0.2, 0.5, 0.71, 0.93]),
          "a": np.array(1.4), "nu": np.array(1.5)}
reference_rtol = {3: 1e-8, 4: 1e-8, 5: 1e-7}
