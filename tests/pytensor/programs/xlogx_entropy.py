"""Entropy terms with exact zeros: pytensor.tensor.xlogx's xlogx and xlogy0 (0 at x = 0, also where
y = 0), elementwise and summed. Their scalar ops (XlogX, XlogY0) are written as Elemwise nodes under
the keys "xlogx" and "xlogy0", so a tensorlens without them reports the missing scalar op by name."""
import numpy as np
import pytensor.tensor as pt
from pytensor.tensor.xlogx import xlogx, xlogy0

p = pt.vector("p", shape=(4,))
q = pt.vector("q", shape=(4,))
inputs = [p, q]
outputs = [xlogx(p), xlogy0(p, q), -xlogx(p).sum() + xlogy0(p, q).sum()]
values = {"p": np.array([0.0, 0.25, 0.5, 1.0]), "q": np.array([0.0, 0.1, 0.5, 0.3])}
