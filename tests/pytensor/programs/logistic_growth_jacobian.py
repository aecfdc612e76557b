"""Jacobian (scan-based and vectorized) of a logistic-growth trajectory in its parameters."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.gradient import jacobian

p = pt.vector("p", shape=(2,))
x0 = pt.scalar("x0")
r, K = pt.exp(p[0]), pt.exp(p[1])
xs, _ = pytensor.scan(lambda x, r, K: x + 0.1 * r * x * (1 - x / K), outputs_info=x0, non_sequences=[r, K], n_steps=10)
inputs = [p, x0]
outputs = [xs, jacobian(xs, p, vectorize=False), jacobian(pt.log(xs[-3:]), p, vectorize=True)]
values = {"p": np.array([0.2, 1.5]), "x0": 0.5}
