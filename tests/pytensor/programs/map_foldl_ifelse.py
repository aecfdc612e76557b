"""Functional loops as users write them: pytensor.map of a per-row normalisation, pytensor.foldl of a
running log-sum-exp, pytensor.reduce of a maximum, and a scan whose step chooses between two updates
with ifelse on a scalar condition (a thresholded leaky integrator), plus the gradient through the map
and the ifelse scan."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.ifelse import ifelse

M = pt.matrix("M", shape=(6, 4))
u = pt.vector("u", shape=(12,))
leak = pt.scalar("leak")
thr = pt.scalar("thr")

normed, _ = pytensor.map(lambda row: (row - row.mean()) / pt.sqrt(pt.mean((row - row.mean()) ** 2) + 1e-3),
                         sequences=M)
lse, _ = pytensor.foldl(lambda x, acc: pt.logaddexp(acc, x), sequences=u, outputs_info=pt.as_tensor(np.array(-np.inf)))
mx, _ = pytensor.reduce(lambda x, acc: pt.maximum(acc, x), sequences=u, outputs_info=u[0])


def integ(inp, v, leak, thr):
    nv = leak * v + inp
    return ifelse(pt.gt(nv, thr), nv - thr, nv)


vs, _ = pytensor.scan(integ, sequences=u, outputs_info=pt.zeros(()), non_sequences=[leak, thr])
loss = pt.sum(normed ** 3) + pt.sum(vs ** 2)
gM, gu, gleak = pytensor.grad(loss, [M, u, leak])

inputs = [M, u, leak, thr]
outputs = [normed, lse, mx, vs, loss, gM, gu, gleak]

rng = np.random.default_rng(37)
values = {"M": rng.normal(size=(6, 4)), "u": rng.uniform(0, 1, size=12), "leak": 0.8, "thr": 1.3}
