#!/usr/bin/env python3
"""Write a PyTensor graph as a tensorlens JSON graph (docs/graph-format.md).

Pure Python over PyTensor's public API: Variables, Apply nodes, Ops and their
attributes, FunctionGraph, Function.maker.fgraph. Usage (see docs/pytensor-export.md):

    import pytensor, pytensor.tensor as pt
    from pytensor_export import export_graph, save_graph, record_rewrites

    x = pt.vector("x", shape=(7,))
    y = pt.exp(x) - 5
    save_graph([y], "graph.json")                       # a list of output variables
    f = pytensor.function([x], y)
    save_graph(f, "compiled.json")                       # a compiled function's graph
    save_graph(f.maker.fgraph, "compiled.json")          # or any FunctionGraph
    trace = record_rewrites([x], [y], mode="FAST_RUN")   # the rewrites, as a tensorlens trace
    save_trace(trace, "trace.json")

Ops tensorlens knows are written as their op family with parameters, Scan and
Composite with their inner graphs; any other op becomes an "Opaque" node (drawn
and printed by tensorlens, not executed). Graph inputs keep their names, so
`tensorlens run --inputs` can feed them by name.

Command line:  python3 pytensor_export.py MODULE.py -o OUT.json
               (MODULE.py defines `outputs` (a list of variables) or `graph`)
"""

import json
import math
import sys

import numpy as np

import pytensor
import pytensor.scalar as ps
from pytensor.compile.function.types import Function
from pytensor.graph.basic import Constant, Variable
from pytensor.graph.fg import FunctionGraph

try:  # PyTensor >= 2.26 moved the traversal helpers
    from pytensor.graph.traversal import io_toposort
except ImportError:  # pragma: no cover
    from pytensor.graph.basic import io_toposort

__all__ = ["export_graph", "graph_json_text", "save_graph", "record_rewrites", "save_trace", "ExportError"]

FORMAT = "tensorlens-graph"
VERSION = 1
DTYPES = {"bool", "int8", "int16", "int32", "int64", "uint8", "float32", "float64"}

# PyTensor scalar op classes -> tensorlens scalar op keys (engine/ops/ScalarOps.def).
SCALAR_OPS = {
    "Add": "add", "Sub": "sub", "Mul": "mul", "TrueDiv": "true_div", "IntDiv": "int_div", "Mod": "mod",
    "Neg": "neg", "Abs": "abs", "Exp": "exp", "Log": "log", "Log1p": "log1p", "Expm1": "expm1",
    "Sqrt": "sqrt", "Sqr": "sqr", "Sin": "sin", "Cos": "cos", "Tanh": "tanh", "Sigmoid": "sigmoid",
    "Softplus": "softplus", "Pow": "pow", "ScalarMaximum": "maximum", "ScalarMinimum": "minimum",
    "Maximum": "maximum", "Minimum": "minimum", "EQ": "eq", "NEQ": "neq", "LT": "lt", "LE": "le",
    "GT": "gt", "GE": "ge", "AND": "and", "OR": "or", "XOR": "xor", "Invert": "invert",
    "Switch": "switch", "Identity": "identity", "Cast": "cast",
}


class ExportError(ValueError):
    """A graph tensorlens's format cannot hold (e.g. a dtype it lacks)."""


# ---------------------------------------------------------------- values and types

def _type_json(t):
    dtype = str(t.dtype)
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
    try:
        _type_json(t)
        return True
    except ExportError:
        return False


# ---------------------------------------------------------------- ops

def _class(op):
    return type(op).__name__


def _scalar_params(sop):
    key = SCALAR_OPS.get(_class(sop))
    if key is None:
        return None
    p = {"scalar_op": key}
    if key == "cast":
        p["dtype"] = str(sop.o_type.dtype)
    return p


def _idx_list(idx_list):
    out = []
    for e in idx_list:
        if isinstance(e, slice):
            start, stop, step = e.start is not None, e.stop is not None, e.step is not None
            if step:
                out.append(("start" if start else "") + ":" + ("stop" if stop else "") + ":step")
            elif stop:
                out.append(("start" if start else "") + ":stop")
            else:
                out.append("start:" if start else ":")
        else:
            out.append("index")
    return out


def _reduce_dtype_ok(kind, node):
    """tensorlens's Reduce output dtype (engine/ops/Reduce.cpp) must be PyTensor's."""
    ind, outd = str(node.inputs[0].type.dtype), str(node.outputs[0].type.dtype)
    if kind == "Max":
        return ind == outd
    want = "int64" if ind in ("bool", "int8", "int16", "int32", "uint8") else ind
    return outd == want


