"""Von Mises and Rice log-densities and Bessel functions of integer and real order."""
import numpy as np
import pytensor.tensor as pt

theta = pt.vector("theta", shape=(30,))
mu = pt.scalar("mu")
kappa = pt.scalar("kappa")
r = pt.vector("r", shape=(12,))
nu = pt.scalar("nu")

von_mises = kappa * pt.cos(theta - mu) - np.log(2 * np.pi) - pt.log(pt.i0(kappa))
mean_resultant = pt.i1(kappa) / pt.i0(kappa)
rice = pt.log(r) - r**2 / 2 - 0.5 + pt.log(pt.ive(0, r)) + r
bessel = [pt.iv(nu, r), pt.jv(nu, r), pt.j0(r), pt.j1(r), pt.kve(nu, r)]

inputs = [theta, mu, kappa, r, nu]
outputs = [von_mises.sum(), mean_resultant, rice, *bessel]

rng = np.random.default_rng(20)
values = {
    "theta": rng.vonmises(0.3, 2.0, size=30),
    "mu": np.array(0.25),
    "kappa": np.array(2.2),
    "r": rng.uniform(0.1, 4.0, size=12),
    "nu": np.array(1.5),
}
