#!/usr/bin/env python3
"""tools/pytensor_export.py against a real PyTensor: every exported graph loads in
tensorlens, prints as PyTensor's dprint prints it, and runs to PyTensor's outputs.

    python3 tests/tools/test_pytensor_export.py --app path/to/tensorlens [--oracle tests/oracle]

Skipped (exit 0, "skipped: ...") when `import pytensor` fails. Cases: small graphs
built here (elementwise, Composite, Scan with sit_sot / mit_sot / sequences /
nit_sot / non_sequences / while) as variables, FunctionGraph and compiled FAST_RUN
Function, and the program of every reference case in tests/oracle (both compiled
modes, the FAST_RUN rewrite trace and the graph before rewriting), and the writer's
own checks (pytensor_export_writer_cases.py: core ops, bare scalar ops, unknown scalar ops,
dtypes).
Ends with "N passed, M failed".
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))

try:
    import numpy as np
    import pytensor
    import pytensor.tensor as pt
    from pytensor.graph.fg import FunctionGraph
except Exception as e:  # noqa: BLE001 - any import failure means: no PyTensor here
    print(f"skipped: PyTensor is not importable here ({type(e).__name__}: {e})")
    sys.exit(0)

import pytensor_export  # noqa: E402
from pytensor_export_writer_cases import writer_cases  # noqa: E402

RTOL = 1e-12


def run_app(app, *args):
    p = subprocess.run([app, *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise AssertionError(f"tensorlens {' '.join(args)} failed ({p.returncode}): {p.stderr.strip()}")
    return p.stdout


def normalise_temps(text):
    return re.sub(r"'t[0-9]+'", "'t#'", text)


def to_array(data, shape):
    def conv(x):
        if isinstance(x, list):
            return [conv(y) for y in x]
        if isinstance(x, str):
            return float(x)  # "nan", "inf", "-inf"
        return float(x)
    return np.array(conv(data), dtype=float).reshape(shape)


def check(app, tmp, name, obj, inputs, expected, compare_dprint=None, allow_opaque=False):
    """Exports `obj`, loads it in tensorlens, compares its run with `expected` and,
    for compiled graphs, its print with PyTensor's dprint."""
    notes = []
    path = os.path.join(tmp, re.sub(r"[^A-Za-z0-9_.-]", "_", name) + ".json")
    # Graphs that may hold ops tensorlens lacks are written with those as Opaque nodes, so they load.
    pytensor_export.save_graph(obj, path, notes, opaque_unknown=allow_opaque)
    if notes:
        if not allow_opaque:
            raise AssertionError(f"exported with opaque nodes: {notes}")
        run_app(app, "print", path, "--type")  # it still loads and prints
        return "opaque: " + "; ".join(sorted(set(notes)))
    in_path = path + ".in.json"
    with open(in_path, "w") as f:
        json.dump({k: {"dtype": str(np.asarray(v).dtype), "shape": list(np.shape(v)),
                       "data": np.asarray(v).reshape(-1).tolist()} for k, v in inputs.items()}, f)
    out = json.loads(run_app(app, "run", path, "--inputs", in_path, "--json"))
    got = out["outputs"]
    if len(got) != len(expected):
        raise AssertionError(f"{len(got)} outputs, PyTensor has {len(expected)}")
    for i, (g, e) in enumerate(zip(got, expected)):
        e = np.asarray(e)
        data = to_array(g["data"], g["shape"])
        if list(data.shape) != list(e.shape):
            raise AssertionError(f"output {i}: shape {list(data.shape)}, PyTensor {list(e.shape)}")
        if not np.allclose(data, e.astype(float), rtol=RTOL, atol=0, equal_nan=True):
            raise AssertionError(f"output {i}: {data.reshape(-1)[:5]} vs PyTensor {e.reshape(-1)[:5]}")
    if compare_dprint is not None:
        flags, theirs = compare_dprint
        ours = run_app(app, "print", path, *flags)
        if normalise_temps(ours) != normalise_temps(theirs):
            raise AssertionError("tensorlens prints the exported graph differently:\n--- tensorlens\n" + ours +
                                 "--- PyTensor\n" + theirs)


