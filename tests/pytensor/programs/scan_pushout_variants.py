"""Loop bodies with work that does not depend on the step: a non-sequence's exp and a
matrix product of non-sequences (scan_pushout_non_seq_ops), an elementwise map over a
sequence feeding a state (scan_pushout_seq_ops), and a nit_sot that only reads its
sequence (pushed out whole), beside a state that must stay in the loop."""
import numpy as np
import pytensor
import pytensor.tensor as pt

xs = pt.matrix("xs", shape=(6, 3))
W = pt.matrix("W", shape=(3, 3))
b = pt.vector("b", shape=(3,))
h0 = pt.vector("h0", shape=(3,))


def step(x, h, W, b):
    gain = pt.exp(b) * 0.5
    M = W @ W.T
    return pt.tanh(M @ h * gain + pt.log1p(x ** 2)), x * 2.0 + b


hs, side = pytensor.scan(step, sequences=[xs], outputs_info=[h0, None], non_sequences=[W, b])[0]

inputs = [xs, W, b, h0]
outputs = [hs[-1], side, hs]
values = {"xs": np.linspace(-1, 1, 18).reshape(6, 3), "W": np.array([[0.3, -0.1, 0.2], [0.0, 0.4, -0.3], [0.1, 0.1, 0.1]]),
          "b": np.array([0.1, -0.2, 0.3]), "h0": np.array([0.0, 0.5, -0.5])}
