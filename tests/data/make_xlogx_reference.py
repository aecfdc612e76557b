"""Reference values of pytensor.tensor.xlogx's xlogx and xlogy0, computed by PyTensor 2.34's
compiled functions (FAST_RUN: the C code for float inputs, the Python impl for integer
ones), with their output dtypes, their forward derivatives (pytensor.gradient.Rop) and
a fused Composite holding them:

    ../shared/pytensor/python.sh tests/data/make_xlogx_reference.py > tests/data/xlogx_reference.json

tests/engine/tst_scalar_xlogx.cpp reads the JSON: each case names the function, its
input arrays (x, y, and the tangents dx, dy for the derivatives) and PyTensor's output."""
import json
import sys
import warnings

import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.gradient import Rop
from pytensor.tensor.xlogx import xlogx, xlogy0

from reference_arrays import arr  # beside this script

warnings.simplefilter("ignore")  # log(0), log(-1): PyTensor's impl warns
nan, inf = np.nan, np.inf


cases = []


def case(name, fn, inputs, build):
    """build(*vector variables) -> output; run compiled on the inputs (name -> array)."""
    vs = [pt.vector(k, dtype=str(v.dtype)) for k, v in inputs.items()]
    f = pytensor.function(vs, build(*vs), on_unused_input="ignore")
    got = f(*inputs.values())
    cases.append({"name": name, "function": fn, "inputs": {k: arr(v) for k, v in inputs.items()}, "output": arr(got),
                  "pytensor_name": str(f.maker.fgraph.outputs[0].owner.op)})


# Special values: 0 (and -0.0) whatever y is, NaN, infinities, negatives, the smallest numbers.
X = [0.0, -0.0, 1.0, 0.5, 2.0, nan, inf, -inf, -1.0, 1e-300, 0.0, 0.0, 0.0, 0.0, 1.0, -1.0, 2.0, 3.0, 1e300, 0.1]
Y = [0.0, 0.0, 1.0, 0.5, 3.0, 1.0, 1.0, 1.0, 1.0, 1.0, nan, inf, -1.0, -inf, 0.0, 0.0, inf, -inf, 1e-300, 10.0]
for dt in ("float64", "float32"):
    x = np.array(X, dtype=dt)
    y = np.array(Y, dtype=dt)
    case(f"xlogx {dt}", "xlogx", {"x": x}, xlogx)
    case(f"xlogy0 {dt}", "xlogy0", {"x": x, "y": y}, xlogy0)
# A grid of ordinary values.
grid = np.concatenate([np.linspace(0.0, 3.0, 31), np.geomspace(1e-12, 1e12, 25), -np.geomspace(1e-3, 1e3, 7)])
ygrid = np.concatenate([np.linspace(3.0, 0.05, 31), np.geomspace(1e9, 1e-9, 25), np.geomspace(0.5, 50.0, 7)])
for dt in ("float64", "float32"):
    case(f"xlogx grid {dt}", "xlogx", {"x": grid.astype(dt)}, xlogx)
    case(f"xlogy0 grid {dt}", "xlogy0", {"x": grid.astype(dt), "y": ygrid.astype(dt)}, xlogy0)
# Integer and bool inputs: upgrade_to_float, computed by PyTensor's Python impl in float64.
ints = np.arange(0, 128)
for dt in ("bool", "int8", "uint8", "int16", "int32", "int64"):
    x = (ints % 2).astype(dt) if dt == "bool" else ints.astype(dt)
    y = ((ints + 1) % 2).astype(dt) if dt == "bool" else (127 - ints).astype(dt)
    case(f"xlogx {dt}", "xlogx", {"x": x}, xlogx)
    case(f"xlogy0 {dt}", "xlogy0", {"x": x, "y": y}, xlogy0)
case("xlogy0 int8 float32", "xlogy0", {"x": ints.astype("int8"), "y": (ints / 7.0 + 0.25).astype("float32")}, xlogy0)
case("xlogy0 float64 int8", "xlogy0", {"x": ints / 9.0, "y": (127 - ints).astype("int8")}, xlogy0)

# Forward derivatives: Rop(xlogx(x), x, dx) = (1 + log x) dx; Rop(xlogy0) = log(y) dx + x / y dy.
xr = np.array([0.05, 0.3, 0.9, 1.6, 4.0, 10.0, 0.0])
yr = np.array([2.0, 0.7, 0.1, 1.5, 3.0, 0.4, 0.0])
dx = np.array([0.3, -0.2, 1.1, 0.5, -0.7, 0.25, 1.0])
dy = np.array([-0.4, 0.9, 0.6, -1.2, 0.3, 0.8, 1.0])
case("rop xlogx", "rop_xlogx", {"x": xr, "dx": dx}, lambda x, d: Rop(xlogx(x), x, d))
case("rop xlogy0", "rop_xlogy0", {"x": xr, "y": yr, "dx": dx, "dy": dy},
     lambda x, y, a, b: Rop(xlogy0(x, y), [x, y], [a, b]))
case("rop xlogy0 x only", "rop_xlogy0_x", {"x": xr, "y": yr, "dx": dx}, lambda x, y, a: Rop(xlogy0(x, y), x, a))

# Fused: FAST_RUN makes one Composite of 1 + xlogx(2 x) - xlogy0(x, y).
case("composite", "composite", {"x": xr, "y": yr}, lambda x, y: 1 + xlogx(2 * x) - xlogy0(x, y))

json.dump({"generated_by": "tests/data/make_xlogx_reference.py", "pytensor": pytensor.__version__,
           "numpy": np.__version__, "cases": cases}, sys.stdout, indent=None, allow_nan=False)
print()
