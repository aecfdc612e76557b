"""Integer bookkeeping of a nonparametric analysis: binning by floor_div and clip, a bincount built
with inc_subtensor on int64 zeros (repeated indices), ranks as argsort of argsort, Spearman's rank
correlation, a mod-based fold assignment for cross-validation, per-fold counts and means through
one-hot comparisons, and a cumulative histogram."""
import numpy as np
import pytensor
import pytensor.tensor as pt

N, NB = 30, 6
x = pt.vector("x", shape=(N,))
y = pt.vector("y", shape=(N,))
ids = pt.vector("ids", shape=(N,), dtype="int32")

lo, width = -3.0, 1.0
bins = pt.clip(pt.floor_div(x - lo, width).astype("int64"), 0, NB - 1)
counts = pt.zeros((NB,), dtype="int64")[bins].inc(1)
cum_counts = pt.cumsum(counts)
sums = pt.zeros((NB,))[bins].inc(y)
bin_means = pt.switch(counts > 0, sums / pt.maximum(counts, 1), np.nan)

rx = pt.argsort(pt.argsort(x)).astype("float64")
ry = pt.argsort(pt.argsort(y)).astype("float64")
dx, dy = rx - rx.mean(), ry - ry.mean()
spearman = pt.sum(dx * dy) / pt.sqrt(pt.sum(dx ** 2) * pt.sum(dy ** 2))

fold = ids % 4
neg_fold = (-ids) // 3
onehot = pt.eq(fold[:, None], pt.arange(4)[None, :])  # (N, 4) bool
fold_counts = onehot.sum(axis=0)
fold_means = (onehot * y[:, None]).sum(axis=0) / fold_counts
median_bin = pt.argmax(cum_counts >= (N + 1) // 2)

inputs = [x, y, ids]
outputs = [bins, counts, cum_counts, bin_means, spearman, fold, neg_fold, fold_counts, fold_means, median_bin]

rng = np.random.default_rng(13)
_x = rng.normal(size=N) * 1.2
values = {"x": _x, "y": 0.6 * _x + rng.normal(size=N) * 0.5,
          "ids": rng.permutation(N).astype("int32") - 10}
