#!/usr/bin/env python3
"""Write the PyTensor reference data the Scan parity and `tensorlens missed` tests read,
so those tests run without a PyTensor (docs/missed.md#reference-data).

    ../shared/pytensor/python.sh tests/pytensor/export_references.py [--only NAME...]

For each Scan program of PARITY (tests/pytensor/programs/NAME.py) it writes
tests/data/scan_parity/NAME.json:

  built            the graph as PyTensor built it (tools/pytensor_export.py), or null when it
                   holds an op tensorlens lacks (`built_note` says which)
  before_save_mem  PyTensor's FAST_RUN graph just before its scan_save_mem (optdb position
                   1.61): what PyTensor's buffer sizing saw
  inputs, expected the input values and the compiled function's outputs
  pytensor         per compiled loop, for FAST_RUN (`fast_run`, the C backend's +1 row) and
                   for scan_save_mem_no_prealloc (`no_prealloc`): its name, n_steps and, per
                   state, the category, taps and the buffer rows it ran with

and for each program of TRACES tests/data/missed/NAME.trace.json, PyTensor's FAST_RUN
rewrites as a tensorlens trace (record_rewrites), with NAME.py beside it.
"""

import argparse
import copy
import json
import os
import runpy
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import pytensor  # noqa: E402
from pytensor import config  # noqa: E402
from pytensor.compile.function.types import std_fgraph  # noqa: E402
from pytensor.compile.io import In, Out  # noqa: E402
from pytensor.compile.mode import get_mode, optdb  # noqa: E402

import pytensor_export as pe  # noqa: E402
from export_corpus import scan_buffers, value_json  # noqa: E402
from pytensor_export_trace import record_rewrites, trace_json_text  # noqa: E402

PROGRAMS = os.path.join(HERE, "programs")
PARITY_OUT = os.path.join(ROOT, "tests", "data", "scan_parity")
MISSED_OUT = os.path.join(ROOT, "tests", "data", "missed")

PARITY = ["scan_while_last", "scan_while_nsteps", "scan_grad_states", "scan_nitsot_slices",
          "scan_state_readers", "scan_nested_slices", "scan_savemem_variants", "scan_symbolic_steps",
          "scan_merge_three", "scan_coupled_states"]
# Where tensorlens is known not to give PyTensor's rows, per program and graph: the test
# skips that graph and says why.
DIFFERENCES = {
    "scan_symbolic_steps": {
        "before_save_mem": "with n_steps an input, PyTensor's canonicalize has rewritten xs[-1] and xs[-2:] into "
                           "Switch expressions of n before its scan_save_mem, which sizes the buffers with them at run "
                           "time; tensorlens's scan_save_mem reads constant and n-relative indices, not such "
                           "expressions, so it keeps whole traces there (from the graph as built it gives PyTensor's rows)",
    },
}
TRACES = ["seed_rop", "seed_dup"]

# scan_save_mem sits at 1.61 in PyTensor 2.34's optdb (after the scan merges at 1.6).
BEFORE_SAVE_MEM = 1.605


def modes():
    fast = get_mode("FAST_RUN")
    no_prealloc = fast.excluding("scan_save_mem_prealloc").including("scan_save_mem_no_prealloc")
    return {"fast_run": fast, "no_prealloc": no_prealloc}


def graph_before_save_mem(inputs, outputs):
    """The FunctionGraph pytensor.function would rewrite, rewritten by FAST_RUN up to scan_save_mem."""
    fg, _ = std_fgraph([In(v) for v in inputs], [Out(v) for v in outputs], accept_inplace=False, force_clone=True)
    mode = get_mode("FAST_RUN")
    query = copy.copy(mode._optimizer)
    query.position_cutoff = BEFORE_SAVE_MEM
    with config.change_flags(mode=mode):
        optdb.query(query)(fg)
    return fg


