"""PyTensor's compiled function for the seed program of bench/bench_scan.cpp
(x' = exp(x) - 5 on 7 elements, its last value and that value's Rop) with
n_steps = 100,000, FAST_RUN, the same inputs; prints microseconds per step,
best of N, with and without the Rop:

    ../shared/pytensor/python.sh bench/pytensor_scan_timing.py

docs/performance.md records the figures beside tensorlens's."""
import os

import numpy as np
import pytensor
import pytensor.tensor as pt

from best_of import best_ms

STEPS = 100_000


def best(f, n=7):
    return best_ms(f, n)


def seed(with_rop):
    x_init = pt.vector("x_init", shape=(7,))
    x_init_tangent = pt.vector("x_init_tangent", shape=(7,))
    seq, _ = pytensor.scan(lambda x: pt.exp(x) - 5, outputs_info=[x_init], n_steps=STEPS)
    outputs = [seq[-1]]
    if with_rop:
        outputs.append(pytensor.Rop(seq[-1], x_init, eval_points=x_init_tangent))
    mode = pytensor.compile.mode.get_mode("FAST_RUN")
    return pytensor.function([x_init, x_init_tangent], outputs, mode=mode, on_unused_input="ignore")


x = np.array([(-1.0 + 2.0 * i / 6.0) * 0.1 for i in range(7)])
dx = np.ones(7)
print(f"pytensor {pytensor.__version__}, load average {os.getloadavg()[0]:.2f}")
for with_rop in (True, False):
    f = seed(with_rop)
    f(x, dx)
    us = best(lambda: f(x, dx)) / STEPS * 1e3
    print(f"seed Scan{' + Rop' if with_rop else ''}, {STEPS} steps: {us:.3f} us per step")
