"""A while loop with a symbolic n_steps (the length of a sequence) whose mit_sot is read only at [-1]."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.scan.utils import until

xs = pt.vector("xs")
x0 = pt.vector("x0", shape=(2,))
limit = pt.scalar("limit")


def step(x, y_tm2, y_tm1, limit):
    y = 0.5 * y_tm1 + 0.25 * y_tm2 + x
    return y, until(y > limit)


ys, _ = pytensor.scan(step, sequences=[xs], outputs_info=[dict(initial=x0, taps=[-2, -1])], non_sequences=[limit])

inputs = [xs, x0, limit]
outputs = [ys[-1]]

values = {"xs": np.linspace(0.1, 1.0, 12), "x0": np.array([0.2, 0.3]), "limit": np.array(2.5)}