def check_trace(app, tmp, name, ins, outs, values, f):
    """record_rewrites replays in tensorlens to the compiled graph: it prints as
    PyTensor's dprint of the compiled function and runs to its outputs."""
    from pytensor_export_trace import record_rewrites, save_trace
    notes = []
    # Steps may create ops tensorlens lacks (Second): written as Opaque, so that the trace replays.
    trace = record_rewrites(ins, outs, mode="FAST_RUN", notes=notes, opaque_unknown=True)
    path = os.path.join(tmp, re.sub(r"[^A-Za-z0-9_.-]", "_", name) + ".trace.json")
    save_trace(trace, path)
    listing = run_app(app, "trace", path)  # loads and replays every step
    n = len(trace["steps"])
    if n == 0 or len(listing.splitlines()) < n:
        raise AssertionError(f"{n} steps, tensorlens lists {len(listing.splitlines())} lines")
    in_path = path + ".in.json"
    with open(in_path, "w") as fh:
        json.dump({k: np.asarray(v).tolist() for k, v in values.items()}, fh)
    got = json.loads(run_app(app, "run", "--trace", path, "--step", str(n), "--inputs", in_path, "--json"))["outputs"]
    expected = f(*[values[v.name] for v in ins])
    for i, (g, e) in enumerate(zip(got, expected)):
        if not np.allclose(to_array(g["data"], g["shape"]), np.asarray(e, dtype=float), rtol=RTOL, atol=0, equal_nan=True):
            raise AssertionError(f"output {i} after the last step differs from PyTensor's")
    if any("Opaque" in s for s in notes):
        return f"{n} steps; opaque: " + "; ".join(sorted(set(notes)))
    ours = run_app(app, "print", "--trace", path, "--step", str(n), *DPRINT_FLAGS)
    theirs = dprint_text(f)
    if normalise_temps(ours) != normalise_temps(theirs):
        raise AssertionError("the replayed graph prints differently:\n--- tensorlens\n" + ours + "--- PyTensor\n" + theirs)
    return f"{n} steps"


def dprint_text(f):
    return pytensor.dprint(f, print_type=True, print_destroy_map=True, print_op_info=True, file="str")


DPRINT_FLAGS = ["--type", "--destroy-map", "--op-info", "--topo"]


def small_cases():
    """(name, inputs {name: value}, outputs, input variables)."""
    rng = np.random.default_rng(0)
    cases = []
    x = pt.vector("x", shape=(5,))
    y = pt.vector("y", shape=(5,))
    xv, yv = rng.normal(size=5), rng.normal(size=5)
    cases.append(("elemwise", [x, y], [pt.exp(x) * y - 2.0, pt.maximum(x, y) / (1 + y**2)], {"x": xv, "y": yv}))
    m = pt.matrix("m", shape=(4, 3))
    mv = rng.normal(size=(4, 3))
    cases.append(("reduce_dimshuffle", [m], [m.sum(axis=0), m.T * 2, m[1:, ::2].max(axis=1), pt.dot(m.T, m)], {"m": mv}))
    # Scans: sit_sot, mit_sot, sequences + nit_sot + non_sequences, while.
    x0 = pt.vector("x0", shape=(3,))
    seq = pytensor.scan(lambda s: pt.exp(s) - 2, outputs_info=[x0], n_steps=6, return_updates=False) \
        if "return_updates" in pytensor.scan.__code__.co_varnames else pytensor.scan(lambda s: pt.exp(s) - 2, outputs_info=[x0], n_steps=6)[0]
    cases.append(("scan_sit_sot", [x0], [seq, seq[-1]], {"x0": rng.normal(size=3) * 0.1}))
    f0 = pt.vector("f0", shape=(2,))
    fib = pytensor.scan(lambda a, b: a + b, outputs_info=[{"initial": f0, "taps": [-2, -1]}], n_steps=8)[0]
    cases.append(("scan_mit_sot", [f0], [fib], {"f0": np.array([1.0, 1.0])}))
    xs = pt.matrix("xs", shape=(6, 3))
    w = pt.vector("w", shape=(3,))
    outs = pytensor.scan(lambda r, acc, w_: [acc + r * w_, (r * w_).sum()], sequences=[xs],
                         outputs_info=[pt.zeros(3), None], non_sequences=[w])[0]
    cases.append(("scan_seq_nitsot_nonseq", [xs, w], list(outs), {"xs": rng.normal(size=(6, 3)), "w": rng.normal(size=3)}))
    return cases


