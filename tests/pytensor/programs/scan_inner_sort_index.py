"""A scan whose step sorts, ranks and scatters: per step the state is sorted, the two largest entries
are read through argsort, an inc_subtensor with repeated indices adds the step's input, an int64
nit_sot records the argmax; n_steps given as 0 in a second loop (an empty trace); and the gradient
through the sort and the scatter."""
import numpy as np
import pytensor
import pytensor.tensor as pt

xs = pt.matrix("xs", shape=(6, 4))
s0 = pt.vector("s0", shape=(4,))
idx = pt.vector("idx", shape=(3,), dtype="int64")
n0 = pt.scalar("n0", dtype="int64")


def step(x, s, idx):
    srt = pt.sort(s)
    top2 = s[pt.argsort(s)[-2:]].sum()
    s_new = pt.inc_subtensor(srt[idx], x[:3]) * 0.9 + top2 * 0.01
    return s_new, pt.argmax(s_new)


(ss, am), _ = pytensor.scan(step, sequences=[xs], outputs_info=[s0, None], non_sequences=[idx])
empty, _ = pytensor.scan(lambda s: s * 2, outputs_info=[s0], n_steps=n0)
loss = (ss ** 2).sum()
g = pytensor.grad(loss, [xs, s0])
inputs = [xs, s0, idx, n0]
outputs = [ss, am, empty, empty.sum(), loss, *g]
rng = np.random.default_rng(320)
values = {"xs": rng.normal(size=(6, 4)), "s0": np.array([0.3, -1.0, 2.0, 0.7]), "idx": np.array([0, 2, 0]), "n0": np.array(0)}
