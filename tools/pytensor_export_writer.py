"""The graph writer of tools/pytensor_export.py: types, values, and one node per Apply
(tensorlens's op families, Scan and Composite with their inner graphs, other ops under
their PyTensor names by pytensor_export_ops, Opaque where nothing fits); types and
values are pytensor_export_types's."""

import pytensor.scalar as ps
from pytensor.compile.sharedvalue import SharedVariable
from pytensor.graph.basic import Constant
from pytensor.graph.fg import FunctionGraph

from pytensor_export_ops import careduce_json, is_scalar_loop as _is_scalar_loop, op_json, scalar_params, \
    tensorlens_names
from pytensor_export_types import DTYPES, RANDOM_NOTE, DTypeError, ExportError, _check_dtype, _supported_type, \
    _type_json, _value_json, _written_type  # noqa: F401 (DTYPES, DTypeError: re-exported)


# ---------------------------------------------------------------- ops

def _class(op):
    return type(op).__name__


def _scalar_params(sop):
    return scalar_params(sop)


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


# PyTensor's CAReduce classes, all written as tensorlens's Reduce (engine/ops/Reduce.h).
REDUCE_CLASSES = ("Sum", "Max", "Prod", "Min", "All", "Any", "ProdWithoutZeros", "CAReduce")


PLACEHOLDER = {"kind": "tensor", "dtype": "int8", "shape": []}  # an Opaque output of a type tensorlens lacks