def oracle_cases(root):
    """Runs each <root>/<case>/case.py with write_expected captured (nothing is written)."""
    if not os.path.isfile(os.path.join(root, "_oracle_util.py")):
        raise SystemExit(f"{root}: not the reference cases (no _oracle_util.py)")
    sys.path.insert(0, root)
    import _oracle_util
    import runpy
    out = []
    for case in sorted(os.listdir(root)):
        script = os.path.join(root, case, "case.py")
        if not os.path.isfile(script):
            continue
        captured = {}
        _oracle_util.write_expected = lambda *a, **k: captured.update(k)
        calls = []
        compile_fn = pytensor.function

        def spy(inputs, outputs=None, *args, **kwargs):  # the graph as the case builds it
            calls.append((list(inputs), outputs if isinstance(outputs, list) else [outputs]))
            return compile_fn(inputs, outputs, *args, **kwargs)

        pytensor.function = spy
        try:
            runpy.run_path(script, run_name="oracle_case")
            captured["graph"] = calls[0]
        except Exception as e:  # noqa: BLE001
            out.append((case, None, f"case.py failed: {e}"))
            continue
        finally:
            pytensor.function = compile_fn
        out.append((case, captured, None))
    return out


def pytensor_named_cases():
    """(name, check) pairs: ops tensorlens lacks are written under their PyTensor names with their props."""
    from pytensor.tensor.special import softmax

    def nodes(doc):
        out = []
        stack = [doc["graph"]]
        while stack:
            g = stack.pop()
            out += g["nodes"]
            stack += [n["inner"] for n in g["nodes"] if "inner" in n]
        return out

    def find(doc, op):
        hits = [n for n in nodes(doc) if n["op"] == op]
        if not hits:
            raise AssertionError(f"no {op} node in {sorted(set(n['op'] for n in nodes(doc)))}")
        return hits

    x = pt.vector("x", shape=(4,))
    A = pt.matrix("A", shape=(4, 4))
    As = pt.tensor3("As", shape=(2, 3, 3))
    idx = pt.vector("idx", shape=(3,), dtype="int64")

    def softmax_axis():
        n = find(pytensor_export.export_graph([softmax(A, axis=-1)]), "Softmax")[0]
        assert n["params"] == {"axis": -1}, n["params"]

    def blockwise_core():
        n = find(pytensor_export.export_graph([pt.linalg.inv(As)]), "Blockwise")[0]
        assert n["params"]["core_op"] == {"kind": "MatrixInverse", "params": {}}, n["params"]
        assert n["params"]["signature"] == "(m,m)->(m,m)", n["params"]

    def gemv_destroys():
        f = pytensor.function([A, x], pt.exp(x) + A @ x)
        n = find(pytensor_export.export_graph(f), "CGemv")[0]
        assert n["params"] == {"inplace": True, "destroy_map": {"0": [0]}}, n["params"]

    def reductions_and_scalars():
        f = pytensor.function([A, x, idx], [A.min(axis=0), pt.all(A > 0), pt.gammaln(x), pt.cumsum(x), x[idx]])
        doc = pytensor_export.export_graph(f)
        reduces = {n["params"]["op"]: n["params"] for n in find(doc, "Reduce")}
        assert reduces["Min"] == {"op": "Min", "axes": [0]}, reduces
        assert reduces["All"] == {"op": "All", "axes": None}, reduces
        assert any(n["params"].get("scalar_op") == "gammaln" for n in find(doc, "Elemwise"))
        assert find(doc, "CumOp")[0]["params"] == {"axis": None, "mode": "add"}
        find(doc, "AdvancedSubtensor1")

    def random_and_fallback():
        from pytensor.graph.basic import Apply
        from pytensor.graph.op import Op

        class Doubling(Op):  # an op of a user's library, which tensorlens cannot know
            __props__ = ()

            def make_node(self, v):
                v = pt.as_tensor_variable(v)
                return Apply(self, [v], [v.type()])

            def perform(self, node, inputs, outputs):
                outputs[0][0] = 2 * inputs[0]

        rng = pytensor.shared(np.random.default_rng(1), name="rng")
        y = pt.random.normal(0, 1, size=(4,), rng=rng) + Doubling()(x)[:2].sum()
        notes = []
        doc = pytensor_export.export_graph([y], notes, opaque_unknown=True)
        names = [n["params"]["name"] for n in find(doc, "Opaque")]
        assert any("normal_rv" in nm for nm in names) and any("Doubling" in nm for nm in names), names
        assert [i["name"] for i in doc["graph"]["inputs"]] == ["x"], doc["graph"]["inputs"]
        assert any("does not imitate NumPy's generators" in n for n in notes), notes

    def indexing_and_control_flow():
        from pytensor.compile.builders import OpFromGraph
        from pytensor.ifelse import ifelse
        a = pt.vector("a", shape=(4,))
        twice = OpFromGraph([a], [a * 2], name="twice", inline=True)
        y = ifelse(pt.gt(x.sum(), 0), twice(x), x[idx].sum() + x, name="branch")
        doc = pytensor_export.export_graph([y, A[1:idx.sum(), idx]])
        assert find(doc, "OpFromGraph")[0]["params"] == {"name": "twice", "inline": True}, find(doc, "OpFromGraph")
        assert find(doc, "IfElse")[0]["params"] == {"as_view": False, "n_outs": 1, "name": "branch"}
        find(doc, "MakeSlice")
        consts = [c for c in doc["graph"]["constants"] if c["type"]["kind"] == "none"]
        assert consts and consts[0]["data"] is None and "dtype" not in consts[0], consts
        rng = pytensor.shared(np.random.default_rng(1), name="rng")
        walk, _ = pytensor.scan(lambda s, r: s + pt.random.normal(rng=r), outputs_info=[x.sum()], non_sequences=[rng],
                                n_steps=3)
        loop = find(pytensor_export.export_graph([walk]), "Opaque")
        assert any(n["params"].get("random") for n in loop), [n["params"] for n in loop]

    return [("Softmax params", softmax_axis), ("Blockwise core op", blockwise_core), ("CGemv destroy_map", gemv_destroys),
            ("CAReduce, scalar ops, CumOp, AdvancedSubtensor1", reductions_and_scalars),
            ("random variables and --opaque-unknown", random_and_fallback),
            ("advanced indexing, IfElse, OpFromGraph, a random Scan", indexing_and_control_flow)]


