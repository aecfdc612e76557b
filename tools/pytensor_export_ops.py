"""The ops tools/pytensor_export.py writes beyond tensorlens's own op families
(docs/pytensor-export.md, "Ops under their PyTensor names"). Part of tools/pytensor_export.py.

Convention: the node's "op" is PyTensor's op class name ("Softmax", "CGemv",
"AdvancedSubtensor1", "Blockwise", ...) and "params" its `__props__` under the same
names, converted to JSON (dtypes as strings, tuples as lists, None as null, scalar
ops as their keys, a Blockwise's core op as a nested {"kind", "params"}); an op that
destroys or views its inputs also carries "destroy_map" / "view_map" ({output:
[inputs]}). Elemwise keeps its family with any scalar op, under its key (scalar_key:
SCALAR_OPS, the entries of engine/ops/ScalarOps.def, else the lower-case class name);
CAReduce ops that tensorlens's Reduce does not cover are written under their class
name with scalar_op, axis, dtype and acc_dtype.
"""

import math
import os
import re
from collections.abc import Mapping

import numpy as np

# PyTensor scalar op classes -> scalar op keys, where the key is not found otherwise. The
# first block is tensorlens's engine/ops/ScalarOps.def; the rest follow the same rule
# (PyTensor's lower-case name) for scalar ops tensorlens does not have yet. A class not
# listed takes the key of the ScalarOps.def entry named like it, else its lower-case class
# name (scalar_key), so an op added to ScalarOps.def needs no entry here.
SCALAR_OPS = {
    "Add": "add", "Sub": "sub", "Mul": "mul", "TrueDiv": "true_div", "IntDiv": "int_div", "Mod": "mod",
    "Neg": "neg", "Abs": "abs", "Exp": "exp", "Log": "log", "Log1p": "log1p", "Expm1": "expm1",
    "Sqrt": "sqrt", "Sqr": "sqr", "Sin": "sin", "Cos": "cos", "Tanh": "tanh", "Sigmoid": "sigmoid",
    "Softplus": "softplus", "Pow": "pow", "ScalarMaximum": "maximum", "ScalarMinimum": "minimum",
    "Maximum": "maximum", "Minimum": "minimum", "EQ": "eq", "NEQ": "neq", "LT": "lt", "LE": "le",
    "GT": "gt", "GE": "ge", "AND": "and", "OR": "or", "XOR": "xor", "Invert": "invert",
    "Switch": "switch", "Identity": "identity", "Cast": "cast",
    "Sign": "sign", "Floor": "floor", "Ceil": "ceil", "RoundHalfToEven": "round_half_to_even",
    "Reciprocal": "reciprocal", "Erf": "erf", "Erfc": "erfc", "Sinh": "sinh", "Cosh": "cosh", "Tan": "tan",
    "ArcSin": "arcsin", "ArcCos": "arccos", "ArcTan": "arctan", "Log2": "log2", "Log10": "log10",
    "Exp2": "exp2", "ArcTan2": "arctan2", "Clip": "clip",
    "ArcSinh": "arcsinh", "ArcCosh": "arccosh", "ArcTanh": "arctanh", "Trunc": "trunc",
    "RoundHalfAwayFromZero": "round_half_away_from_zero", "Deg2Rad": "deg2rad", "Rad2Deg": "rad2deg",
    "IsNan": "isnan", "IsInf": "isinf", "Second": "second", "MulWithoutZeros": "mul_without_zeros",
    "Erfcx": "erfcx", "Erfinv": "erfinv", "Erfcinv": "erfcinv", "Owens_t": "owens_t", "Gamma": "gamma",
    "GammaLn": "gammaln", "Psi": "psi", "TriGamma": "tri_gamma", "PolyGamma": "polygamma",
    "GammaInc": "gammainc", "GammaIncC": "gammaincc", "GammaIncInv": "gammaincinv",
    "GammaIncCInv": "gammainccinv", "GammaU": "gammau", "GammaL": "gammal", "Jv": "jv", "J1": "j1",
    "J0": "j0", "Iv": "iv", "I1": "i1", "I0": "i0", "Ive": "ive", "Kve": "kve", "Log1mexp": "log1mexp",
    "BetaInc": "betainc", "BetaIncInv": "betaincinv", "Hyp2F1": "hyp2f1",
    # not in tensorlens yet
    "InRange": "in_range", "Real": "real", "Imag": "imag", "Angle": "angle", "Complex": "complex", "Conj": "conj",
    "ComplexFromPolar": "complex_from_polar",
}
# Scalar ops with parameters of their own, beside their key.
SCALAR_PROPS = {"Cast": lambda s: {"dtype": str(s.o_type.dtype)},
                "InRange": lambda s: {"openlow": bool(s.openlow), "openhi": bool(s.openhi)}}

# OpFromGraph subclasses keep their parameters as attributes (their __props__ are empty);
# their inner graph is written as the node's "inner".
GRAPH_OP_ATTRS = {"AllocDiag": ("axis1", "axis2", "offset"), "Einsum": ("subscripts", "path", "optimized"),
                  "Pad": ("pad_mode", "reflect_type", "has_stat_length"), "OpFromGraph": ("name",), "IfElse": ("name",)}

_TOOLS = os.path.dirname(os.path.abspath(__file__))
_ENGINE = os.path.join(os.path.dirname(_TOOLS), "engine")
_known = None


