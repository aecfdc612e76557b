"""Joins and tilings with their gradients: concatenate on every axis, stack on a negative axis,
split into unequal symbolic parts, repeat with and without an axis, tile, roll (negative
shift, along axes and flattened), flip, horizontal and vertical stacks."""
import numpy as np
import pytensor
import pytensor.tensor as pt

A = pt.matrix("A", shape=(3, 4))
B = pt.matrix("B", shape=(3, 2))
v = pt.vector("v", shape=(7,))
sizes = pt.vector("sizes", shape=(3,), dtype="int64")
shift = pt.scalar("shift", dtype="int64")

c1 = pt.concatenate([A, B, A[:, :1]], axis=1)
c0 = pt.concatenate([A, A[::-1] * 2], axis=0)
st = pt.stack([A[:, 0], B[:, 1], A[:, -1]], axis=-1)
p1, p2, p3 = pt.split(v, sizes, n_splits=3)
r0 = pt.repeat(A, 2, axis=1)
rn = pt.repeat(B, 3)
rv = pt.repeat(v[:3], pt.as_tensor([2, 0, 1]))
tl = pt.tile(B, (2, 3))
tl1 = pt.tile(v[:2], 3)
ro = pt.roll(A, -1, axis=1)
ro2 = pt.roll(A, shift)
ro3 = pt.roll(v, 3)
fl = pt.flip(A, axis=0)
hs = pt.horizontal_stack(A, B)
vs = pt.vertical_stack(A, A * 0.5)
loss = ((c1 * pt.arange(7)) ** 2).sum() + (c0 ** 3).sum() + st.prod() + (p1 ** 2).sum() + p3.sum() * p2.sum() + \
    (r0 * pt.arange(8)).sum() + rn.max() + (tl ** 2).sum() + (ro * A).sum() + (ro2 * pt.arange(12).reshape((3, 4))).sum() + \
    (ro3 * v).sum() + (fl * A).sum() + rv.sum()
grads = pytensor.grad(loss, [A, B, v])

inputs = [A, B, v, sizes, shift]
outputs = [c1, c0, st, p1, p2, p3, r0, rn, rv, tl, tl1, ro, ro2, ro3, fl, hs, vs, *grads]

rng = np.random.default_rng(109)
values = {"A": rng.normal(size=(3, 4)), "B": rng.normal(size=(3, 2)), "v": rng.normal(size=7),
          "sizes": np.array([2, 4, 1]), "shift": np.array(-5)}
