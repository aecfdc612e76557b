"""pt.where / switch with broadcasting conditions and branches of different ranks and dtypes,
and the gradient through them."""
import numpy as np
import pytensor
import pytensor.tensor as pt

M = pt.matrix("M", shape=(4, 5))
row = pt.vector("row", shape=(5,))
col = pt.matrix("col", shape=(4, 1))
flags = pt.vector("flags", shape=(5,), dtype="bool")
k = pt.vector("k", shape=(4,), dtype="int32")
s = pt.scalar("s")

w1 = pt.where(flags, M, row)                     # bool row broadcast over rows
w2 = pt.where(col > 0, M, -1.0)                  # column condition, scalar branch
w3 = pt.where(pt.eq(k[:, None] % 2, 0), k[:, None], row)  # int32 branch and float64 branch
w4 = pt.switch(k, s, 2 * s)                      # an int condition (nonzero = true)
w5 = pt.where(M > row, M - row, 0) * pt.where(flags, 1, 0)
w6 = pt.switch(pt.and_(M > 0, flags), pt.log(pt.abs(M) + 1e-3), pt.exp(M))
loss = (w1**2).sum() + (w2 * col).sum() + (w5 * s).sum() + w6.sum()
grads = pytensor.grad(loss, [M, row, col, s])

inputs = [M, row, col, flags, k, s]
outputs = [w1, w2, w3, w4, w5, w6, *grads]

rng = np.random.default_rng(102)
values = {"M": rng.normal(size=(4, 5)), "row": rng.normal(size=5), "col": rng.normal(size=(4, 1)),
          "flags": np.array([True, False, True, True, False]), "k": np.array([0, 3, -2, 7], dtype="int32"),
          "s": np.array(1.7)}
