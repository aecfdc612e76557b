"""Shapes as programs compute them: alloc from symbolic shapes, zeros_like/ones_like/full_like,
eye with negative k, arange with a negative step, linspace, reshapes from pt.shape with -1,
flatten, specify_shape, expand_dims/squeeze, broadcast_to and shape arithmetic."""
import numpy as np
import pytensor.tensor as pt

x = pt.tensor3("x", shape=(None, None, None))
v = pt.vector("v", shape=(None,))
n = pt.scalar("n", dtype="int64")
start = pt.scalar("start")

sh = x.shape
r1 = x.reshape((sh[0] * sh[1], -1))
r2 = x.reshape((-1,))
r3 = x.reshape((sh[2], sh[0], sh[1]))
r4 = v.reshape((2, v.shape[0] // 2))
fl = x.flatten(ndim=2)
ss = pt.specify_shape(v, (6,)) * 2
al = pt.alloc(v[0], sh[1], n)
al2 = pt.alloc(v, 3, v.shape[0])
z = pt.zeros_like(x) + 1
o = pt.ones_like(v, dtype="int32")
fu = pt.full_like(v, 7.5)
fv = pt.full((n, 2), start)
e1 = pt.eye(n, 5, k=-2)
e2 = pt.eye(3, dtype="int8")
ar = pt.arange(n, 0, -2)
ar2 = pt.arange(start, start + 2, 0.25)
ls = pt.linspace(start, 3.0, 7)
ed = pt.expand_dims(v, (0, 2))
sq = pt.squeeze(x[:, :1, :])
bt = pt.broadcast_to(v, (3, v.shape[0]))
shp = pt.stack([sh[0] * 10 + sh[2], pt.prod(sh), v.shape[0] - 1, x.size])
pl = pt.shape_padleft(v, 2) + pt.shape_padright(v[:1], 1)
outputs = [r1, r2, r3, r4, fl, ss, al, al2, z, o, fu, fv, e1, e2, ar, ar2, ls, ed, sq, bt, shp, pl, x.T, x.dimshuffle(2, "x", 0, 1)]
inputs = [x, v, n, start]

rng = np.random.default_rng(110)
values = {"x": rng.normal(size=(2, 3, 4)), "v": rng.normal(size=6), "n": np.array(5), "start": np.array(-1.0)}
