"""Arrays as the reference files of tests/data hold them: {"dtype", "shape", "data"}, with
NaN and infinities written "nan", "inf", "-inf" (JSON has none), as the exporter does.
Shared by the make_*_reference.py generators beside it."""
import numpy as np


def finite_or_text(x):
    if np.isnan(x):
        return "nan"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def arr(a):
    a = np.asarray(a)
    data = [finite_or_text(float(x)) if a.dtype.kind == "f" else int(x) for x in a.reshape(-1).tolist()]
    return {"dtype": str(a.dtype), "shape": list(a.shape), "data": data}
