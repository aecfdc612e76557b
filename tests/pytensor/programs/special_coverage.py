"""Special functions a model may reach for beyond the common ones: polygamma, inverse
incomplete gamma and beta, erfinv/erfcinv, Owen's T, Bessel j0/j1/jv/kv, log1pexp and
logit, with gradients where PyTensor has them."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.tensor import special as s

x = pt.vector("x", shape=(4,))
p = pt.vector("p", shape=(4,))
a = pt.vector("a", shape=(4,))

outs = [pt.polygamma(2, a), pt.gammaincinv(a, p), pt.gammainccinv(a, p), pt.betaincinv(a, a + 1.0, p), pt.erfinv(p * 2 - 1),
        pt.erfcinv(p), pt.owens_t(x, a), pt.j0(x), pt.j1(x), pt.jv(a, x), pt.kv(a, pt.abs(x) + 0.1),
        pt.log1pexp(x * 20), s.logit(p)]
cost = sum(o.sum() for o in [pt.polygamma(1, a), pt.owens_t(x, a), pt.j1(x), pt.log1pexp(x), pt.erfinv(p)])
inputs = [x, p, a]
outputs = outs + list(pytensor.grad(cost, [x, p, a]))
values = {"x": np.array([-1.3, 0.2, 0.9, 2.5]), "p": np.array([0.05, 0.3, 0.6, 0.97]), "a": np.array([0.7, 1.5, 3.0, 6.0])}