def loops_of(f, args):
    """Per Scan of f's compiled graph: name, n_steps and each state's buffer rows while f ran."""
    runs = {s["node"]: s for s in scan_buffers(f, args)["scans"]}
    loops = []
    for i, node in enumerate(f.maker.fgraph.toposort()):
        if type(node.op).__name__ != "Scan":
            continue
        info = node.op.info
        run = runs[i]
        states = []
        first = 1 + info.n_seqs
        taps = [list(t) for t in info.mit_mot_in_slices] + [list(t) for t in info.mit_sot_in_slices] + \
               [list(t) for t in info.sit_sot_in_slices]
        cats = ["mit_mot"] * info.n_mit_mot + ["mit_sot"] * info.n_mit_sot + ["sit_sot"] * info.n_sit_sot
        counts = {}
        for k, cat in enumerate(cats):
            shape = run["inputs"][first + k]
            states.append({"category": cat, "index": counts.setdefault(cat, 0), "taps": taps[k],
                           "rows": None if not shape else shape[0]})
            counts[cat] += 1
        nit_first = first + len(cats) + info.n_shared_outs
        for j in range(info.n_nit_sot):
            states.append({"category": "nit_sot", "index": j, "taps": [],
                           "rows": run["input_values"].get(str(nit_first + j))})
        loops.append({"name": str(node.op.name), "n_steps": run["n_steps"], "states": states})
    return loops


def write_json(path, doc, indent=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(doc, f, indent=indent, sort_keys=True, separators=None if indent else (",", ":"))
        f.write("\n")


def parity_case(name):
    ns = runpy.run_path(os.path.join(PROGRAMS, name + ".py"), run_name="parity_" + name)
    inputs, outputs, values = ns["inputs"], ns["outputs"], ns["values"]
    args = [np.asarray(values[v.name], dtype=v.type.dtype) for v in inputs]
    notes = []
    built = pe.export_graph(outputs, notes)
    missing = [n for n in notes if "lacks" in n or "as Opaque" in n]
    doc = {"format": "tensorlens-scan-parity", "version": 1, "program": name,
           "description": (ns.get("__doc__") or "").strip().splitlines()[0] if ns.get("__doc__") else name,
           "built": None if missing else built, "built_note": "; ".join(sorted(set(missing))),
           "before_save_mem": pe.export_graph(graph_before_save_mem(inputs, outputs)),
           "inputs": {v.name: value_json(a) for v, a in zip(inputs, args)}, "pytensor": {},
           "differences": DIFFERENCES.get(name, {})}
    for key, mode in modes().items():
        f = pytensor.function(inputs, outputs, mode=mode.clone(link_kwargs=dict(allow_gc=False)))
        got = f(*[a.copy() for a in args])
        if key == "fast_run":
            doc["expected"] = [value_json(np.asarray(g)) for g in got]
        doc["pytensor"][key] = loops_of(f, args)
    write_json(os.path.join(PARITY_OUT, name + ".json"), doc)


def trace_case(name):
    ns = runpy.run_path(os.path.join(PROGRAMS, name + ".py"), run_name="trace_" + name)
    trace = record_rewrites(ns["inputs"], ns["outputs"], mode="FAST_RUN", opaque_unknown=True)
    os.makedirs(MISSED_OUT, exist_ok=True)
    with open(os.path.join(MISSED_OUT, name + ".trace.json"), "w") as f:
        f.write(trace_json_text(trace))
    shutil.copyfile(os.path.join(PROGRAMS, name + ".py"), os.path.join(MISSED_OUT, name + ".py"))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="+", metavar="NAME")
    a = ap.parse_args(argv)
    for name in PARITY:
        if not a.only or name in a.only:
            parity_case(name)
            print("wrote", os.path.relpath(os.path.join(PARITY_OUT, name + ".json"), ROOT), file=sys.stderr)
    for name in TRACES:
        if not a.only or name in a.only:
            trace_case(name)
            print("wrote", os.path.relpath(os.path.join(MISSED_OUT, name + ".trace.json"), ROOT), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
