"""Indexing with 2-D boolean masks, negative steps with starts and stops, ellipsis, and the
gradients of those reads."""
import numpy as np
import pytensor
import pytensor.tensor as pt

M = pt.matrix("M", shape=(6, 5))
T = pt.tensor3("T", shape=(3, 4, 5))
mask2 = pt.matrix("mask2", shape=(6, 5), dtype="bool")
rmask = pt.vector("rmask", shape=(4,), dtype="bool")
idx = pt.vector("idx", shape=(3,), dtype="int64")

reads = [
    M[mask2],
    M[4:0:-2, ::-1],
    M[-2::-3, -1:-4:-1],
    M[::-1][idx],
    T[:, rmask, ::-2],
    T[..., -1],
    T[-1, ::-1, idx],
    M[mask2.nonzero()],
    T[1:, rmask][:, :, 2:4],
]
loss = sum((r * (1.0 + i)).sum() for i, r in enumerate(reads)) + (M[mask2] ** 2).sum()
gM, gT = pytensor.grad(loss, [M, T])

inputs = [M, T, mask2, rmask, idx]
outputs = [*reads, gM, gT]

rng = np.random.default_rng(103)
values = {"M": rng.normal(size=(6, 5)), "T": rng.normal(size=(3, 4, 5)), "mask2": rng.uniform(size=(6, 5)) < 0.4,
          "rmask": np.array([False, True, True, False]), "idx": np.array([2, -1, 0])}
