"""float32 through transcendental and special functions, as a float32 model computes them: exp,
log1p, expm1, tanh, sigmoid, softplus, erf, erfc, erfcx, erfinv, gammaln, psi, gamma, i0, i1, j0,
the log of a Gamma density and a Student-t density, softmax and logsumexp, with their gradients;
and int16 and uint8 inputs that upgrade to float32."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x = pt.vector("x", shape=(9,), dtype="float32")
p = pt.vector("p", shape=(9,), dtype="float32")
k = pt.vector("k", shape=(9,), dtype="int16")
u = pt.vector("u", shape=(9,), dtype="uint8")

alpha = pt.constant(np.float32(2.5))
gamma_logp = alpha * pt.log(p) - pt.gammaln(alpha) + (alpha - 1) * pt.log(x**2 + 1) - (x**2 + 1) * p
nu = pt.constant(np.float32(4.0))
t_logp = pt.gammaln((nu + 1) / 2) - pt.gammaln(nu / 2) - 0.5 * pt.log(nu * np.float32(np.pi)) - (nu + 1) / 2 * pt.log1p(x**2 / nu)
outputs = [
    pt.exp(x), pt.log1p(p), pt.expm1(x), pt.tanh(x), pt.sigmoid(x), pt.softplus(x), pt.erf(x), pt.erfc(x),
    pt.erfcx(pt.abs(x)), pt.erfinv(p * 2 - 1), pt.gammaln(p * 10), pt.psi(p * 10), pt.gamma(p * 5), pt.i0(x), pt.i1(x),
    pt.j0(x), gamma_logp, t_logp, pt.special.softmax(x), pt.logsumexp(x), pt.exp(k), pt.sqrt(u), pt.gammaln(u + 1),
    pytensor.grad(pt.sum(gamma_logp + t_logp) + pt.logsumexp(x), [x, p])[0],
]
inputs = [x, p, k, u]
values = {
    "x": np.array([-30.0, -5.0, -1.0, -0.1, 0.0, 0.3, 1.0, 4.0, 20.0], dtype="float32"),
    "p": np.array([0.01, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 0.99], dtype="float32"),
    "k": np.array([-3, -1, 0, 1, 2, 3, 5, 8, 10], dtype="int16"),
    "u": np.array([0, 1, 2, 3, 10, 50, 100, 200, 255], dtype="uint8"),
}
