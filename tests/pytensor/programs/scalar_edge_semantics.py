"""Scalar semantics at the edges: NaN in maximum/minimum/clip; floor division and remainder of
negative, infinite and signed-zero floats (PyTensor's compiled C code, which differs from NumPy's:
1 // 0.1 is 10, inf // 2 is inf) and of negative ints; sign of -0.0; integer powers; a Euclidean
norm; logaddexp at +-inf; isclose; nan_to_num; round half to even on float32; casts to int16; bool
arithmetic and reductions; and the gradient through maximum, clip and the norm."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x = pt.vector("x", shape=(8,))
y = pt.vector("y", shape=(8,))
i = pt.vector("i", shape=(8,), dtype="int32")
j = pt.vector("j", shape=(8,), dtype="int64")
f = pt.vector("f", shape=(8,), dtype="float32")
b = pt.vector("b", shape=(8,), dtype="bool")

outputs = [
    pt.maximum(x, y), pt.minimum(x, y), pt.clip(x, -1.0, 1.0),
    x % 3.0, x // 2.0, x // 0.1, x % -0.1, (x + 0.25) // y, y % x, i % 3, i // 3, j % -3, j // -3,
    pt.sign(x), pt.sqrt(x**2 + y**2), pt.logaddexp(x, y), pt.isclose(x, y),
    pt.nan_to_num(x, nan=0.0, posinf=9.0, neginf=-9.0), pt.round(f), pt.round(f * 2.5),
    pt.cast(f * 1e3, "int16"), b + b, b * i, pt.sum(b), pt.mean(b), i ** 2, j ** 3,
    pt.abs(i), -j, pt.true_div(i, j), pt.int_div(j, i + 10), pt.sqr(f), pt.reciprocal(f),
    pt.grad(pt.sum(pt.maximum(x, y) * pt.clip(x, -1.0, 1.0) + pt.sqrt(x**2 + y**2)), x),
]
inputs = [x, y, i, j, f, b]
values = {
    "x": np.array([np.nan, -0.0, 0.0, -2.5, 2.5, np.inf, -np.inf, 0.75]),
    "y": np.array([1.0, 0.0, -0.0, np.nan, -2.5, np.inf, 1.0, 0.75 + 1e-9]),
    "i": np.array([-7, -3, 0, 1, 5, 8, -1, 100], dtype="int32"),
    "j": np.array([-7, -3, 0, 1, 5, 8, -1, 2**40], dtype="int64"),
    "f": np.array([0.5, 1.5, 2.5, -0.5, -1.5, 3.49, -2.51, 30.0], dtype="float32"),
    "b": np.array([True, False, True, True, False, False, True, False]),
}
