"""Order statistics and rounding: sort/argsort along axes and descending, top-k via argsort, the
gradients of sort, clip (values on the bounds), round/floor/ceil, and median-like reads."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x = pt.vector("x", shape=(9,))
M = pt.matrix("M", shape=(3, 6))
lo = pt.scalar("lo")
hi = pt.scalar("hi")

sx = pt.sort(x)
desc = pt.sort(x)[::-1]
top3 = x[pt.argsort(x)[-3:]]
sM1 = pt.sort(M, axis=1)
sM0 = pt.sort(M, axis=0)
aM0 = pt.argsort(M, axis=0)
aneg = pt.argsort(-M, axis=-1)
med = sx[4]
cl = pt.clip(x, lo, hi)
rd = pt.round(x * 2)                       # half to even
rf = pt.floor(x) + pt.ceil(-x) + pt.round(x, mode="half_away_from_zero")
loss = (sx * pt.arange(9)).sum() + top3.sum() + (sM1 ** 2).sum() + (cl ** 2).sum() + (rd * x).sum() + med * 3
grads = pytensor.grad(loss, [x, M, lo, hi])

inputs = [x, M, lo, hi]
outputs = [sx, desc, top3, sM1, sM0, aM0, aneg, med, cl, rd, rf, *grads]

values = {"x": np.array([0.25, -1.5, 2.0, 0.75, -0.5, 1.25, -2.5, 3.0, 0.5]),
          "M": np.array([[3., 1, 4, 1.5, 5, 9], [2., 6, 5, 3.5, 5.5, 8], [9., 7, 9.5, 3.25, 2, 3.75]]),
          "lo": np.array(-0.5), "hi": np.array(2.0)}
