"""Indexing at its edges: negative indices and steps, slices past the ends and empty slices,
a boolean mask that selects nothing, advanced indices repeated in inc_subtensor (each adds) and in
set_subtensor (the last wins), take with negative indices, integer indices of int8 and uint8
dtype, x[::-1] of a length-0 vector, and the gradients through them."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x = pt.vector("x", shape=(6,))
M = pt.matrix("M", shape=(4, 5))
idx = pt.vector("idx", shape=(5,), dtype="int64")
i8 = pt.vector("i8", shape=(3,), dtype="int8")
u8 = pt.vector("u8", shape=(3,), dtype="uint8")
e = pt.vector("e", shape=(None,))

outputs = [
    x[-1], x[-6], x[::-2], x[-2:1:-1], x[10:], x[2:2], x[-100:100], x[x > 100], M[-1, ::-1], M[:, -2:],
    M[idx[:3] % 4], M[:, idx % 5], pt.inc_subtensor(x[idx], 1.0), pt.set_subtensor(x[idx], pt.arange(5.0)),
    pt.take(x, -idx - 1), x[i8], M[u8, i8], e[::-1], pt.sum(e), M[1:3][:, [0, -1]],
    pytensor.grad(pt.sum(x[idx] * x[::-2].sum()) + pt.sum(M[u8, i8] ** 2), [x, M])[1],
]
inputs = [x, M, idx, i8, u8, e]
values = {
    "x": np.arange(6.0) * 1.5 - 2,
    "M": np.arange(20.0).reshape(4, 5) / 3,
    "idx": np.array([0, 3, 3, -1, 5], dtype="int64"),
    "i8": np.array([-1, 0, 2], dtype="int8"),
    "u8": np.array([3, 0, 1], dtype="uint8"),
    "e": np.zeros((0,)),
}