class _Writer:
    """Writes one graph body; inner graphs get writers of their own (ids are per graph)."""

    def __init__(self, notes, scalar=False):
        self.notes = notes
        self.scalar = scalar  # a Composite body: every node is a scalar op
        self.var_ids = {}
        self.node_ids = {}
        self.next_var = 0
        self.next_node = 0
        self.constants = []
        self.nodes = []

    def _new_var(self, v):
        self.var_ids[v] = self.next_var
        self.next_var += 1
        return self.var_ids[v]

    def _ref(self, v):
        j = {"id": self.var_ids[v], "type": _type_json(v.type)}
        if v.name:
            j["name"] = str(v.name)
        return j

    def _input_id(self, v):
        if v not in self.var_ids:
            if not isinstance(v, Constant):
                raise ExportError(f"variable {v} is used but neither an input, a constant nor computed in the graph")
            vid = self._new_var(v)
            c = {"id": vid, "type": _type_json(v.type)}
            if v.name:
                c["name"] = str(v.name)
            c.update(_value_json(v.data, str(v.type.dtype)))
            self.constants.append(c)
        return self.var_ids[v]

    def body(self, inputs, outputs, order):
        ins = []
        for v in inputs:
            self._new_var(v)
            ins.append(self._ref(v))
        for node in order:
            self._node(node)
        return {
            "inputs": ins,
            "constants": self.constants,
            "nodes": self.nodes,
            "outputs": [self._input_id(v) for v in outputs],
            "next_node_id": self.next_node,
            "next_var_id": self.next_var,
        }

    def _node(self, node):
        inputs = [self._input_id(v) for v in node.inputs]
        op, params, inner = self._op(node)
        j = {"id": self.next_node, "op": op, "params": params, "inputs": inputs}
        self.node_ids[node] = self.next_node
        self.next_node += 1
        if inner is not None:
            j["inner"] = inner
        outs = []
        for v in node.outputs:
            self._new_var(v)
            outs.append(self._ref(v))
        j["outputs"] = outs
        self.nodes.append(j)

    def _opaque(self, node, why):
        self.notes.append(f"{node.op}: exported as Opaque ({why})")
        p = {"name": str(node.op), "output_types": []}
        for v in node.outputs:
            p["output_types"].append(_type_json(v.type) if _supported_type(v.type) else {"kind": "tensor", "dtype": "int8", "shape": []})
        for key in ("destroy_map", "view_map"):
            m = getattr(node.op, key, None) or {}
            if m:
                p[key] = {str(o): [int(i) for i in ins] for o, ins in m.items()}
        return "Opaque", p, None

    def _op(self, node):
        if self.scalar:
            sp = _scalar_params(node.op)
            if sp is None:
                raise ExportError(f"the scalar op {node.op} has no tensorlens counterpart")
            return "Scalar", sp, None
        try:
            r = self._known_op(node)
        except ExportError as e:
            return self._opaque(node, str(e))
        return r if r is not None else self._opaque(node, "tensorlens has no such op")

    def _known_op(self, node):
        op = node.op
        name = _class(op)
        if any(not _supported_type(v.type) for v in list(node.inputs) + list(node.outputs)):
            raise ExportError("a type tensorlens cannot hold")
        if name == "Elemwise":
            sop = op.scalar_op
            p = {}
            inner = None
            if _class(sop) == "Composite":
                p["scalar_op"] = "composite"
                inner = _scalar_body(sop, self.notes)
            else:
                sp = _scalar_params(sop)
                if sp is None:
                    return None
                p.update(sp)
            if op.inplace_pattern:
                p["inplace_pattern"] = {str(o): int(i) for o, i in op.inplace_pattern.items()}
            return "Elemwise", p, inner
        if name == "DimShuffle":
            return "DimShuffle", {"input_ndim": int(op.input_ndim), "new_order": [o if o == "x" else int(o) for o in op.new_order]}, None
        if name == "Unbroadcast":
            return "Unbroadcast", {"axes": sorted(int(a) for a in op.axes)}, None
        if name == "SpecifyShape":
            if any(isinstance(v, Constant) and v.data is None for v in node.inputs[1:]) or any(
                _class(v.type) == "NoneTypeT" for v in node.inputs[1:]
            ):
                raise ExportError("SpecifyShape with None dims")
            return "SpecifyShape", {}, None
        if name in ("Shape", "Join", "Dot", "Alloc", "DeepCopyOp", "ScalarFromTensor", "TensorFromScalar"):
            return name, {}, None
        if name == "Dot22":  # BLAS matrix product: the same values as Dot (printed "Dot" by tensorlens)
            self.notes.append("Dot22 exported as Dot")
            return "Dot", {}, None
        if name == "Shape_i":
            return "Shape_i", {"i": int(op.i)}, None
        if name == "Reshape":
            return "Reshape", {"ndim": int(op.ndim)}, None
        if name in ("Sum", "Max", "Prod"):
            if not _reduce_dtype_ok(name, node):
                raise ExportError("its output dtype differs from tensorlens's rule")
            axis = getattr(op, "axis", None)
            return "Reduce", {"op": name, "axes": None if axis is None else [int(a) for a in axis]}, None
        if name == "Subtensor":
            return "Subtensor", {"idx_list": _idx_list(op.idx_list)}, None
        if name == "IncSubtensor":
            return "IncSubtensor", {"idx_list": _idx_list(op.idx_list),
                                    "set_instead_of_inc": bool(op.set_instead_of_inc), "inplace": bool(op.inplace)}, None
        if name in ("AllocEmpty", "MakeVector"):
            return name, {"dtype": str(op.dtype)}, None
        if name == "Assert":
            return "Assert", {"msg": str(op.msg)}, None
        if name == "Scan":
            return self._scan(node)
        return None

    def _scan(self, node):
        op = node.op
        info = op.info
        if info.n_mit_mot:
            mm_in = [[int(t) for t in s] for s in info.mit_mot_in_slices]
            mm_out = [[int(t) for t in s] for s in info.mit_mot_out_slices]
        else:
            mm_in, mm_out = [], []
        j_info = {
            "n_seqs": int(info.n_seqs),
            "mit_mot_in_taps": mm_in,
            "mit_mot_out_taps": mm_out,
            "mit_sot_taps": [[int(t) for t in s] for s in info.mit_sot_in_slices],
            "n_sit_sot": int(info.n_sit_sot),
            "n_nit_sot": int(info.n_nit_sot),
            "n_untraced": int(getattr(info, "n_shared_outs", getattr(info, "n_untraced_sit_sot_outs", 0))),
            "n_non_seqs": int(info.n_non_seqs),
            "as_while": bool(info.as_while),
        }
        n_traced = info.n_mit_mot + info.n_mit_sot + info.n_sit_sot
        inplace = sorted(int(o) for o in (op.destroy_map or {}) if int(o) < n_traced)
        params = {"name": str(op.name), "info": j_info, "inplace": inplace}
        inner_fg = op.fgraph
        inner = _Writer(self.notes).body(inner_fg.inputs, inner_fg.outputs, inner_fg.toposort())
        return "Scan", params, inner


