"""A PyMC-style model log-density on the unconstrained space: Normal prior, HalfNormal scale (log
transform with its Jacobian), Student-t likelihood, and the gradient a sampler uses."""
import numpy as np
import pytensor
import pytensor.tensor as pt

y = pt.vector("y", shape=(35,))
x = pt.vector("x", shape=(35,))
alpha = pt.scalar("alpha")
slope = pt.scalar("slope")
log_sigma = pt.scalar("log_sigma")
log_nu = pt.scalar("log_nu")


def normal_logp(v, mu, sd):
    return -0.5 * ((v - mu) / sd) ** 2 - pt.log(sd) - 0.5 * np.log(2 * np.pi)


def student_t_logp(v, nu, mu, sd):
    z = (v - mu) / sd
    return (pt.gammaln((nu + 1) / 2) - pt.gammaln(nu / 2) - 0.5 * pt.log(nu * np.pi) - pt.log(sd)
            - (nu + 1) / 2 * pt.log1p(z**2 / nu))


sigma = pt.exp(log_sigma)
nu = pt.exp(log_nu)
logp = (normal_logp(alpha, 0, 10) + normal_logp(slope, 0, 10)
        + pt.log(2.0) + normal_logp(sigma, 0, 2) + log_sigma
        - nu / 10 + log_nu
        + student_t_logp(y, nu, alpha + slope * x, sigma).sum())
value_vars = [alpha, slope, log_sigma, log_nu]
dlogp = pytensor.grad(logp, value_vars)

inputs = [y, x, *value_vars]
outputs = [logp, pt.stack(dlogp)]

# PyTensor's C code computes psi (the gradient of gammaln) by a short asymptotic series with
# 10-digit coefficients (AS 103), which agrees with scipy (and with tensorlens, which matches
# scipy to 1e-15) to about 1e-10 relative: the gradients are compared with that tolerance.
reference_rtol = {1: 1e-8}

rng = np.random.default_rng(44)
_x = np.linspace(-2, 2, 35)
values = {"y": 1.0 + 0.7 * _x + rng.standard_t(4, size=35) * 0.4, "x": _x, "alpha": np.array(0.8),
          "slope": np.array(0.5), "log_sigma": np.array(-0.7), "log_nu": np.array(1.2)}
