"""A long recurrence with pytensor.scan_checkpoints (gradient checkpointing: an outer scan over
segments of an inner scan) and the gradient of its loss, beside the plain scan it replaces."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.scan.checkpoints import scan_checkpoints

xs = pt.vector("xs", shape=(20,))
h0 = pt.scalar("h0")
w = pt.scalar("w")

step = lambda x, h, w: pt.tanh(w * h + x)
hs_ck, _ = scan_checkpoints(step, sequences=[xs], outputs_info=[h0], non_sequences=[w], save_every_N=5)
hs, _ = pytensor.scan(step, sequences=[xs], outputs_info=[h0], non_sequences=[w])
loss_ck = (hs_ck ** 2).sum()
g_ck = pytensor.grad(loss_ck, [w, h0, xs])
inputs = [xs, h0, w]
outputs = [hs_ck, hs, loss_ck, *g_ck]
rng = np.random.default_rng(314)
values = {"xs": rng.normal(size=20) * 0.5, "h0": np.array(0.1), "w": np.array(0.8)}
