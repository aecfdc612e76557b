"""Boolean logic building masks for switch: and/or/xor/invert of comparisons, eq/neq of ints,
isclose-style tolerance tests, all/any reductions along axes, nested switches and the
gradient through them; a truncated-normal style density with switch on the support."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x = pt.vector("x", shape=(10,))
g = pt.vector("g", shape=(10,), dtype="int64")
lo = pt.scalar("lo")
hi = pt.scalar("hi")
M = pt.matrix("M", shape=(3, 4))

inside = pt.and_(pt.ge(x, lo), pt.le(x, hi))
outside = pt.or_(x < lo, x > hi)
odd = pt.neq(g % 2, 0)
sel = pt.xor(inside, odd)
close = pt.abs(x - pt.round(x)) < 1e-8
z = (x - 0.5 * (lo + hi)) / (hi - lo)
logp = pt.switch(inside, -0.5 * z ** 2 - pt.log(hi - lo), -np.inf)
nested = pt.switch(x > hi, hi, pt.switch(x < lo, lo * x, x ** 2))
tri = pt.switch(pt.eq(g, 0), 0.0, pt.switch(pt.eq(g, 1), pt.sin(x), pt.cos(x)))
rows_any = pt.any(M > 1, axis=1)
cols_all = pt.all(M > -1, axis=0)
lp_fin = pt.switch(inside, logp, 0.0).sum()
loss = lp_fin + nested.sum() + tri.sum() + pt.switch(rows_any[:, None], M, 2 * M).sum()
grads = pytensor.grad(loss, [x, lo, hi, M])

inputs = [x, g, lo, hi, M]
outputs = [inside, outside, odd, sel, ~sel, close, logp, nested, tri, rows_any, cols_all,
           pt.sum(inside), pt.all(odd), lp_fin, *grads]

values = {"x": np.array([-2.0, -1.0, -0.3, 0.0, 0.4, 1.0, 1.5, 2.0, 2.5, 3.0]),
          "g": np.array([0, 1, 2, 3, 0, 1, 2, 5, -1, -4]), "lo": np.array(-1.0), "hi": np.array(2.0),
          "M": np.array([[0.5, 1.5, -2.0, 0.0], [0.1, 0.2, 0.3, 0.4], [2.0, -0.5, 1.0, 1.2]])}
