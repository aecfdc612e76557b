"""Scalar and special functions at their edges, where PyTensor's compiled C code decides: pow of
negative bases, zeros and infinities (signed zeros too); sigmoid, softplus, log1mexp and log1p at
the tails; erfinv and erfcinv at their bounds; arctan2 of signed zeros and infinities; floor, ceil
and rounding of halves and negative zeros; true_div of integers by zero; sign of NaN and of zeros;
int64 squares that wrap and the absolute value of -(2^63 - 1), exact beyond 2^53 in and out.
(gammaln and psi at their poles follow scipy, which PyTensor's C code does not: docs/ops.md.)"""
import numpy as np
import pytensor.tensor as pt

t = pt.vector("t", shape=(10,))
p = pt.vector("p", shape=(10,))
z = pt.vector("z", shape=(10,))
k = pt.vector("k", shape=(10,), dtype="int64")

outputs = [
    t ** p, pt.sigmoid(t), pt.softplus(t), pt.log1mexp(-pt.abs(t)), pt.log1p(p),
    pt.erfinv(p), pt.erfcinv(p + 1.0), pt.arctan2(z, t),
    pt.floor(t), pt.ceil(t), pt.round(t), pt.round(t, mode="half_away_from_zero"),
    k / (k - k), pt.sign(t), pt.exp(t), pt.expm1(t), pt.cosh(t), pt.tanh(t), pt.sqrt(p),
    pt.log(p), pt.reciprocal(z), k ** 2, pt.abs(k),
]
inputs = [t, p, z, k]
values = {
    "t": np.array([-800.0, -40.0, -0.5, -0.0, 0.0, 0.5, 1.5, 2.5, 40.0, 800.0]),
    "p": np.array([-1.0, -0.5, 0.0, -0.0, 1.0, 1.0 / 3.0, 2.0, -2.0, np.inf, np.nan]),
    "z": np.array([0.0, -0.0, -1.0, -2.5, 1e-300, 0.5, 1.0, 2.0, np.inf, -np.inf]),
    "k": np.array([-3, -1, 0, 1, 2, 3, 4, -9223372036854775807, 7, 100], dtype="int64"),
}
