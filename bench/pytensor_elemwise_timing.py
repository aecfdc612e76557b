"""PyTensor's compiled functions for the expressions of bench/bench_composite.cpp
and bench/bench_fused_reduction.cpp on 10M float64 (the same input values), each
beside NumPy evaluating the same expression in the same run (best of N):

    ../shared/pytensor/python.sh bench/pytensor_elemwise_timing.py

docs/performance.md records the figures beside tensorlens's."""
import os

import numpy as np
import pytensor
import pytensor.tensor as pt

from best_of import best_ms


def best(f, n=10):
    return best_ms(f, n)


N = 10_000_000
i = np.arange(N)
X = -1.0 + 2.0 * (i % 1000) / 1000.0
Y = 0.5 - (i % 777) / 777.0

x, y = pt.vector("x"), pt.vector("y")
composite = pytensor.function([x, y], 2 * pt.exp(x) + pt.tanh(y) - x * y)
reduction = pytensor.function([x, y], pt.sum(pt.exp(x) * y))
composite(X, Y)  # compiles the C code on first use
reduction(X, Y)

print(f"pytensor {pytensor.__version__}, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}, "
      f"load average {os.getloadavg()[0]:.2f}")
rows = [
    ("2*exp(x) + tanh(y) - x*y, 10M float64", best(lambda: composite(X, Y)),
     best(lambda: 2 * np.exp(X) + np.tanh(Y) - X * Y)),
    ("sum(exp(x) * y), 10M float64", best(lambda: reduction(X, Y)), best(lambda: np.sum(np.exp(X) * Y))),
]
for name, t_pt, t_np in rows:
    print(f"{name:40s} pytensor {t_pt:8.2f} ms   numpy {t_np:8.2f} ms")
print("graphs:")
pytensor.dprint(composite)
pytensor.dprint(reduction)
