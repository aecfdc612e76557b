"""Gathers as categorical models do them: take with and without axis (negative indices, a matrix
of indices), take_along_axis, a one-hot by indexing eye, gathers of a gather, and the
gradients through these (AdvancedIncSubtensor with repeated indices)."""
import numpy as np
import pytensor
import pytensor.tensor as pt

P = pt.matrix("P", shape=(5, 4))
idx = pt.vector("idx", shape=(7,), dtype="int64")
I2 = pt.matrix("I2", shape=(2, 3), dtype="int64")
cols = pt.matrix("cols", shape=(5, 2), dtype="int64")
y = pt.vector("y", shape=(5,), dtype="int32")

t0 = pt.take(P, idx, axis=0)
t1 = pt.take(P, idx[[0, 2, 3]], axis=1)
tn = pt.take(P, I2)                       # flattened
tm = pt.take(P, I2 % 5, axis=0)              # (2, 3, 4)
ta = pt.take_along_axis(P, cols, axis=1)
oh = pt.eye(4)[y]
picked = (pt.log(pt.special.softmax(P, axis=1)) * oh).sum(axis=1)
gg = P[idx][idx[:3]]
diag_pick = P[pt.arange(4), pt.arange(4)[::-1]]
loss = (t0 ** 2).sum() + t1.sum() + (tn * 2).sum() + tm.mean() + (ta ** 3).sum() + picked.sum() + gg.sum() + diag_pick.sum()
gP = pytensor.grad(loss, P)

inputs = [P, idx, I2, cols, y]
outputs = [t0, t1, tn, tm, ta, oh, picked, gg, diag_pick, gP]

rng = np.random.default_rng(120)
values = {"P": rng.normal(size=(5, 4)), "idx": np.array([0, 4, -1, 2, 2, -5, 3]),
          "I2": np.array([[0, 19, 7], [-1, 7, 3]]), "cols": np.array([[0, 3], [1, 1], [3, 2], [-1, 0], [2, 2]]),
          "y": np.array([3, 0, 0, 1, 2], dtype="int32")}
