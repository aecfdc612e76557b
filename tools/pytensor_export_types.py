"""Types and values of tools/pytensor_export.py's graphs: the dtypes tensorlens has, the
type kinds it writes (tensor, scalar, slice, none), and constants' values as JSON."""

import math

import numpy as np

import pytensor.scalar as ps
from pytensor.graph.basic import Constant
from pytensor.tensor.type import TensorType

_DTYPE_ORDER = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"]  # engine/core/DType.h
DTYPES = set(_DTYPE_ORDER)
RANDOM_NOTE = "a random variable: tensorlens does not imitate NumPy's generators"
# Variables of these PyTensor types are written with type kinds of their own (docs/pytensor-export.md).
OTHER_TYPES = {"SliceType": "slice", "NoneTypeT": "none"}

class ExportError(ValueError):
    """A graph tensorlens's format cannot hold (e.g. a dtype it lacks)."""


class DTypeError(ExportError):
    """A tensor or scalar variable of a dtype tensorlens lacks (uint16, uint32, complex128...):
    the export fails, naming the variable, rather than writing its nodes as Opaque."""


def _check_dtype(v):
    """Raises DTypeError for a TensorType / ScalarType variable whose dtype is not in DTYPES."""
    t = v.type
    if not isinstance(t, (TensorType, ps.ScalarType)):
        return
    dtype = str(t.dtype)
    if dtype in DTYPES:
        return
    what = f"variable '{v.name}'" if v.name else f"variable {v}"
    if v.owner is not None:
        what += f" (an output of {v.owner.op})"
    elif isinstance(v, Constant):
        what = "constant " + what[len("variable "):]
    raise DTypeError(f"{what} of type {t} has dtype {dtype}, which tensorlens does not have "
                     f"(its dtypes: {', '.join(sorted(DTYPES, key=_DTYPE_ORDER.index))}); "
                     f"cast it to one of them before exporting")


# ---------------------------------------------------------------- values and types

def _type_json(t):
    other = OTHER_TYPES.get(type(t).__name__)
    if other is not None:
        return {"kind": other}
    dtype = str(getattr(t, "dtype", None))
    if dtype not in DTYPES:
        raise ExportError(f"dtype {dtype} has no tensorlens counterpart")
    if isinstance(t, ps.ScalarType):
        return {"kind": "scalar", "dtype": dtype}
    shape = getattr(t, "shape", None)
    if shape is None:
        raise ExportError(f"type {t} is neither a TensorType nor a ScalarType")
    return {"kind": "tensor", "dtype": dtype, "shape": [None if d is None else int(d) for d in shape]}


def _number(x, dtype):
    if dtype == "bool":
        return bool(x)
    if dtype.startswith("float"):
        x = float(x)
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return x
    return int(x)


def _value_json(data, dtype):
    a = np.asarray(data)
    return {"dtype": dtype, "shape": [int(d) for d in a.shape], "data": [_number(v, dtype) for v in a.reshape(-1).tolist()]}


def _supported_type(t):
    """A tensor or scalar type tensorlens's format holds."""
    try:
        return _type_json(t)["kind"] in ("tensor", "scalar")
    except ExportError:
        return False


def _written_type(t, opaque_unknown):
    """Types written as they are: tensors, scalars, and (unless ops tensorlens lacks are
    written as Opaque) slices and None."""
    try:
        return _type_json(t)["kind"] in ("tensor", "scalar") or not opaque_unknown
    except ExportError:
        return False
