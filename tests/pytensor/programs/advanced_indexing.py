"""Indexing as models do it: integer arrays, boolean masks, slices mixed with newaxis, negative indices."""
import numpy as np
import pytensor.tensor as pt

M = pt.matrix("M", shape=(6, 5))
idx = pt.vector("idx", shape=(4,), dtype="int64")
cols = pt.vector("cols", shape=(4,), dtype="int64")
mask = pt.vector("mask", shape=(6,), dtype="bool")
T = pt.tensor3("T", shape=(4, 3, 5))

outputs = [
    M[idx],                      # rows by integer array (AdvancedSubtensor1)
    M[idx, cols],                # element pairs
    M[:, cols],                  # columns by integer array
    M[mask],                     # boolean mask on rows
    M[M > 0.5],                  # boolean mask on elements
    M[-1], M[-3:, ::-2],         # negative indices and steps
    M[None, 1:4, np.newaxis, -1],
    T[idx[:2], :, cols[1:3]],    # advanced - slice - advanced
    T[:, idx[:2]][..., 0],
    M[idx][:, -2:],
    M[pt.arange(3), 2],
]
inputs = [M, idx, cols, mask, T]

rng = np.random.default_rng(35)
values = {"M": rng.normal(size=(6, 5)), "idx": np.array([0, 2, 2, -1]), "cols": np.array([4, 0, 2, 1]),
          "mask": np.array([True, False, True, True, False, True]), "T": rng.normal(size=(4, 3, 5))}
