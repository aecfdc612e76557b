"""What every reference case in tests/oracle uses (PyTensor rel-2.34.0).

Each CASE/case.py builds a graph, compiles it, runs it and calls
`write_expected(...)`, which introspects the compiled function(s) and writes
CASE/expected.json. Regenerate a case with a real PyTensor 2.34, e.g.

    ../shared/pytensor/python.sh tests/oracle/CASE/case.py

Nothing here changes a graph; it only reads the compiled FunctionGraph.
"""

import json
import os
import re
from collections import Counter

import numpy as np

import pytensor
import pytensor.scalar as ps
from pytensor.compile.mode import get_mode
from pytensor.compile.sharedvalue import SharedVariable
from pytensor.graph.basic import Constant
from pytensor.scan.op import Scan
from pytensor.tensor.elemwise import Elemwise

# ---------------------------------------------------------------------------
# Modes
# ---------------------------------------------------------------------------
FAST_RUN_NAME = 'get_mode("FAST_RUN")'
FAST_RUN = get_mode("FAST_RUN")

# In rel-2.34.0 the save-memory rewrite is registered twice in optdb (position 1.61):
#   "scan_save_mem_prealloc"     tags: fast_run, scan, scan_save_mem   (keeps +1 slot)
#   "scan_save_mem_no_prealloc"  tags: numba, jax, pytorch (use_db_name_as_tag=False)
# Both names are valid query tags, so the C-backend-without-prealloc variant is:
NO_PREALLOC_NAME = (
    'get_mode("FAST_RUN").excluding("scan_save_mem_prealloc")'
    '.including("scan_save_mem_no_prealloc")'
)
NO_PREALLOC = (
    get_mode("FAST_RUN")
    .excluding("scan_save_mem_prealloc")
    .including("scan_save_mem_no_prealloc")
)


# ---------------------------------------------------------------------------
# Value encoding
# ---------------------------------------------------------------------------
def encode_array(a):
    a = np.asarray(a)
    return {"dtype": str(a.dtype), "shape": list(a.shape), "data": a.tolist()}


def _const_or_none(v):
    if isinstance(v, Constant):
        d = np.asarray(v.data)
        if d.ndim == 0:
            return d.item()
    return None


# ---------------------------------------------------------------------------
# Scalar-op counting inside Elemwise / Composite
# ---------------------------------------------------------------------------
def _scalar_op_counter(scalar_op, counter):
    if isinstance(scalar_op, ps.Composite):
        for n in scalar_op.fgraph.apply_nodes:
            _scalar_op_counter(n.op, counter)
    else:
        counter[type(scalar_op).__name__] += 1


def inner_graph_stats(op):
    fg = op.fgraph
    op_counts = Counter()
    scalar_counts = Counter()
    n_elemwise = 0
    n_composite = 0
    for n in fg.apply_nodes:
        if isinstance(n.op, Elemwise):
            n_elemwise += 1
            if isinstance(n.op.scalar_op, ps.Composite):
                n_composite += 1
                op_counts["Composite"] += 1
            else:
                op_counts["Elemwise{%s}" % type(n.op.scalar_op).__name__] += 1
            _scalar_op_counter(n.op.scalar_op, scalar_counts)
        else:
            op_counts[type(n.op).__name__] += 1
    return {
        "inner_elemwise_ops": n_elemwise,
        "inner_composite_ops": n_composite,
        "inner_exp_count": scalar_counts.get("Exp", 0),
        "inner_n_nodes": len(fg.apply_nodes),
        "inner_op_counts": dict(sorted(op_counts.items())),
        "inner_scalar_op_counts": dict(sorted(scalar_counts.items())),
    }


# ---------------------------------------------------------------------------
# Scan introspection
# ---------------------------------------------------------------------------
def scan_nodes(func):
    return [n for n in func.maker.fgraph.toposort() if isinstance(n.op, Scan)]


def _layout(node):
    """Return a list of state descriptors with outer input/output indices."""
    info = node.op.info
    n_seqs = info.n_seqs
    n_mm, n_ms, n_ss = info.n_mit_mot, info.n_mit_sot, info.n_sit_sot
    n_nit, n_sh = info.n_nit_sot, info.n_shared_outs
    states = []
    in_base = 1 + n_seqs
    out_base = 0
    for i in range(n_mm):
        states.append(
            dict(category="mit_mot", taps=list(info.mit_mot_in_slices[i]),
                 out_taps=list(info.mit_mot_out_slices[i]),
                 in_idx=in_base + i, out_idx=out_base + i)
        )
    in_base += n_mm
    out_base += n_mm
    for i in range(n_ms):
        states.append(dict(category="mit_sot", taps=list(info.mit_sot_in_slices[i]),
                           in_idx=in_base + i, out_idx=out_base + i))
    in_base += n_ms
    out_base += n_ms
    for i in range(n_ss):
        states.append(dict(category="sit_sot", taps=list(info.sit_sot_in_slices[i]),
                           in_idx=in_base + i, out_idx=out_base + i))
    in_base += n_ss
    out_base += n_ss
    sh_in_base = in_base
    nit_in_base = in_base + n_sh
    for i in range(n_nit):
        states.append(dict(category="nit_sot", taps=[],
                           in_idx=nit_in_base + i, out_idx=out_base + i))
    out_base += n_nit
    for i in range(n_sh):
        states.append(dict(category="untraced", taps=[-1],
                           in_idx=sh_in_base + i, out_idx=out_base + i))
    return states


