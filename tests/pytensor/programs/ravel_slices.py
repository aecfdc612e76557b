"""Index arithmetic of a spatial model on a grid: ravel_multi_index and unravel_index between (row,
col) and flat cell ids, neighbour differences on the grid read through symbolic slices whose bounds
are int scalar inputs (x[n:m], x[::k], x[-n:]), a second difference with diff(n=2), a reshape to
symbolic dimensions, linspace knots, and an intrinsic-CAR style log-density with its gradient."""
import numpy as np
import pytensor
import pytensor.tensor as pt

R, Cc = 5, 6
phi = pt.vector("phi", shape=(R * Cc,))
rows = pt.vector("rows", shape=(7,), dtype="int64")
cols = pt.vector("cols", shape=(7,), dtype="int64")
n = pt.scalar("n", dtype="int64")
m = pt.scalar("m", dtype="int64")
k = pt.scalar("k", dtype="int64")
ncol = pt.scalar("ncol", dtype="int64")

flat = pt.ravel_multi_index((rows, cols), (R, Cc))
back_r, back_c = pt.unravel_index(flat, (R, Cc))
grid = phi.reshape((-1, ncol))
dh = grid[:, 1:] - grid[:, :-1]
dv = grid[1:, :] - grid[:-1, :]
icar = -0.5 * (pt.sum(dh ** 2) + pt.sum(dv ** 2)) - 0.5 * pt.sum(phi) ** 2 / 0.01
window = phi[n:m]
strided = phi[::k]
tail = phi[-n:]
d2 = pt.diff(phi[flat], n=2)
knots = pt.linspace(0.0, 1.0, 7)
g = pytensor.grad(icar + pt.sum(window ** 3) + pt.sum(strided) + pt.sum(tail * knots[:3].sum()), phi)

inputs = [phi, rows, cols, n, m, k, ncol]
outputs = [flat, back_r, back_c, icar, window, strided, tail, d2, knots, g]

rng = np.random.default_rng(97)
values = {"phi": rng.normal(size=R * Cc) * 0.5, "rows": rng.integers(0, R, size=7), "cols": rng.integers(0, Cc, size=7),
          "n": np.int64(3), "m": np.int64(11), "k": np.int64(4), "ncol": np.int64(Cc)}
