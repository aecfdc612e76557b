#!/usr/bin/env python3
"""Export the PyTensor programs of tests/pytensor/programs/ for tensorlens, in one process.

    python.sh tests/pytensor/export_corpus.py --out DIR [--only NAME...] [--programs FOLDER]

Each program (a plain PyTensor module defining `inputs`, `outputs` and `values`, a
dict from input name to a NumPy array) gives DIR/<name>/:

  graph.json     the graph as built (tools/pytensor_export.py)
  compiled.json  the FAST_RUN compiled graph (f.maker.fgraph)
  trace.json     PyTensor's own FAST_RUN rewrites (record_rewrites)
  inputs.json    the input values, as `tensorlens run --inputs` reads them
  expected.json  the compiled function's outputs: {"outputs": [{"name", "dtype", "shape", "data"}]}
  buffers.json   for each Scan of the compiled graph, the shapes of its outer inputs and
                 outputs while the function runs (read from the function's storage), and
                 the values of its 0-d integer inputs (n_steps, nit_sot sizes)
  graph.dprint.txt     pytensor.dprint of the graph with print_type=True
  compiled.dprint.txt  pytensor.dprint of the compiled function with types, destroy maps
                       and op info; compiled.plain.txt the same with dprint's defaults
  ops.json       the op classes of both graphs with their props and counts
  notes.txt      what the exporter wrote as Opaque or under a kind tensorlens lacks

and DIR/export_summary.json (timings, failures). A program that fails to export gets
DIR/<name>/error.txt instead; the exit code is then 1.
"""

import argparse
import io
import json
import os
import runpy
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROGRAMS = os.path.join(HERE, "programs")
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import pytensor  # noqa: E402
from pytensor.compile.mode import get_mode  # noqa: E402
from pytensor.graph.basic import Constant  # noqa: E402

import pytensor_export as pe  # noqa: E402
from pytensor_export_trace import record_rewrites, save_trace  # noqa: E402
from corpus_inventory import graph_ops  # noqa: E402


def program_names(folder=PROGRAMS):
    return sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".py") and not f.startswith("_"))


def value_json(a):
    a = np.asarray(a)
    dtype = str(a.dtype)
    if dtype not in pe.DTYPES:
        raise pe.ExportError(f"a value of dtype {dtype}")
    return pe._value_json(a, dtype)


