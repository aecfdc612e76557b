"""Backpropagation through time: pytensor.grad of an RNN's sequence loss through scan."""
import numpy as np
import pytensor
import pytensor.tensor as pt

xs = pt.matrix("xs", shape=(8, 2))
targets = pt.vector("targets", shape=(8,))
h0 = pt.vector("h0", shape=(4,))
W = pt.matrix("W", shape=(2, 4))
U = pt.matrix("U", shape=(4, 4))
v = pt.vector("v", shape=(4,))

hs, _ = pytensor.scan(lambda x, h, W, U: pt.tanh(pt.dot(x, W) + pt.dot(h, U)),
                      sequences=xs, outputs_info=h0, non_sequences=[W, U])
loss = pt.mean((hs @ v - targets) ** 2)
gW, gU, gv, gh0 = pytensor.grad(loss, [W, U, v, h0])

inputs = [xs, targets, h0, W, U, v]
outputs = [loss, gW, gU, gv, gh0]

rng = np.random.default_rng(33)
values = {"xs": rng.normal(size=(8, 2)), "targets": np.sin(np.arange(8) / 2.0), "h0": np.zeros(4),
          "W": rng.normal(size=(2, 4)) * 0.5, "U": rng.normal(size=(4, 4)) * 0.4, "v": rng.normal(size=4)}
