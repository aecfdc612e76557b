"""Circular and tail models: a von Mises log-likelihood through the scaled Bessel ive(0, .) and
its gradient, a truncated-normal log-probability through erfcx, and log1mexp."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x = pt.vector("x", shape=(5,))
mu = pt.scalar("mu")
kappa = pt.scalar("kappa")
z = pt.vector("z", shape=(5,))

vm = (kappa * (pt.cos(x - mu) - 1.0) - pt.log(2 * np.pi * pt.ive(0, kappa))).sum()
tail = pt.log(pt.erfcx(z / np.sqrt(2.0))) - z ** 2 / 2.0
l1m = pt.log1mexp(-pt.abs(z) - 0.1)
inputs = [x, mu, kappa, z]
outputs = [vm, *pytensor.grad(vm, [mu, kappa]), tail, pytensor.grad(tail.sum(), z), l1m]
values = {"x": np.array([0.1, -2.0, 3.0, 1.5, -0.7]), "mu": np.array(0.4), "kappa": np.array(2.5),
          "z": np.array([-3.0, -0.5, 0.0, 2.0, 30.0])}
