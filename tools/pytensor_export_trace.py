#!/usr/bin/env python3
"""Record the rewrites PyTensor applies while compiling a graph, as a tensorlens
rewrite trace (docs/trace-format.md). Part of tools/pytensor_export.py.

How: the graph is set up as `pytensor.function` sets it up (`std_fgraph`), a
recording `Feature` is attached to the FunctionGraph (the public hook PyTensor's
own History and DestroyHandler use), the mode's rewriter runs, and
`insert_deepcopy` follows, as in `FunctionMaker`. The Feature sees every
primitive change PyTensor makes:

    on_import(node)               -> add_constant (new constants) + create_node
    on_change_input(node, i, ...) -> set_input, or set_output for graph outputs
    on_prune(node)                -> erase_node

A step ends at each `validate` (PyTensor validates after every replacement it
commits); consecutive changes with the same reason form one step, named by the
rewrite that made it (`reason`). Reverted changes (a rewrite that failed
validation) are recorded as the edits that undo them, so the trace replays to
the same graph. Not recorded: PyTensor's phase names (every step's phase is
"pytensor"), match failures, and timing beyond the wall time of each step.
"""

import json
import time

from pytensor import config
from pytensor.compile.function.types import insert_deepcopy, std_fgraph
from pytensor.compile.io import In, Out
from pytensor.compile.mode import get_mode
from pytensor.graph.basic import Constant
from pytensor.compile.sharedvalue import SharedVariable
from pytensor.graph.features import Feature

try:  # PyTensor >= 2.26 has graph_inputs in pytensor.graph.traversal
    from pytensor.graph.traversal import graph_inputs
except ImportError:  # pragma: no cover
    from pytensor.graph.basic import graph_inputs

from pytensor_export import ExportError, _Writer

__all__ = ["record_rewrites", "save_trace", "trace_json_text"]


def _is_output(node):
    """PyTensor >= 2.31 holds graph outputs as `Output` nodes (older: the string "output")."""
    return node == "output" or type(getattr(node, "op", None)).__name__ == "Output"


def _reason_name(reason):
    if reason is None:
        return "unknown"
    if isinstance(reason, str):
        return reason
    for attr in ("name", "__name__"):
        v = getattr(reason, attr, None)
        if isinstance(v, str) and v:
            return v
    fn = getattr(reason, "fn", None)
    if fn is not None and getattr(fn, "__name__", None):
        return fn.__name__
    return str(reason)[:80]