def _scalar_body(composite, notes):
    fg = composite.fgraph
    return _Writer(notes, scalar=True).body(fg.inputs, fg.outputs, fg.toposort())


# ---------------------------------------------------------------- entry points

def _graph_of(obj):
    """(inputs, outputs, order) of a Function, FunctionGraph, Variable or list of Variables."""
    if isinstance(obj, Function):
        obj = obj.maker.fgraph
    if isinstance(obj, FunctionGraph):
        return list(obj.inputs), list(obj.outputs), obj.toposort()
    outputs = [obj] if isinstance(obj, Variable) else list(obj)
    order = io_toposort([], outputs)
    seen, inputs = set(), []
    for node in order:
        for v in node.inputs:
            if v.owner is None and not isinstance(v, Constant) and v not in seen:
                seen.add(v)
                inputs.append(v)
    for v in outputs:
        if v.owner is None and not isinstance(v, Constant) and v not in seen:
            seen.add(v)
            inputs.append(v)
    return inputs, outputs, order


def export_graph(obj, notes=None):
    """The tensorlens graph document (a dict) of a list of output variables, a
    FunctionGraph or a compiled Function. `notes` (a list) collects what was
    exported as Opaque."""
    notes = [] if notes is None else notes
    inputs, outputs, order = _graph_of(obj)
    body = _Writer(notes).body(inputs, outputs, order)
    return {"format": FORMAT, "version": VERSION, "graph": body}


def graph_json_text(obj, notes=None):
    return json.dumps(export_graph(obj, notes), indent=2, sort_keys=True) + "\n"


def save_graph(obj, path, notes=None):
    with open(path, "w") as f:
        f.write(graph_json_text(obj, notes))


def main(argv):
    import argparse
    import runpy

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("module", help="a Python file defining `outputs` (list of variables) or `graph`")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--trace", help="also record the FAST_RUN rewrites of `inputs` -> `outputs` as a trace")
    a = ap.parse_args(argv)
    ns = runpy.run_path(a.module)
    obj = ns.get("graph", ns.get("outputs"))
    if obj is None:
        ap.error(f"{a.module} defines neither `graph` nor `outputs`")
    notes = []
    save_graph(obj, a.output, notes)
    if a.trace:
        from pytensor_export_trace import record_rewrites, save_trace
        save_trace(record_rewrites(ns["inputs"], ns["outputs"], notes=notes), a.trace)
    for n in notes:
        print("note:", n, file=sys.stderr)
    return 0


def record_rewrites(*args, **kwargs):  # re-exported from pytensor_export_trace
    from pytensor_export_trace import record_rewrites as r
    return r(*args, **kwargs)


def save_trace(*args, **kwargs):
    from pytensor_export_trace import save_trace as s
    return s(*args, **kwargs)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
