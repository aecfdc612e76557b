"""Batched linear algebra whose batch dimensions broadcast (Blockwise): solve_triangular of a
stack against one right-hand side, cholesky/slogdet/det over stacks, matmul of (2,1,3,3)
by (4,3,2), vectorize_graph of a per-sample log-density, and the gradient of a batched solve."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.graph.replace import vectorize_graph

Ls = pt.tensor3("Ls", shape=(3, 4, 4))
b = pt.vector("b", shape=(4,))
As = pt.tensor4("As", shape=(2, 1, 3, 3))
Bs = pt.tensor3("Bs", shape=(4, 3, 2))
X = pt.matrix("X", shape=(5, 4))

tril = pt.tril(Ls) + 3 * pt.eye(4)
sol = pt.linalg.solve_triangular(tril, b, lower=True, b_ndim=1)
spd = tril @ pt.swapaxes(tril, -1, -2)
chol = pt.linalg.cholesky(spd)
sld = pt.linalg.slogdet(spd)[1]
ev = pt.linalg.det(spd)
mm = As @ Bs
inv = pt.linalg.inv(As + 4 * pt.eye(3))

xi = pt.vector("xi", shape=(4,))
lp_one = -0.5 * (pt.linalg.solve_triangular(tril[0], xi, lower=True) ** 2).sum()
lp_all = vectorize_graph(lp_one, replace={xi: X})
gsol = pytensor.grad((sol ** 2).sum() + sld.sum() + lp_all.sum(), Ls)

inputs = [Ls, b, As, Bs, X]
outputs = [sol, chol, sld, ev, mm, inv, lp_all, gsol]

rng = np.random.default_rng(116)
values = {"Ls": rng.normal(size=(3, 4, 4)), "b": rng.normal(size=4), "As": rng.normal(size=(2, 1, 3, 3)),
          "Bs": rng.normal(size=(4, 3, 2)), "X": rng.normal(size=(5, 4))}