def _read_names():
    """(op kinds, scalar op keys, {enum or inner name: key}) of engine/ir/OpKinds.def and
    engine/ops/ScalarOps.def beside this file, or (None, None, {}) where there is none."""
    global _known
    if _known is None:
        try:
            with open(os.path.join(_ENGINE, "ir", "OpKinds.def")) as f:
                kinds = set(re.findall(r'^TL_OP_KIND\(\w+,\s*"([^"]+)"\)', f.read(), re.M))
            with open(os.path.join(_ENGINE, "ops", "ScalarOps.def")) as f:
                entries = re.findall(r'^TL_SCALAR_OP\((\w+),\s*"([^"]+)",\s*"([^"]+)"', f.read(), re.M)
            aliases = {}
            for enum, key, inner in entries:
                aliases.setdefault(enum, key)
                aliases.setdefault(inner, key)
            _known = (kinds, {key for _, key, _ in entries}, aliases)
        except OSError:
            _known = (None, None, {})
    return _known


def tensorlens_names():
    """(op kinds, scalar op keys) of the tensorlens checkout beside this file
    (engine/ir/OpKinds.def, engine/ops/ScalarOps.def), or None where there is none."""
    kinds, scalars, _ = _read_names()
    return None if kinds is None else (kinds, scalars)


def scalar_key(sop):
    """The scalar op's key: SCALAR_OPS by class name; else the key of the ScalarOps.def entry
    whose enum is the class name or whose inner name is PyTensor's str(sop) (so a scalar op
    tensorlens gains is found without an entry here); else the class name in lower case
    (XlogX -> "xlogx"), which the loader reports as an unknown scalar op."""
    name = type(sop).__name__
    if name == "Composite":
        return "composite"
    if is_scalar_loop(sop):
        return "scalar_loop"
    if name in SCALAR_OPS:
        return SCALAR_OPS[name]
    aliases = _read_names()[2]
    return aliases.get(name) or aliases.get(str(sop)) or name.lower()


def is_scalar_loop(sop):
    return any(c.__name__ == "ScalarLoop" for c in type(sop).__mro__)


def scalar_params(sop):
    """{"scalar_op": key, ...its own params} of a scalar op (scalar_key: every scalar op has one)."""
    key = scalar_key(sop)
    p = {"scalar_op": key}
    extra = SCALAR_PROPS.get(type(sop).__name__)
    if extra:
        p.update(extra(sop))
    if key == "scalar_loop":
        p["class"] = type(sop).__name__
        p["is_while"] = bool(sop.is_while)
    return p


def prop_json(v, op_entry=None):
    """A prop value as JSON. `op_entry(op)` gives (kind, params) of a nested op (a Blockwise's
    core op); the graph writer passes its own, so a core op is written as the same op at top
    level is (default: op_json)."""
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        x = float(v)
        if math.isnan(x):
            return "nan"
        return ("inf" if x > 0 else "-inf") if math.isinf(x) else x
    if isinstance(v, np.dtype) or isinstance(v, type) and issubclass(v, np.generic):
        return str(np.dtype(v))
    if isinstance(v, slice):
        return [prop_json(v.start), prop_json(v.stop), prop_json(v.step)]
    if isinstance(v, (frozenset, set)):
        return sorted((prop_json(x, op_entry) for x in v), key=repr)
    if isinstance(v, (tuple, list)):
        return [prop_json(x, op_entry) for x in v]
    if isinstance(v, Mapping):  # dict, PyTensor's frozendict
        return {str(k): prop_json(x, op_entry) for k, x in v.items()}
    if isinstance(v, np.ndarray):
        return [prop_json(x, op_entry) for x in v.tolist()]
    if hasattr(v, "nin") and hasattr(v, "impl") and hasattr(v, "output_types"):  # a ScalarOp
        return scalar_key(v)
    if hasattr(v, "make_node"):  # an Op (a Blockwise's core op)
        kind, params = (op_entry or op_json)(v)
        return {"kind": kind, "params": params}
    if hasattr(v, "dtype") and hasattr(v, "ndim"):  # a Type
        return str(v)
    return str(v)


def alias_json(m):
    return {str(o): [int(i) for i in ins] for o, ins in sorted((m or {}).items())}


def op_json(op, op_entry=None):
    """(kind, params) of an op under its PyTensor class name: its __props__ as JSON, with its
    destroy_map / view_map where it has them; nested ops by `op_entry` (prop_json)."""
    kind = type(op).__name__
    params = {}
    for name in getattr(type(op), "__props__", ()) or ():
        if name in ("fgraph", "output_types_preference"):
            continue
        params[name] = prop_json(getattr(op, name, None), op_entry)
    for name in GRAPH_OP_ATTRS.get(kind, ()):
        if hasattr(op, name):
            params[name] = prop_json(getattr(op, name))
    if kind == "Blockwise":
        params["signature"] = str(op.signature)
        params["name"] = getattr(op, "name", None)
    if kind == "OpFromGraph":
        params["inline"] = bool(getattr(op, "is_inline", False))
    for key in ("destroy_map", "view_map"):
        m = getattr(op, key, None)
        if m:
            params[key] = alias_json(m)
    return kind, params


def careduce_json(op):
    """(kind, params) of a CAReduce (Sum, Max, Min, All, Any, Prod, CAReduce{...}) written
    under its class name: scalar_op, axis (null: all), dtype, acc_dtype."""
    kind = type(op).__name__
    sp = scalar_params(op.scalar_op)
    params = {"scalar_op": sp["scalar_op"] if sp else str(op.scalar_op),
              "axis": None if op.axis is None else [int(a) for a in op.axis]}
    for name in ("dtype", "acc_dtype"):
        params[name] = prop_json(getattr(op, name, None))
    for name in ("upcast_discrete_output", "no_zeros_in_input"):
        if name in (getattr(type(op), "__props__", ()) or ()):
            params[name] = prop_json(getattr(op, name))
    return kind, params
