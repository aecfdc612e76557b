"""Loop lengths read off the traces: the last value of a recurrence and its trace's length,
and a second loop whose n_steps is the first trace's length (xs.shape[0])."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x0 = pt.vector("x0", shape=(3,))
g0 = pt.vector("g0", shape=(2,))
xs, _ = pytensor.scan(lambda x: x * 0.5 + 1, outputs_info=[x0], n_steps=10)
gs, _ = pytensor.scan(lambda g: g * g * 0.25 - 1, outputs_info=[g0], n_steps=xs.shape[0])
inputs = [x0, g0]
outputs = [xs[-1], xs.shape[0], gs[-3:], xs[-2:]]
values = {"x0": np.array([0.0, 1.0, -4.0]), "g0": np.array([0.5, -1.5])}
