"""Algebraic identities FAST_RUN applies, on arguments where they change the value: x / x and
x - x (PyTensor rewrites them to 1 and 0, so 0/0 and inf - inf are no longer NaN), exp(log(x)) and
log(exp(x)) at the edges, x * 0 with x finite (PyTensor's local_mul_zero gives 0 for infinite x too,
tensorlens keeps NaN there: docs/semantics.md), pow with constant exponents (2,
0.5, -1, 3), neg(neg(x)), double transposes and reshapes, sums of Alloc and of constants times a
vector, switches on constant conditions, the dot of a zero matrix, and cancellations in products
and sums. The graph as built gives NaN where the rewritten one gives 1 or 0, so running it
unrewritten differs from PyTensor's compiled function by design (known_gaps.json).

sqrt(w ** 2) is taken of w >= 0 only: PyTensor 2.34's local_sqrt_sqr has its two cases swapped
(it rewrites sqrt(sqr(x)) to switch(x >= 0, x, nan) and sqr(sqrt(x)) to abs(x)), so its compiled
sqrt(x ** 2) is NaN for negative x, where tensorlens keeps |x|."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x = pt.vector("x", shape=(6,))
y = pt.vector("y", shape=(6,))
w = pt.abs(x)
M = pt.matrix("M", shape=(6, 3))
n = pt.lscalar("n")

outputs = [
    x / x, x - x, pt.exp(pt.log(x)), pt.log(pt.exp(x)), pt.exp(-pt.abs(x)) * 0, pt.sqrt(w**2), (w**2) ** 0.5,
    x**2, x**0.5, x**-1, x**3, -(-x), (M.T).T, pt.reshape(pt.reshape(M, (3, 6)), (18,)),
    pt.sum(pt.alloc(x[0], n, 3)), pt.sum(3.0 * y), pt.switch(1, x, y), pt.switch(pt.zeros_like(x), x, y),
    pt.dot(pt.zeros((3, 6)), M), (x * y) / y, (x + y) - y, pt.exp(x) / pt.exp(y), pt.log(x) + pt.log(y),
    pt.sum(2.0 * x * y) / pt.sum(y * x), pytensor.grad(pt.sum(pt.log(pt.exp(x)) * y), x),
]
inputs = [x, y, M, n]
values = {
    "x": np.array([0.0, np.inf, -np.inf, 2.0, -3.0, 1e-320]),
    "y": np.array([0.0, np.inf, 1.0, 0.5, np.nan, -2.0]),
    "M": np.arange(18.0).reshape(6, 3) - 4,
    "n": np.array(4, dtype="int64"),
}