def write_json(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


def compile_fn(inputs, outputs):
    """FAST_RUN, linked without freeing intermediate storage so the Scans' buffers can be read."""
    mode = get_mode("FAST_RUN").clone(link_kwargs=dict(allow_gc=False))
    return pytensor.function(inputs, outputs, mode=mode)


def scan_buffers(f, args):
    """The outer inputs and outputs of every Scan of f's graph as they were in its last call
    (f was called with `args`): their shapes, and the values of 0-d integer inputs (n_steps,
    nit_sot sizes)."""
    fg = f.maker.fgraph
    storage = f.vm.storage_map
    given = dict(zip(fg.inputs, args))  # f clears its input storage after a call

    def value(v):
        if v in given:
            return given[v]
        if isinstance(v, Constant):
            return v.data
        return storage[v][0] if v in storage else None

    scans = []
    for i, node in enumerate(fg.toposort()):
        if type(node.op).__name__ != "Scan":
            continue
        vals = [value(v) for v in node.inputs]
        outs = [storage[v][0] for v in node.outputs]
        scans.append({
            "node": i,  # = the node's id in compiled.json (ids follow the topological order)
            "name": str(node.op.name),
            "n_steps": None if vals[0] is None else int(vals[0]),
            "inputs": [None if x is None or not hasattr(x, "shape") else [int(d) for d in np.shape(x)] for x in vals],
            "input_values": {str(k): int(x) for k, x in enumerate(vals)
                             if hasattr(x, "dtype") and np.ndim(x) == 0 and np.issubdtype(x.dtype, np.integer)},
            "outputs": [None if x is None or not hasattr(x, "shape") else [int(d) for d in np.shape(x)] for x in outs],
        })
    return {"scans": scans}


def export_program(name, out_dir, folder=PROGRAMS):
    ns = runpy.run_path(os.path.join(folder, name + ".py"), run_name="corpus_" + name)
    inputs, outputs, values = ns["inputs"], ns["outputs"], ns["values"]
    missing = [v.name for v in inputs if v.name not in values]
    if missing:
        raise ValueError(f"no values for inputs {missing}")
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    notes = []
    t0 = time.perf_counter()
    pe.save_graph(outputs, os.path.join(d, "graph.json"), notes)
    f = compile_fn(inputs, outputs)
    t1 = time.perf_counter()
    pe.save_graph(f, os.path.join(d, "compiled.json"), notes)
    args = [np.asarray(values[v.name], dtype=v.type.dtype) for v in inputs]
    write_json(os.path.join(d, "inputs.json"), {v.name: value_json(a) for v, a in zip(inputs, args)})
    got = f(*[a.copy() for a in args])
    # A program may widen the tolerance of an output whose reference PyTensor computes
    # with an approximation of its own (its C psi and tri_gamma agree with scipy to ~1e-10).
    reference_rtol = ns.get("reference_rtol", {})
    outs = []
    for i, (v, a) in enumerate(zip(f.maker.fgraph.outputs, got)):
        j = value_json(a)
        j["name"] = v.name or f"output{i}"
        if i in reference_rtol:
            j["rtol"] = float(reference_rtol[i])
        outs.append(j)
    write_json(os.path.join(d, "expected.json"), {"outputs": outs})
    write_json(os.path.join(d, "buffers.json"), scan_buffers(f, args))
    t2 = time.perf_counter()
    save_trace(record_rewrites(inputs, outputs, mode="FAST_RUN", notes=notes), os.path.join(d, "trace.json"))
    t3 = time.perf_counter()
    for file, target, options in (("graph.dprint.txt", outputs, dict(print_type=True)),
                                  ("compiled.dprint.txt", f, dict(print_type=True, print_destroy_map=True, print_op_info=True)),
                                  ("compiled.plain.txt", f, {})):
        text = io.StringIO()
        pytensor.dprint(target, file=text, **options)
        with open(os.path.join(d, file), "w") as fh:
            fh.write(text.getvalue())
    write_json(os.path.join(d, "ops.json"), {"graph": graph_ops(outputs), "compiled": graph_ops(f.maker.fgraph)})
    with open(os.path.join(d, "notes.txt"), "w") as fh:
        fh.write("".join(n + "\n" for n in sorted(set(notes))))
    return {"compile_s": t1 - t0, "run_s": t2 - t1, "trace_s": t3 - t2}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", nargs="+", metavar="NAME")
    ap.add_argument("--programs", default=PROGRAMS, help="the folder of programs (default: programs/)")
    a = ap.parse_args(argv)
    names = program_names(a.programs)
    if a.only:
        unknown = sorted(set(a.only) - set(names))
        if unknown:
            ap.error(f"no such program: {', '.join(unknown)}")
        names = [n for n in names if n in a.only]
    os.makedirs(a.out, exist_ok=True)
    summary = {"pytensor": pytensor.__version__, "programs": {}, "failed": []}
    start = time.perf_counter()
    for name in names:
        t = time.perf_counter()
        err = os.path.join(a.out, name, "error.txt")
        if os.path.exists(err):
            os.remove(err)
        try:
            info = export_program(name, a.out, a.programs)
        except Exception:  # noqa: BLE001 - reported per program
            os.makedirs(os.path.dirname(err), exist_ok=True)
            with open(err, "w") as fh:
                fh.write(traceback.format_exc())
            summary["failed"].append(name)
            info = {"error": traceback.format_exc().strip().splitlines()[-1]}
            print(f"FAIL {name}: {info['error']}", file=sys.stderr)
        info["seconds"] = time.perf_counter() - t
        summary["programs"][name] = info
        print(f"exported {name} in {info['seconds']:.1f} s", file=sys.stderr)
    summary["seconds"] = time.perf_counter() - start
    write_json(os.path.join(a.out, "export_summary.json"), summary)
    print(f"{len(names) - len(summary['failed'])} of {len(names)} programs exported in {summary['seconds']:.1f} s",
          file=sys.stderr)
    return 1 if summary["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
