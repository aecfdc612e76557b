"""Scan outputs that alias their inputs: a step that returns a non-sequence unchanged (a nit_sot
copy), a sit_sot that returns its state unchanged, the initial state also returned as a graph output
and modified elsewhere with set_subtensor, and a state updated with set_subtensor in the step."""
import numpy as np
import pytensor
import pytensor.tensor as pt

xs = pt.vector("xs", shape=(5,))
s0 = pt.vector("s0", shape=(3,))
w = pt.vector("w", shape=(3,))


def step(x, s, keep, w):
    s_new = pt.set_subtensor(s[0], s[0] + x)
    return s_new, keep, w


(ss, keeps, ws), _ = pytensor.scan(step, sequences=[xs], outputs_info=[s0, s0, None], non_sequences=[w])
mod = pt.set_subtensor(s0[1], -1.0)
inputs = [xs, s0, w]
outputs = [ss, keeps, ws, s0, mod, ss[-1] + mod]
values = {"xs": np.arange(5.0), "s0": np.array([0.5, 1.5, 2.5]), "w": np.array([-1.0, 0.0, 1.0])}
