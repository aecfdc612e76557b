"""PyTensor's compiled functions on the sizes of bench/bench_linalg.cpp, each against
NumPy/SciPy calling the same BLAS/LAPACK directly in the same run (best of N):

    ../shared/pytensor/python.sh bench/pytensor_linalg_timing.py

docs/performance.md records the figures beside tensorlens's."""

import numpy as np
import scipy.linalg as sla
import pytensor
import pytensor.tensor as pt

from best_of import best_ms


def best(f, n=30):
    return best_ms(f, n)


rng = np.random.default_rng(0)
rows = []

A = rng.normal(size=(512, 512))
B = rng.normal(size=(512, 512))
x, y = pt.matrix("x"), pt.matrix("y")
f = pytensor.function([x, y], pt.dot(x, y))
rows.append(("512x512 float64 GEMM", best(lambda: f(A, B)), best(lambda: A @ B)))

M = rng.normal(size=(1000, 1000))
v = rng.normal(size=1000)
m, vv = pt.matrix("m"), pt.vector("v")
g = pytensor.function([m, vv], pt.dot(m, vv))
rows.append(("1000x1000 float64 GEMV", best(lambda: g(M, v), 200), best(lambda: M @ v, 200)))

As = rng.normal(size=(1000, 4, 4)) + 8 * np.eye(4)
bs = rng.normal(size=(1000, 4))
a3, b2 = pt.tensor3("a"), pt.matrix("b")
h = pytensor.function([a3, b2], pt.linalg.solve(a3, b2, b_ndim=1))


def scipy_loop():
    for k in range(1000):
        sla.solve(As[k], bs[k])


rows.append(("batched Solve, 1000 4x4", best(lambda: h(As, bs), 10), best(lambda: np.linalg.solve(As, bs[..., None]), 10)))
rows.append(("  (vs scipy.linalg.solve in a loop)", best(lambda: h(As, bs), 10), best(scipy_loop, 10)))

G = rng.normal(size=(500, 500))
S = G @ G.T + 500 * np.eye(500)
s = pt.matrix("s")
c = pytensor.function([s], pt.linalg.cholesky(s))
rows.append(("500x500 Cholesky", best(lambda: c(S)), best(lambda: sla.cholesky(S, lower=True))))

print(f"{'case':40s} {'pytensor ms':>12s} {'direct ms':>10s} {'ratio':>6s}")
for name, p, d in rows:
    print(f"{name:40s} {p:12.3f} {d:10.3f} {p / d:6.2f}")
