"""A GRU cell unrolled over a sequence with scan; the last state feeds a logistic readout."""
import numpy as np
import pytensor
import pytensor.tensor as pt

xs = pt.matrix("xs", shape=(10, 4))
h0 = pt.vector("h0", shape=(6,))
Wz, Wr, Wh = (pt.matrix(n, shape=(4, 6)) for n in ("Wz", "Wr", "Wh"))
Uz, Ur, Uh = (pt.matrix(n, shape=(6, 6)) for n in ("Uz", "Ur", "Uh"))


def gru_step(x, h, Wz, Wr, Wh, Uz, Ur, Uh):
    z = pt.sigmoid(x @ Wz + h @ Uz)
    r = pt.sigmoid(x @ Wr + h @ Ur)
    h_tilde = pt.tanh(x @ Wh + (r * h) @ Uh)
    return (1 - z) * h + z * h_tilde


hs, _ = pytensor.scan(gru_step, sequences=xs, outputs_info=h0, non_sequences=[Wz, Wr, Wh, Uz, Ur, Uh])
p_last = pt.sigmoid(hs[-1].sum())

inputs = [xs, h0, Wz, Wr, Wh, Uz, Ur, Uh]
outputs = [hs, p_last]

rng = np.random.default_rng(14)
values = {"xs": rng.normal(size=(10, 4)), "h0": np.zeros(6)}
for n in ("Wz", "Wr", "Wh"):
    values[n] = rng.normal(size=(4, 6)) * 0.4
for n in ("Uz", "Ur", "Uh"):
    values[n] = rng.normal(size=(6, 6)) * 0.3