class _Recorder(Feature):
    def __init__(self, notes, opaque_unknown=False):
        self.notes = notes
        self.opaque_unknown = opaque_unknown
        self.w = None
        self.original = None
        self.steps = []
        self.cur = None

    def on_attach(self, fgraph):
        self.w = _Writer(self.notes, opaque_unknown=self.opaque_unknown)
        order = fgraph.toposort()
        self.original = self.w.body(fgraph.inputs, fgraph.outputs, order)
        self.ops = {}  # node id -> the op as last recorded (inner graphs are rewritten in place)
        for node in order:
            self.ops[self.w.node_ids[node]] = self._op_json(node)

    def _op_json(self, node):
        op, params, inner = self.w.op_entry(node)
        j = {"op": op, "params": params}
        if inner is not None:
            j["inner"] = inner
        return j

    def finish(self, fgraph):
        """PyTensor rewrites Scan and Composite bodies inside their op (scan inner
        rewrites, inplace): one last step swaps in the ops as they ended up."""
        self._close()
        for node in fgraph.toposort():
            nid = self.w.node_ids.get(node)
            if nid is None or not getattr(node.op, "fgraph", None) and type(node.op).__name__ != "Elemwise":
                continue
            now = self._op_json(node)
            if now != self.ops.get(nid):
                self._edits("scan inner function (compiled when linking)").append({"kind": "set_op", "node": nid, "op_before": self.ops[nid], "op_after": now})
                self.ops[nid] = now
        self._close()

    # ---- steps
    def _edits(self, reason):
        name = _reason_name(reason)
        if self.cur is None or self.cur["rewrite"] != name:
            self._close()
            self.cur = {"phase": "pytensor", "rewrite": name, "edits": [], "prunes": [], "t0": time.perf_counter()}
        return self.cur["edits"]

    def _close(self):
        if self.cur is not None:
            # PyTensor prunes a node as soon as its last client goes, which is before it
            # reports that client's change: the erasures go last, in PyTensor's order.
            self.cur["edits"].extend(self.cur.pop("prunes"))
        if self.cur is not None and self.cur["edits"]:
            seconds = time.perf_counter() - self.cur.pop("t0")
            self.cur["seconds"] = seconds
            self.cur["index"] = len(self.steps)
            self.steps.append(self.cur)
        self.cur = None

    def validate(self, fgraph):
        self._close()

    # ---- primitive changes
    def _var(self, v, edits):
        w = self.w
        if v in w.var_ids:
            return w.var_ids[v]
        if v in w.dropped:
            return None
        if not isinstance(v, Constant):
            raise ExportError(f"variable {v} appears without being imported")
        c = w._constant_json(v)
        if c is None:  # a type that is not written (only Opaque nodes read it)
            return None
        edits.append({"kind": "add_constant", "constant": c})
        return c["id"]

    def on_import(self, fgraph, node, reason):
        if self.w is None or _is_output(node):
            return
        edits = self._edits(reason)
        n = self.w.node_json(node, lambda v: self._var(v, edits))
        self.ops[n["id"]] = {k: n[k] for k in ("op", "params", "inner") if k in n}
        edits.append({"kind": "create_node", "node": n})

    def on_change_input(self, fgraph, node, i, var, new_var, reason=None):
        if self.w is None:
            return
        edits = self._edits(reason)
        after = self._var(new_var, edits)
        before = self.w.var_ids.get(var)
        if after is None or before is None:  # a variable of a type not written (an Opaque node's input)
            return
        if _is_output(node):
            index = int(node.op.idx) if node != "output" else int(i)
            edits.append({"kind": "set_output", "index": index, "before": before, "after": after})
        else:
            index = sum(1 for v in node.inputs[:i] if v not in self.w.dropped)  # dropped inputs are not written
            edits.append({"kind": "set_input", "node": self.w.node_ids[node], "index": index, "before": before, "after": after})

    def on_prune(self, fgraph, node, reason):
        if self.w is None or _is_output(node) or node not in self.w.node_ids:
            return
        self._edits(reason)
        self.cur["prunes"].append({"kind": "erase_node", "node": {"id": self.w.node_ids[node]}})


def record_rewrites(inputs, outputs, mode="FAST_RUN", notes=None, opaque_unknown=False):
    """The tensorlens trace (a dict) of compiling `outputs` from `inputs` with `mode`
    (a name or a Mode): the graph before rewriting and one step per committed change.
    Shared variables the outputs use are inputs, as `pytensor.function` makes them."""
    notes = [] if notes is None else notes
    # The mode's name as given; a Mode object's optimizer may print with its address,
    # which would make two exports of one program differ.
    mode_name = mode if isinstance(mode, str) else type(mode).__name__
    mode = get_mode(mode)
    ins = [In(v) for v in inputs]
    given = set(inputs)
    for v in graph_inputs(outputs):
        if isinstance(v, SharedVariable) and v not in given:
            given.add(v)
            ins.append(In(v, value=v.container, implicit=True))
    outs = [Out(v) for v in outputs]
    fgraph, _ = std_fgraph(ins, outs, accept_inplace=False, force_clone=True)
    rec = _Recorder(notes, opaque_unknown)
    fgraph.attach_feature(rec)
    with config.change_flags(mode=mode):
        mode.optimizer(fgraph)
        insert_deepcopy(fgraph, ins, outs)
        # Linking compiles each Scan's inner function, which rewrites its body in
        # place (Scan.fn): do the same, so the last step is the graph that runs.
        for node in fgraph.toposort():
            if type(node.op).__name__ == "Scan":
                node.op.fn
    rec.finish(fgraph)
    fgraph.remove_feature(rec)
    return {
        "format": "tensorlens-trace",
        "version": 1,
        "original": rec.original,
        "settings": {"source": "pytensor", "mode": mode_name},
        "steps": rec.steps,
        "failures": {},
    }


def trace_json_text(trace):
    return json.dumps(trace, indent=1, sort_keys=True) + "\n"


def save_trace(trace, path):
    with open(path, "w") as f:
        f.write(trace_json_text(trace))
