"""Reads of a loop's trace through nested slices: the last four rows of the trace without its
initial rows, one row from the end of a slice, and every second row of the last six."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x0 = pt.vector("x0", shape=(3,))
w = pt.vector("w", shape=(3,))

xs, _ = pytensor.scan(lambda x, w: pt.tanh(x * w + 0.1), outputs_info=[x0], non_sequences=[w], n_steps=15)
ys, _ = pytensor.scan(lambda y_tm3, y_tm1, w: y_tm1 * 0.5 + y_tm3 * w, outputs_info=[dict(initial=pt.stack([x0, x0 * 2, x0 * 3]), taps=[-3, -1])],
                      non_sequences=[w], n_steps=10)

inputs = [x0, w]
outputs = [xs[-4:][1:], xs[:-1][-1], ys[-6:][::2], ys[-2]]

values = {"x0": np.array([0.3, -0.4, 0.5]), "w": np.array([0.9, 1.1, -0.7])}
