"""A while loop over a sequence with a state and a per-row map (2 * exp(x_t)): the loop stops
once the running sum passes 3, so the map has a row per step that ran, not per row of the
sequence. Its last row, how many rows it has, and the state's last value."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.scan.utils import until

xs = pt.matrix("xs", shape=(10, 2))
s0 = pt.vector("s0", shape=(2,))


def step(x_t, s):
    s_new = s + x_t
    return [s_new, pt.exp(x_t) * 2], until(pt.sum(s_new) > 3)


(ss, ys), _ = pytensor.scan(step, sequences=[xs], outputs_info=[s0, None])
inputs = [xs, s0]
outputs = [ys, ys[-1], ys.shape[0], ss[-1]]
values = {"xs": np.array([[0.5, 0.1], [0.2, 0.3], [-0.1, 0.4], [0.6, 0.2], [0.3, 0.3],
                          [0.9, 0.1], [0.2, 0.2], [0.1, 0.1], [0.4, 0.4], [0.5, 0.5]]),
          "s0": np.array([0.0, 0.25])}
