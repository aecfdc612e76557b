"""max/min/argmax along axes and their gradients, including ties, keepdims, negative axes and
multiple axes; a max-pooling like read; max-margin hinge loss."""
import numpy as np
import pytensor
import pytensor.tensor as pt

T = pt.tensor3("T", shape=(3, 4, 2))
M = pt.matrix("M", shape=(4, 5))
y = pt.vector("y", shape=(4,), dtype="int64")

m1 = pt.max(T, axis=1)
m02 = pt.max(T, axis=(0, 2))
mk = pt.max(M, axis=-1, keepdims=True)
mn = pt.min(M, axis=0)
am = pt.argmax(M, axis=1)
an = pt.argmin(T, axis=-1)
am_keep = pt.argmax(T, axis=0, keepdims=True)
mx, amx = pt.max_and_argmax(M, axis=0) if hasattr(pt, "max_and_argmax") else (pt.max(M, 0), pt.argmax(M, 0))
correct = M[pt.arange(4), y]
hinge = pt.maximum(0, 1 + pt.max(M + pt.eq(pt.arange(5)[None, :], y[:, None]) * -1e9, axis=1) - correct)
pooled = pt.max(M[:, :4].reshape((4, 2, 2)), axis=-1)
loss = (m1 ** 2).sum() + m02.sum() + (mk * M).sum() + mn.sum() + hinge.sum() + pooled.sum() + pt.max(T) + pt.min(M)
gT, gM = pytensor.grad(loss, [T, M])

inputs = [T, M, y]
outputs = [m1, m02, mk, mn, am, an, am_keep, mx, amx, hinge, pooled, gT, gM]

rng = np.random.default_rng(111)
_T = np.round(rng.normal(size=(3, 4, 2)), 1)
_T[0, 1, 0] = _T[0, 3, 0] = 5.0              # a tie along axis 1
_M = np.round(rng.normal(size=(4, 5)), 1)
_M[2, 1] = _M[2, 4] = _M[2].max() + 1.0      # a tie along axis 1
_M[0, 0] = _M[3, 0] = -4.0                   # a tie in min along axis 0
values = {"T": _T, "M": _M, "y": np.array([0, 3, 1, 4])}
