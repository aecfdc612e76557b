"""Scans as smoothers write them: go_backwards over a sequence, a symbolic n_steps shorter than
the sequence, two sequences of different lengths, a shared non-sequence vector, truncate_gradient,
and the gradient of a backward (reverse-time) recursion."""
import numpy as np
import pytensor
import pytensor.tensor as pt

obs = pt.vector("obs", shape=(10,))
w = pt.vector("w", shape=(14,))
n = pt.scalar("n", dtype="int64")
rho = pt.scalar("rho")
bias = pt.vector("bias", shape=(2,))

back, _ = pytensor.scan(lambda o, b_next, rho: rho * b_next + o, sequences=[obs],
                        outputs_info=[pt.zeros(())], non_sequences=[rho], go_backwards=True)
pair, _ = pytensor.scan(lambda o, wi, acc, bias: acc * 0.5 + pt.stack([o * wi, o + wi]) + bias,
                        sequences=[obs, w], outputs_info=[pt.zeros((2,))], non_sequences=[bias], n_steps=n)
trunc, _ = pytensor.scan(lambda o, h, rho: pt.tanh(rho * h + o), sequences=[obs],
                         outputs_info=[pt.zeros(())], non_sequences=[rho], truncate_gradient=3)
loss = (back ** 2).sum() + pair[-1].sum() + (pair ** 2).mean() + trunc.sum()
g_full = pytensor.grad((back ** 2).sum() + pair[-1].sum(), [obs, w, rho, bias])
g_trunc = pytensor.grad(trunc.sum(), [obs, rho])

inputs = [obs, w, n, rho, bias]
outputs = [back, pair, trunc, loss, *g_full, *g_trunc]

rng = np.random.default_rng(117)
values = {"obs": rng.normal(size=10), "w": rng.normal(size=14), "n": np.array(7), "rho": np.array(0.8),
          "bias": np.array([0.05, -0.1])}