SEED_DUP = """
import numpy as np
import pytensor
import pytensor.tensor as pt
x_init = pt.vector("x_init", shape=(7,))
[sx, sy], _ = pytensor.scan(lambda x, y: (pt.exp(x) - 5, pt.exp(y) - 5), outputs_info=[x_init, x_init], n_steps=10)
inputs = [x_init]
outputs = [sx, sy]
values = {"x_init": np.linspace(-1, 1, 7) * 0.1}
"""


def check_missed(app, tmp):
    """`pytensor_export.py MODULE.py --missed --json`: the trace recorded and `tensorlens missed` run on it."""
    module = os.path.join(tmp, "seed_dup_missed.py")
    with open(module, "w") as f:
        f.write(SEED_DUP)
    report = os.path.join(tmp, "seed_dup_missed.json")
    tool = os.path.join(ROOT, "tools", "pytensor_export.py")
    p = subprocess.run([sys.executable, tool, module, "--missed", "--json", "--app", app, "-o", report],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise AssertionError(f"exit {p.returncode}: {p.stderr.strip()[-400:]}")
    with open(report) as f:
        doc = json.load(f)
    assert doc["program"] == "seed_dup_missed" and doc["has_trace"], doc.get("program")
    whats = [m["what"] for m in doc["missed"] if not m["follow_on"]]
    assert "sit_sot-1 merged into sit_sot-0" in whats, whats
    assert doc["pytensor"]["deep_copies"] == 1, doc["pytensor"]["deep_copy_of"]
    assert doc["max_abs_difference"] == 0, doc["difference_note"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--app", required=True, help="the tensorlens executable")
    ap.add_argument("--oracle", default=os.path.join(ROOT, "tests", "oracle"),
                    help="the reference cases, one folder per case with its case.py")
    a = ap.parse_args()
    passed, failed = 0, 0

    def attempt(name, fn):
        nonlocal passed, failed
        try:
            note = fn()
            passed += 1
            print(f"PASS {name}" + (f" ({note})" if note else ""))
        except Exception as e:  # noqa: BLE001
            failed += 1
            print(f"FAIL {name}: {e}")
            if os.environ.get("TL_VERBOSE"):
                traceback.print_exc()

    for name, fn in pytensor_named_cases():
        attempt(f"PyTensor-named op: {name}", fn)
    with tempfile.TemporaryDirectory() as tmp:
        for name, fn in writer_cases(a.app, tmp, run_app):
            attempt(f"writer: {name}", fn)
        attempt("pytensor_export.py --missed (seed example 2)", lambda: check_missed(a.app, tmp))
        for name, ins, outs, values in small_cases():
            f = pytensor.function(ins, outs, mode="FAST_RUN")
            expected = f(*[values[v.name] for v in ins])
            attempt(f"{name} (variables)", lambda: check(a.app, tmp, name + ".vars", outs, values, expected))
            attempt(f"{name} (FunctionGraph)", lambda: check(a.app, tmp, name + ".fg", FunctionGraph(ins, outs), values, expected))
            attempt(f"{name} (FAST_RUN function)",
                    lambda: check(a.app, tmp, name + ".fn", f, values, expected, (DPRINT_FLAGS, dprint_text(f))))
            attempt(f"{name} (rewrite trace)", lambda: check_trace(a.app, tmp, name, ins, outs, values, f))
        for case, cap, err in oracle_cases(a.oracle):
            if err:
                attempt(case, lambda: (_ for _ in ()).throw(AssertionError(err)))
                continue
            values = dict(cap["inputs"])
            for mode in ("fast_run_func", "no_prealloc_func"):
                f = cap.get(mode)
                if f is None:
                    continue
                expected = f(*[values[n] for n, _ in cap["inputs"]])
                attempt(f"oracle {case} ({mode})",
                        lambda: check(a.app, tmp, f"{case}.{mode}", f, values, expected, (DPRINT_FLAGS, dprint_text(f))))
            f = cap["fast_run_func"]
            graph_inputs, originals = cap["graph"]
            expected = f(*[values[n] for n, _ in cap["inputs"]])
            attempt(f"oracle {case} (rewrite trace)",
                    lambda: check_trace(a.app, tmp, case, graph_inputs, originals, values, f))
            # Before rewriting, graphs may hold ops tensorlens lacks (Second): written as Opaque.
            attempt(f"oracle {case} (before rewriting)",
                    lambda: check(a.app, tmp, f"{case}.orig", originals, values, expected, allow_opaque=True))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
