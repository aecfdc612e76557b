"""A model left with a debugging Print in its graph (pytensor.printing.Print of an intermediate,
attrs shape and sum), whose value flows into the log-density and its gradient."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.printing import Print

x = pt.vector("x", shape=(6,))
mu = pt.scalar("mu")
resid = Print("resid", attrs=("shape", "sum"))(x - mu)
logp = -0.5 * (resid ** 2).sum()
g = pytensor.grad(logp, mu)
inputs = [x, mu]
outputs = [logp, g]
values = {"x": np.linspace(-1, 1, 6), "mu": np.array(0.25)}