class _Writer:
    """Writes one graph body; inner graphs get writers of their own (ids are per graph).
    `opaque_unknown`: write ops the tensorlens checkout beside this file lacks as Opaque."""

    def __init__(self, notes, scalar=False, opaque_unknown=False):
        self.notes = notes
        self.scalar = scalar  # a Composite body: every node is a scalar op
        self.opaque_unknown = opaque_unknown
        self.var_ids = {}
        self.node_ids = {}
        self.next_var = 0
        self.next_node = 0
        self.constants = []
        self.nodes = []
        self.dropped = set()  # inputs and constants of types not written (random generators)
        self.placeholders = set()  # outputs written as PLACEHOLDER

    def _new_var(self, v):
        self.var_ids[v] = self.next_var
        self.next_var += 1
        return self.var_ids[v]

    def _written(self, v):
        _check_dtype(v)
        return _written_type(v.type, self.opaque_unknown)

    def _ref(self, v):
        if self._written(v):
            t = _type_json(v.type)
        else:
            t = PLACEHOLDER
            self.placeholders.add(v)
        j = {"id": self.var_ids[v], "type": t}
        if v.name:
            j["name"] = str(v.name)
        return j

    def _constant_json(self, v):
        """The constant's entry, or None for a constant of a type not written."""
        if not self._written(v):
            self.dropped.add(v)
            return None
        vid = self._new_var(v)
        c = {"id": vid, "type": _type_json(v.type)}
        if v.name:
            c["name"] = str(v.name)
        kind = c["type"]["kind"]
        if kind == "slice":
            c["data"] = [None if x is None else int(x) for x in (v.data.start, v.data.stop, v.data.step)]
        elif kind == "none":
            c["data"] = None
        else:
            c.update(_value_json(v.data, str(v.type.dtype)))
        return c

    def _input_id(self, v):
        if v in self.dropped:
            return None
        if v not in self.var_ids:
            if not isinstance(v, Constant):
                raise ExportError(f"variable {v} is used but neither an input, a constant nor computed in the graph")
            c = self._constant_json(v)
            if c is None:
                return None
            self.constants.append(c)
        return self.var_ids[v]

    def body(self, inputs, outputs, order):
        ins = []
        for v in inputs:
            if not self._written(v):
                self.dropped.add(v)
                self.notes.append(f"graph input {v} ({v.type}): not written (a type tensorlens lacks)")
                continue
            self._new_var(v)
            ref = self._ref(v)
            if isinstance(v, SharedVariable):  # pytensor.shared, pm.Data: the value it holds now
                ref["value"] = _value_json(v.get_value(borrow=True), str(v.type.dtype))
            ins.append(ref)
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

    def node_json(self, node, input_id):
        """The node's entry (its outputs get ids); `input_id(v)` gives an input's id or None."""
        inputs = [input_id(v) for v in node.inputs]
        bad = any(i is None for i in inputs) or any(v in self.placeholders for v in node.inputs)
        op, params, inner = self._op(node, bad)
        j = {"id": self.next_node, "op": op, "params": params, "inputs": [i for i in inputs if i is not None]}
        self.node_ids[node] = self.next_node
        self.next_node += 1
        if inner is not None:
            j["inner"] = inner
        outs = []
        for v in node.outputs:
            self._new_var(v)
            outs.append(self._ref(v))
        j["outputs"] = outs
        return j

    def _node(self, node):
        self.nodes.append(self.node_json(node, self._input_id))

    def op_entry(self, node):
        """(op, params, inner) of a node whose inputs are already written."""
        bad = any(v in self.dropped or v in self.placeholders for v in node.inputs)
        return self._op(node, bad)

    def _opaque(self, node, why):
        self.notes.append(f"{node.op}: exported as Opaque ({why})")
        p = {"name": str(node.op), "output_types": []}
        if why == RANDOM_NOTE or _draws_random_numbers(node.op):
            p["random"] = True  # running it says so by name (docs/pytensor-export.md)
        for v in node.outputs:
            p["output_types"].append(_type_json(v.type) if self._written(v) else PLACEHOLDER)
        for key in ("destroy_map", "view_map"):
            m = getattr(node.op, key, None) or {}
            if m:
                p[key] = {str(o): [int(i) for i in ins] for o, ins in m.items()}
        return "Opaque", p, None

    def _op(self, node, bad_inputs=False):
        if self.scalar:  # a node of a Composite body
            return self._scalar_op(node.op)
        if any(c.__name__ == "RandomVariable" for c in type(node.op).__mro__):
            return self._opaque(node, RANDOM_NOTE)
        if bad_inputs or not all(self._written(v) for v in node.outputs):
            return self._opaque(node, "a type tensorlens cannot hold")
        try:
            r = self._known_op(node)
        except DTypeError:
            raise
        except ExportError:  # not as tensorlens's family: under its PyTensor name
            r = None
        if r is None:
            try:
                r = self._new_op(node.op)
            except DTypeError:
                raise
            except ExportError as e:
                return self._opaque(node, str(e))
        missing = _missing_names(r)
        if missing:
            if self.opaque_unknown:
                return self._opaque(node, f"this tensorlens lacks {missing}")
            self.notes.append(f"{node.op}: written as {missing}, which this tensorlens lacks")
        return r

    def _op_of(self, op):
        """(op, params, inner) of an op without its node (a Blockwise's core op), exactly as
        the same op is written at top level: tensorlens's family, else its PyTensor name."""
        try:
            r = self._family(op)
        except DTypeError:
            raise
        except ExportError:
            r = None
        return r if r is not None else self._new_op(op)

    def _scalar_op(self, sop):
        """A scalar op as a "Scalar" node: the nodes of a Composite body, and scalar ops
        PyTensor applies outside one (ps.neg(1) from local_fill_to_alloc)."""
        sp = _scalar_params(sop)
        nested = sp["scalar_op"] in ("composite", "scalar_loop")  # a Composite inside a Composite
        return "Scalar", sp, _scalar_body(sop, self.notes) if nested else None

    def _new_op(self, op):
        """Ops under their PyTensor class names (pytensor_export_ops)."""
        if any(c.__name__ == "CAReduce" for c in type(op).__mro__):
            kind, params = careduce_json(op)
            inner = _scalar_body(op.scalar_op, self.notes) if params["scalar_op"] == "composite" else None
            return kind, params, inner
        if _class(op) == "Scan":
            raise ExportError("a Scan whose types tensorlens cannot hold")
        nested_inner = []

        def nested(core):  # a Blockwise's core op: as at top level; its inner graph is the node's
            kind, params, inner = self._op_of(core)
            if inner is not None:
                nested_inner.append(inner)
            return kind, params

        kind, params = op_json(op, nested)
        inner = nested_inner[0] if len(nested_inner) == 1 else None
        fg = getattr(op, "fgraph", None)
        # An OpFromGraph that ran has compiled its inner graph (op._fn): that rewritten
        # graph is what it computes, and what pytensor.dprint prints.
        compiled = getattr(op, "_fn", None)
        if isinstance(fg, FunctionGraph) and compiled is not None:
            fg = compiled.maker.fgraph
        if isinstance(fg, FunctionGraph):  # OpFromGraph and other inner-graph ops
            inner = _Writer(self.notes, opaque_unknown=self.opaque_unknown).body(fg.inputs, fg.outputs, fg.toposort())
            known = tensorlens_names()
            if known is not None and kind not in known[0] and _is_op_from_graph(op):
                # A subclass tensorlens has no kind for (Einsum, a library's own): its inner
                # graph is what it computes, so it runs as an OpFromGraph under its class name.
                self.notes.append(f"{op}: written as OpFromGraph '{kind}' with its inner graph")
                graph_params = {"name": kind, "inline": bool(getattr(op, "is_inline", False))}
                if kind == "Einsum":  # its attributes decide whether specialize inlines it
                    graph_params.update({k: params[k] for k in ("subscripts", "path", "optimized") if k in params})
                return "OpFromGraph", graph_params, inner
        return kind, params, inner

    def _known_op(self, node):
        """The node as one of tensorlens's op families (_family), or None; ExportError where
        its types or inputs do not fit the family."""
        if any(not _supported_type(v.type) for v in list(node.inputs) + list(node.outputs)):
            raise ExportError("a type tensorlens cannot hold")
        return self._family(node.op)

    def _family(self, op):
        """(op, params, inner) of an op as one of tensorlens's op families, or None. Used for
        nodes and for ops nested in others (a Blockwise's core op), so both are written alike."""
        name = _class(op)
        if isinstance(op, ps.ScalarOp):
            return self._scalar_op(op)
        if name == "Elemwise":
            sop = op.scalar_op
            p = dict(_scalar_params(sop))  # a scalar op tensorlens lacks too: under its key, which loading names
            inner = _scalar_body(sop, self.notes) if _class(sop) == "Composite" or _is_scalar_loop(sop) else None
            if op.inplace_pattern:
                p["inplace_pattern"] = {str(o): int(i) for o, i in op.inplace_pattern.items()}
            return "Elemwise", p, inner
        if name == "DimShuffle":
            return "DimShuffle", {"input_ndim": int(op.input_ndim), "new_order": [o if o == "x" else int(o) for o in op.new_order]}, None
        if name == "Unbroadcast":
            return "Unbroadcast", {"axes": sorted(int(a) for a in op.axes)}, None
        if name in ("SpecifyShape", "Shape", "Join", "Dot", "Alloc", "DeepCopyOp", "ScalarFromTensor", "TensorFromScalar"):
            return name, {}, None
        if name == "Shape_i":
            return "Shape_i", {"i": int(op.i)}, None
        if name == "Reshape":
            return "Reshape", {"ndim": int(op.ndim)}, None
        if name in REDUCE_CLASSES:
            return self._reduce(op)
        if name == "Subtensor":
            return "Subtensor", {"idx_list": _idx_list(op.idx_list)}, None
        if name == "IncSubtensor":
            return "IncSubtensor", {"idx_list": _idx_list(op.idx_list),
                                    "set_instead_of_inc": bool(op.set_instead_of_inc), "inplace": bool(op.inplace)}, None
        if name in ("AllocEmpty", "MakeVector"):
            return name, {"dtype": str(op.dtype)}, None
        if name == "Assert":
            return "Assert", {"msg": str(op.msg)}, None
        mro = [c.__name__ for c in type(op).__mro__]
        if "CheckAndRaise" in mro:  # PyMC's CheckParameterValue among them
            return "CheckAndRaise", {"exc_type": op.exc_type.__name__, "msg": str(op.msg)}, None
        if "ViewOp" in mro:  # ZeroGrad, DisconnectedGrad, GradClip, GradScale, OutputGuard
            return "ViewOp", {"name": name}, None
        if name == "Print":
            return "Print", {"message": str(op.message), "attrs": [str(a) for a in op.attrs]}, None
        if name == "Scan":
            return self._scan(op)
        return None

    def _reduce(self, op):
        """A CAReduce (Sum, Max, Min, All, Any, Prod, ProdWithoutZeros, CAReduce{...}) as
        tensorlens's Reduce: its class as "op", its axes, dtype and acc_dtype where PyTensor
        set them, and for CAReduce its scalar op (a Composite's body as the node's inner)."""
        name = _class(op)
        axis = getattr(op, "axis", None)
        p = {"op": name, "axes": None if axis is None else [int(a) for a in axis]}
        inner = None
        if name == "CAReduce":
            sop = op.scalar_op
            if _class(sop) == "Composite":
                p["scalar_op"] = "composite"
                inner = _scalar_body(sop, self.notes)
            else:
                sp = _scalar_params(sop)
                if sp is None or len(sp) > 1:
                    raise ExportError(f"a CAReduce of {sop}")
                p["scalar_op"] = sp["scalar_op"]
        for key in ("dtype", "acc_dtype"):
            value = getattr(op, key, None)
            if value is not None:
                p[key] = str(value)
        if name == "Prod" and getattr(op, "no_zeros_in_input", False):
            p["no_zeros_in_input"] = True
        return "Reduce", p, inner

    def _scan(self, op):
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
        inner = _Writer(self.notes, opaque_unknown=self.opaque_unknown).body(
            inner_fg.inputs, inner_fg.outputs, inner_fg.toposort())
        return "Scan", params, inner


