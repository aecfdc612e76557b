"""Index-heavy code: take_along_axis of argsort (per-row ranks), an empirical quantile
by sorting and interpolating, one-hot encodings through eq with arange, bincount-like
scatter-adds with inc_subtensor on advanced indices, and their gradients."""
import numpy as np
import pytensor
import pytensor.tensor as pt

X = pt.matrix("X", shape=(3, 5))
idx = pt.vector("idx", shape=(7,), dtype="int64")
w = pt.vector("w", shape=(7,))

order = pt.argsort(X, axis=1)
sorted_rows = pt.take_along_axis(X, order, axis=1)
q = 0.3 * 4
lo = pt.floor(q).astype("int64")
quant = sorted_rows[:, lo] * (1 - (q - lo)) + sorted_rows[:, lo + 1] * (q - lo)
onehot = pt.eq(idx[:, None], pt.arange(5)[None, :]).astype("float64")
counts = pt.inc_subtensor(pt.zeros(5)[idx], w)
inputs = [X, idx, w]
outputs = [sorted_rows, quant, pytensor.grad(quant.sum(), X), onehot @ X.T, counts, pytensor.grad((counts ** 2).sum(), w)]
values = {"X": np.array([[0.3, -1.0, 2.0, 0.5, 0.1], [1.0, 1.5, -0.2, 0.0, 3.0], [-2.0, 0.4, 0.4, 1.1, -0.5]]),
          "idx": np.array([0, 4, 2, 2, 1, 0, 3]), "w": np.array([0.5, 1.0, -0.3, 2.0, 0.1, 0.7, 1.2])}
