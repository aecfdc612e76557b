"""Gradients of cumulative products through exact zeros (a survival curve with a certain event):
cumprod's gradient divides by the input, so PyTensor gives NaN/inf where an entry is 0; also
prod over an axis with a zero, cumsum of a masked series and logcumsumexp via scan-free formulas."""
import numpy as np
import pytensor
import pytensor.tensor as pt

h = pt.vector("h", shape=(6,))
M = pt.matrix("M", shape=(3, 4))

surv = pt.cumprod(1 - h)
g1 = pytensor.grad(surv.sum(), h)
g2 = pytensor.grad(pt.cumprod(M, axis=1).sum(), M)
g3 = pytensor.grad(pt.prod(M, axis=0).sum(), M)
lcse = pt.log(pt.cumsum(pt.exp(h - h.max()))) + h.max()
inputs = [h, M]
outputs = [surv, g1, g2, g3, lcse, pytensor.grad(lcse.sum(), h)]
values = {"h": np.array([0.1, 0.3, 1.0, 0.2, 0.0, 0.5]),
          "M": np.array([[1.0, 0.0, 2.0, 3.0], [0.5, 1.5, 0.0, 0.0], [2.0, 1.0, 1.0, 4.0]])}