def _is_random_variable(op):
    return any(c.__name__ == "RandomVariable" for c in type(op).__mro__)


def _draws_random_numbers(op):
    """A random variable, or an op whose inner graph (a Scan's loop) holds one."""
    if _is_random_variable(op):
        return True
    fg = getattr(op, "fgraph", None)
    if not isinstance(fg, FunctionGraph):
        return False
    stack = list(fg.apply_nodes)
    while stack:
        n = stack.pop()
        if _is_random_variable(n.op):
            return True
        inner = getattr(n.op, "fgraph", None)
        if isinstance(inner, FunctionGraph):
            stack.extend(inner.apply_nodes)
    return False


def _is_op_from_graph(op):
    return any(c.__name__ == "OpFromGraph" for c in type(op).__mro__)


def _missing_names(r):
    """What of an op's (kind, params, inner) the tensorlens checkout beside this file lacks:
    "op kind 'Softmax'", "scalar op 'gammaln'", or "" (also where there is no checkout)."""
    return ", ".join(_missing_list(r))


def _missing_list(r):
    known = tensorlens_names()
    if known is None:
        return []
    kinds, scalars = known
    kind, params, inner = r
    missing = [] if kind in kinds else [f"op kind '{kind}'"]
    core = params.get("core_op") if kind == "Blockwise" else None
    if isinstance(core, dict):  # written as at top level, with the node's inner graph
        missing += [m for m in _missing_list((core.get("kind"), core.get("params") or {}, inner)) if m not in missing]
    keys = set()
    if kind in ("Elemwise", "Scalar") or "scalar_op" in params:
        keys.add(params.get("scalar_op"))
    stack = [inner] if params.get("scalar_op") in ("composite", "scalar_loop") and inner else []
    while stack:  # scalar bodies, nested ones too
        for n in stack.pop().get("nodes", []):
            keys.add(n["params"].get("scalar_op"))
            if "inner" in n:
                stack.append(n["inner"])
    keys.discard("composite")
    missing += [f"scalar op '{k}'" for k in sorted(k for k in keys if k and k not in scalars)]
    return missing


def _scalar_body(composite, notes):
    fg = composite.fgraph
    return _Writer(notes, scalar=True).body(fg.inputs, fg.outputs, fg.toposort())
