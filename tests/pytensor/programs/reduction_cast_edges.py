"""Reductions and casts at their edges: max, min, argmax and argmin with NaN among the values (the
first NaN wins, as NumPy's); sums, products and means of empty axes; all and any of floats with NaN
and zeros; integer sums that wrap and means of integers; cumulative sums and products of int8 that
wrap; casts that wrap (int64 -> int8, -1 -> uint8), overflow (float64 -> float32) or truncate toward
zero (negative floats -> int32); bool casts of NaN and -0.0; and the gradient of max with ties."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x = pt.matrix("x", shape=(3, 4))
e = pt.matrix("e", shape=(3, 0))
k = pt.vector("k", shape=(6,), dtype="int64")
s = pt.vector("s", shape=(6,), dtype="int8")
big = pt.vector("big", shape=(4,))

outputs = [
    pt.max(x, axis=1), pt.min(x, axis=0), pt.argmax(x, axis=1), pt.argmin(x, axis=0), pt.max(x),
    pt.sum(e, axis=1), pt.prod(e, axis=1), pt.sum(e), pt.mean(e, axis=0),
    pt.all(x, axis=1), pt.any(x, axis=0), pt.all(x), pt.any(e, axis=1),
    pt.sum(k), pt.prod(k), pt.mean(k), pt.sum(s), pt.sum(s, dtype="int8"), pt.cumsum(s), pt.cumprod(s),
    pt.cast(k, "int8"), pt.cast(k, "uint8"), pt.cast(big, "float32"), pt.cast(-pt.abs(big) / 3.0, "int32"),
    pt.cast(x, "bool"), pt.cast(s, "float32") / 3,
    pytensor.grad(pt.max(pt.nan_to_num(x, nan=0.0)), x),
]
inputs = [x, e, k, s, big]
values = {
    "x": np.array([[1.0, np.nan, 3.0, np.nan], [-0.0, 0.0, -2.0, -2.0], [5.0, 5.0, np.inf, -np.inf]]),
    "e": np.zeros((3, 0)),
    "k": np.array([2**62, 2**62, 3, -1, 255, -129], dtype="int64"),
    "s": np.array([100, 100, -128, 127, 1, -1], dtype="int8"),
    "big": np.array([1e39, -1e300, 3.4028235e38, 1e-50]),
}