def scan_facts(func, input_values, mode_name):
    """Collect the per-Scan facts of a compiled function.

    Runtime buffer shapes are obtained by compiling a second function from the
    same (already rewritten) graph to the Scan outer inputs (`accept_inplace`),
    exactly like PyTensor's own tests do.
    """
    fg = func.maker.fgraph
    nodes = scan_nodes(func)
    user_inputs = [i for i in fg.inputs if not isinstance(i, SharedVariable)]
    layouts = [_layout(n) for n in nodes]

    probe_vars = []
    for node, states in zip(nodes, layouts):
        probe_vars.append(node.inputs[0])
        for st in states:
            if st["category"] == "nit_sot":
                probe_vars.append(node.inputs[st["in_idx"]])       # stored length
                probe_vars.append(node.outputs[st["out_idx"]].shape)  # output buffer shape
            else:
                probe_vars.append(node.inputs[st["in_idx"]].shape)
    probe_vals = []
    if probe_vars:
        probe_fn = pytensor.function(
            user_inputs, probe_vars, accept_inplace=True,
            on_unused_input="ignore", mode="FAST_COMPILE",
        )
        probe_vals = probe_fn(*input_values)
    it = iter(probe_vals)

    scans = []
    for node, states in zip(nodes, layouts):
        op = node.op
        info = op.info
        dmap = getattr(op, "destroy_map", {}) or {}
        n_steps_rt = int(next(it))
        out_states = []
        for st in states:
            rec = {"category": st["category"], "taps": st["taps"]}
            if "out_taps" in st:
                rec["out_taps"] = st["out_taps"]
            if st["category"] == "nit_sot":
                stored = int(next(it))
                shape = [int(s) for s in next(it)]
                rec["buffer_shape"] = shape
                rec["buffer_shape_static"] = None
                rec["store_len"] = stored
                rec["store_len_const"] = _const_or_none(node.inputs[st["in_idx"]])
                rec["inplace"] = False
            else:
                shape = [int(s) for s in next(it)]
                rec["buffer_shape"] = shape
                rec["buffer_shape_static"] = list(node.inputs[st["in_idx"]].type.shape)
                rec["inplace"] = dmap.get(st["out_idx"], []) == [st["in_idx"]]
            rec["outer_input_index"] = st["in_idx"]
            rec["outer_output_index"] = st["out_idx"]
            rec["outer_output_used"] = len(fg.clients[node.outputs[st["out_idx"]]]) > 0
            out_states.append(rec)
        s = {
            "name": op.name,
            "as_while": bool(info.as_while),
            "n_steps": _const_or_none(node.inputs[0]),
            "n_steps_runtime": n_steps_rt,
            "n_seqs": info.n_seqs,
            "n_non_seqs": info.n_non_seqs,
            "states": out_states,
            "destroy_map": {str(k): v for k, v in sorted(dmap.items())},
        }
        s.update(inner_graph_stats(op))
        scans.append(s)
    return {"mode": mode_name, "n_scans": len(nodes), "scans": scans}


def dprint_text(func):
    txt = pytensor.dprint(
        func, print_type=True, print_destroy_map=True, print_op_info=True, file="str"
    )
    # Composite-internal temporary names ('t0', 't17', ...) come from a process-global
    # counter and change from run to run; normalise them so files are reproducible.
    return re.sub(r" 't\d+'", " 't#'", txt)


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------
def _max_abs_diff(a, b):
    a = np.asarray(a, dtype="float64")
    b = np.asarray(b, dtype="float64")
    if a.shape != b.shape:
        return float("inf")
    if a.size == 0:
        return 0.0
    return float(np.max(np.abs(a - b)))


def run_and_record(func, input_values, mode_name, out_exprs=None):
    outs = func(*input_values)
    if not isinstance(outs, (list, tuple)):
        outs = [outs]
    outs = [np.array(o, copy=True) for o in outs]
    facts = scan_facts(func, input_values, mode_name)
    return outs, facts


