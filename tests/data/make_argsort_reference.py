"""Writes argsort_reference.json: NumPy's argsort of tie-heavy arrays with the unstable
kinds ('quicksort', 'heapsort'), whose order among equal keys is the algorithm's own, for
tests/engine/tst_argsort_ties.cpp. Lengths from 17 (the first above NumPy's insertion-sort
cutoff of 16) to 2,000; integers, floats with NaN and -0.0, already sorted and reversed runs.

    ../shared/pytensor/python.sh tests/data/make_argsort_reference.py > tests/data/argsort_reference.json
"""
import json
import sys

import numpy as np

rng = np.random.default_rng(20261205)
cases = []


def case(name, x):
    for kind in ("quicksort", "heapsort"):
        data = [None if np.isnan(v) else float(v) for v in x.tolist()] if x.dtype.kind == "f" else x.tolist()
        cases.append({"name": f"{name} {kind}", "dtype": str(x.dtype), "kind": kind, "data": data,
                      "order": np.argsort(x, kind=kind).tolist()})


for n in (17, 18, 33, 100, 257, 2000):
    case(f"int64 few values n={n}", rng.integers(0, 4, size=n))
    case(f"int32 many ties n={n}", rng.integers(-10, 10, size=n).astype(np.int32))
    f = rng.integers(0, 6, size=n).astype(np.float64)
    f[rng.random(n) < 0.1] = np.nan
    f[rng.random(n) < 0.1] = -0.0
    case(f"float64 with nan n={n}", f)
case("sorted with ties", np.repeat(np.arange(20), 3))
case("reversed with ties", np.repeat(np.arange(20), 3)[::-1].copy())
case("all equal", np.zeros(64, dtype=np.int8))
case("float32 alternating", np.tile(np.array([1.0, 0.0], dtype=np.float32), 25))

json.dump({"generated_by": "tests/data/make_argsort_reference.py", "numpy": np.__version__, "cases": cases}, sys.stdout)
print()
