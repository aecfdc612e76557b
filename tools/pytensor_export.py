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
Composite with their inner graphs; other ops under their PyTensor class name with
their __props__ (pytensor_export_ops.py); random variables, and ops whose types
the format lacks, as "Opaque" nodes (drawn and printed by tensorlens, not
executed). Graph inputs keep their names, so `tensorlens run --inputs` can feed
them by name.

Command line:  python3 pytensor_export.py MODULE.py -o OUT.json [--trace T.json] [--opaque-unknown]
               (MODULE.py defines `outputs` (a list of variables) or `graph`)
               python3 pytensor_export.py MODULE.py --missed [--markdown | --json] [-o REPORT]
               (records `inputs` -> `outputs` and runs `tensorlens missed` on the trace)
"""

import json
import sys

from pytensor.compile.function.types import Function
from pytensor.graph.basic import Constant, Variable
from pytensor.graph.fg import FunctionGraph

try:  # PyTensor >= 2.26 moved the traversal helpers
    from pytensor.graph.traversal import io_toposort
except ImportError:  # pragma: no cover
    from pytensor.graph.basic import io_toposort

from pytensor_export_ops import SCALAR_OPS  # noqa: F401 - part of the module's interface
from pytensor_export_writer import DTYPES, RANDOM_NOTE, ExportError, _type_json, _value_json, _Writer  # noqa: F401

__all__ = ["export_graph", "graph_json_text", "save_graph", "record_rewrites", "save_trace", "ExportError"]

FORMAT = "tensorlens-graph"
VERSION = 1

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


def export_graph(obj, notes=None, opaque_unknown=False):
    """The tensorlens graph document (a dict) of a list of output variables, a
    FunctionGraph or a compiled Function. `notes` (a list) collects what was
    exported as Opaque or under a name the tensorlens checkout beside this file
    lacks; `opaque_unknown` writes those ops as Opaque instead (for a tensorlens
    that must open the graph as it is today)."""
    notes = [] if notes is None else notes
    inputs, outputs, order = _graph_of(obj)
    body = _Writer(notes, opaque_unknown=opaque_unknown).body(inputs, outputs, order)
    return {"format": FORMAT, "version": VERSION, "graph": body}


def graph_json_text(obj, notes=None, opaque_unknown=False):
    return json.dumps(export_graph(obj, notes, opaque_unknown), indent=2, sort_keys=True) + "\n"


def save_graph(obj, path, notes=None, opaque_unknown=False):
    with open(path, "w") as f:
        f.write(graph_json_text(obj, notes, opaque_unknown))


def main(argv):
    import argparse
    import runpy

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("module", help="a Python file defining `outputs` (list of variables) or `graph`")
    ap.add_argument("-o", "--output", help="the graph (with --missed: the report; default standard output)")
    ap.add_argument("--trace", help="also record the FAST_RUN rewrites of `inputs` -> `outputs` as a trace")
    ap.add_argument("--opaque-unknown", action="store_true",
                    help="write ops that this tensorlens lacks as Opaque nodes (so that it opens the graph)")
    ap.add_argument("--missed", action="store_true",
                    help="record the FAST_RUN rewrites and report what PyTensor missed (`tensorlens missed`)")
    ap.add_argument("--markdown", action="store_true", help="with --missed: the Markdown report for an issue")
    ap.add_argument("--json", action="store_true", help="with --missed: the report as JSON")
    ap.add_argument("--mode", choices=["exact", "pytensor"], help="with --missed: tensorlens's buffer sizing")
    ap.add_argument("--app", help="with --missed: the tensorlens executable (default: $TENSORLENS, "
                                  "build/app/tensorlens beside tools/, or tensorlens on PATH)")
    a = ap.parse_args(argv)
    if a.missed:
        return _missed(a)
    if not a.output:
        ap.error("the following arguments are required: -o/--output")
    ns = runpy.run_path(a.module)
    obj = ns.get("graph", ns.get("outputs"))
    if obj is None:
        ap.error(f"{a.module} defines neither `graph` nor `outputs`")
    notes = []
    save_graph(obj, a.output, notes, a.opaque_unknown)
    if a.trace:
        from pytensor_export_trace import record_rewrites, save_trace
        save_trace(record_rewrites(ns["inputs"], ns["outputs"], notes=notes, opaque_unknown=a.opaque_unknown),
                   a.trace)
    for n in notes:
        print("note:", n, file=sys.stderr)
    return 0


def _tensorlens_app(given):
    import os
    import shutil
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (given, os.environ.get("TENSORLENS"),
                      os.path.join(os.path.dirname(here), "build", "app", "tensorlens"), shutil.which("tensorlens")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise SystemExit("pytensor_export.py --missed: no tensorlens executable found; give --app PATH or set TENSORLENS")


def _missed(a):
    """One step from a Python module to the report: PyTensor's trace and `tensorlens missed` on it."""
    import os
    import runpy
    import subprocess
    import tempfile
    from pytensor_export_trace import record_rewrites as record, save_trace as save

    ns = runpy.run_path(a.module)
    if "inputs" not in ns or "outputs" not in ns:
        raise SystemExit(f"{a.module} must define `inputs` and `outputs` for --missed")
    app = _tensorlens_app(a.app)
    notes = []
    with tempfile.TemporaryDirectory() as tmp:
        name = os.path.splitext(os.path.basename(a.module))[0]
        trace = a.trace or os.path.join(tmp, name + ".trace.json")
        save(record(ns["inputs"], ns["outputs"], notes=notes, opaque_unknown=True), trace)
        cmd = [app, "missed", trace, "--name", name, "--source", a.module]
        values = ns.get("values")
        if values:
            import numpy as np
            from pytensor_export_writer import _value_json
            vals = {v.name: _value_json(np.asarray(values[v.name], dtype=v.type.dtype), v.type.dtype)
                    for v in ns["inputs"] if v.name in values}
            path = os.path.join(tmp, "inputs.json")
            with open(path, "w") as f:
                json.dump(vals, f)
            cmd += ["--inputs", path]
        if a.markdown:
            cmd.append("--markdown")
        if a.json:
            cmd.append("--json")
        if a.mode:
            cmd += ["--mode", a.mode]
        if a.output:
            cmd += ["-o", a.output]
        for n in notes:
            print("note:", n, file=sys.stderr)
        return subprocess.run(cmd).returncode


def record_rewrites(*args, **kwargs):  # re-exported from pytensor_export_trace
    from pytensor_export_trace import record_rewrites as r
    return r(*args, **kwargs)


def save_trace(*args, **kwargs):
    from pytensor_export_trace import save_trace as s
    return s(*args, **kwargs)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except ExportError as e:  # a graph the format cannot hold (a dtype tensorlens lacks): say which variable
        sys.exit(f"pytensor_export.py: {e}")
