"""Powers and integer constants: x**n for small and large integer n (nested squaring), x**0, x**-1,
x**-2, x**-0.5, x**2.5, integer powers of an integer vector, and the constants PyTensor upcasts (add,
mul, maximum, true_div) or keeps as int8 (sub, clip, pow), with the gradient of a polynomial."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x = pt.vector("x", shape=(9,))
k = pt.vector("k", dtype="int64", shape=(9,))
s = pt.scalar("s")

cubes = x**3
sixth = x**6
big = x**13
inverse_cube = x**-3
ones = x**0
recip = x**-1
recip_sq = x**-2
rsqrt = pt.abs(x) ** -0.5 + 1
frac = pt.abs(x) ** 2.5
int_cubes = k**3
poly = 3 * x**4 - 2 * x**3 + x**2 - 7
shifted = 1 - x
bounded = pt.clip(x, 0, 1) + pt.maximum(x, 2) + (x + 4) / 2
scaled = (s**3) * x
g = pytensor.grad(poly.sum() + (sixth * s).sum(), [x, s])

inputs = [x, k, s]
outputs = [cubes, sixth, big, inverse_cube, ones, recip, recip_sq, rsqrt, frac, int_cubes, poly, shifted, bounded,
           scaled, *g]

values = {
    "x": np.linspace(-1.7, 2.3, 9) + 0.05,
    "k": np.arange(-4, 5, dtype="int64"),
    "s": np.array(1.3),
}