def write_expected(
    case_file,
    *,
    description,
    builder,
    inputs,              # list of (name, ndarray) in function-argument order
    output_exprs,        # list of str, one per output
    fast_run_func,
    no_prealloc_func=None,
    numpy_reference=None,  # list of arrays (same order as outputs) or None
    numpy_reference_note=None,
    rtol=1e-12,
    atol=1e-12,
    extra=None,
    fast_run_mode_name=FAST_RUN_NAME,
    no_prealloc_mode_name=NO_PREALLOC_NAME,
    extra_variants=None,   # list of (key, func, mode_name): additional compiled variants
):
    case_dir = os.path.dirname(os.path.abspath(case_file))
    name = os.path.basename(case_dir)
    values = [np.asarray(v) for _, v in inputs]

    outs, facts = run_and_record(fast_run_func, values, fast_run_mode_name)
    assert len(outs) == len(output_exprs), (len(outs), len(output_exprs))
    result = {
        "name": name,
        "pytensor_version": pytensor.__version__,
        "description": description,
        "builder": builder,
        "input_order": [n for n, _ in inputs],
        "inputs": {n: encode_array(v) for n, v in inputs},
        "outputs": [dict(expr=e, **encode_array(o)) for e, o in zip(output_exprs, outs)],
        "fast_run": facts,
    }

    if numpy_reference is not None:
        diffs = [_max_abs_diff(o, r) for o, r in zip(outs, numpy_reference)]
        ok = all(
            np.allclose(np.asarray(o, dtype="float64"), np.asarray(r, dtype="float64"),
                        rtol=rtol, atol=atol)
            and np.shape(o) == np.shape(r)
            for o, r in zip(outs, numpy_reference)
        )
        result["numpy_reference"] = {
            "checked": True,
            "ok": bool(ok),
            "max_abs_diff_per_output": diffs,
            "note": numpy_reference_note or "plain numpy loop in case.py",
        }
        if not ok:
            print(f"[{name}] WARNING numpy reference mismatch: {diffs}")
    else:
        result["numpy_reference"] = {"checked": False,
                                     "note": numpy_reference_note or ""}

    variants = []
    if no_prealloc_func is not None:
        variants.append(("no_prealloc", no_prealloc_func, no_prealloc_mode_name))
    variants += list(extra_variants or [])
    for key, vfunc, vmode in variants:
        outs2, facts2 = run_and_record(vfunc, values, vmode)
        same = all(
            np.shape(a) == np.shape(b) and np.array_equal(a, b, equal_nan=True)
            for a, b in zip(outs, outs2)
        )
        facts2["outputs_identical_to_fast_run"] = bool(same)
        if numpy_reference is not None:
            facts2["outputs_match_numpy_reference"] = bool(all(
                np.shape(o) == np.shape(r) and np.allclose(
                    np.asarray(o, dtype="float64"), np.asarray(r, dtype="float64"),
                    rtol=rtol, atol=atol)
                for o, r in zip(outs2, numpy_reference)))
        if not same:
            facts2["outputs"] = [dict(expr=e, **encode_array(o))
                                 for e, o in zip(output_exprs, outs2)]
            print(f"[{name}] NOTE {key} outputs differ from FAST_RUN outputs")
        result[key] = facts2

    result["dprint_fast_run"] = dprint_text(fast_run_func)
    for key, vfunc, _ in variants:
        result["dprint_" + key] = dprint_text(vfunc)
    if extra:
        result.update(extra)

    with open(os.path.join(case_dir, "expected.json"), "w") as f:
        json.dump(result, f, indent=1, allow_nan=False)
        f.write("\n")

    # short console summary
    def summ(fx):
        parts = []
        for s in fx["scans"]:
            st = ", ".join(
                f'{x["category"]}{x["taps"] if x["taps"] else ""}:{x["buffer_shape"]}'
                f'{"*" if x["inplace"] else ""}'
                for x in s["states"]
            )
            parts.append(f'[n_steps={s["n_steps"]}/{s["n_steps_runtime"]} {st} '
                         f'elemwise={s["inner_elemwise_ops"]} exp={s["inner_exp_count"]}]')
        return f'n_scans={fx["n_scans"]} ' + " ".join(parts)

    print(f"[{name}] fast_run: {summ(facts)}")
    for key, _, _ in variants:
        print(f"[{name}] {key}: {summ(result[key])} "
              f"same_outputs={result[key]['outputs_identical_to_fast_run']}")
    if numpy_reference is not None:
        print(f"[{name}] numpy ok={result['numpy_reference']['ok']} "
              f"diffs={result['numpy_reference']['max_abs_diff_per_output']}")
    return result


def scan_outputs(res):
    """pytensor.scan returns (outputs, updates) in 2.34; return outputs."""
    if isinstance(res, tuple) and len(res) == 2 and isinstance(res[1], dict):
        return res[0]
    return res
