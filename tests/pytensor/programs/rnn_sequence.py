"""An Elman RNN over a sequence (scan): hidden states and a readout."""
import numpy as np
import pytensor
import pytensor.tensor as pt

xs = pt.matrix("xs", shape=(12, 3))
h0 = pt.vector("h0", shape=(5,))
W_in = pt.matrix("W_in", shape=(3, 5))
W_rec = pt.matrix("W_rec", shape=(5, 5))
w_out = pt.vector("w_out", shape=(5,))


def step(x_t, h_prev, W_in, W_rec):
    return pt.tanh(x_t @ W_in + h_prev @ W_rec)


hs, _ = pytensor.scan(step, sequences=[xs], outputs_info=[h0], non_sequences=[W_in, W_rec])
readout = hs @ w_out

inputs = [xs, h0, W_in, W_rec, w_out]
outputs = [hs, readout, readout[-1]]

rng = np.random.default_rng(13)
values = {
    "xs": rng.normal(size=(12, 3)),
    "h0": np.zeros(5),
    "W_in": rng.normal(size=(3, 5)) * 0.5,
    "W_rec": rng.normal(size=(5, 5)) * 0.3,
    "w_out": rng.normal(size=5),
}
