"""The timing rule the bench/pytensor_*_timing.py scripts share with the C++
benchmarks' BM_Ratio: the best of n calls, the run least disturbed by the machine."""
import time


def best_ms(f, n):
    """Milliseconds of the fastest of n calls of f()."""
    t = 1e30
    for _ in range(n):
        t0 = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - t0)
    return t * 1e3
