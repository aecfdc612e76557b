"""The checks test_corpus.py runs on one exported program (plain Python: no PyTensor, no NumPy)."""

import json
import math
import os
import subprocess

STAGES = ["export", "run_graph", "run_compiled", "rewrite_graph", "run_rewritten_graph", "rewrite_compiled",
          "run_rewritten_compiled", "trace_replay", "run_trace", "dprint_graph", "dprint_compiled", "dprint_plain"]
# The dprint listings (export_corpus.py) each stage imports, the exported graph it shows,
# and whether it passes the input values so the importer can type inputs the listing
# prints without types.
DPRINT_LISTINGS = {"dprint_graph": ("graph.dprint.txt", "graph.json", False),
                   "dprint_compiled": ("compiled.dprint.txt", "compiled.json", False),
                   "dprint_plain": ("compiled.plain.txt", "compiled.json", True)}
# Import notes that say the listing itself lacks values the run needs: any failure of
# such a run is the listing's (an opaque node only when a note names it).
LACKS_VALUES = ("its values are elided", "may be rounded", "cannot represent", "without their positions",
                "does not print the inner graph")
# Notes of what the importer guessed: a failure is the listing's only where the guess
# is what differs (taps: the loops' layouts are not PyTensor's; types: an output's
# dtype or an opaque node the note names).
GUESSED_TAPS = "dprint does not print taps"
GUESSED_TYPES = ("type not printed", "dtype not printed", "(partly not printed)")
RTOL = {"float64": 1e-12, "float32": 1e-5}
TIMEOUT = 600


class StageError(Exception):
    pass


def gap_category(msg):
    """What kind of failure a message is: "missing op" (tensorlens lacks an op, scalar op or
    type the graph uses), "wrong values", or "error" (anything else)."""
    head = msg.split(":", 1)[0]
    if head in ("missing op", "wrong values", "error"):
        return head
    low = msg.lower()
    if any(k in low for k in ("unknown op kind", "unknown scalar op", "not implemented", "unknown type kind",
                              "cannot execute opaque", "unknown kind", "has no tensorlens",
                              "scalar op: has no inner graph")):  # a Composite nested in a Composite
        return "missing op"
    if '/type: missing field "dtype"' in msg:  # a slice or None typed variable: a type tensorlens lacks
        return "missing op"
    return "error"


def _app(app, *args):
    try:
        p = subprocess.run([app, *args], capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise StageError(f"error: tensorlens {args[0]} took over {TIMEOUT} s")
    if p.returncode != 0:
        lines = (p.stderr.strip() or p.stdout.strip()).splitlines()
        errors = [ln for ln in lines if ln.startswith("tensorlens") and "error" in ln]
        msg = errors[0] if errors else lines[-1] if lines else f"exit code {p.returncode}"
        if errors and len(lines) > 1 and not lines[-1].startswith("tensorlens"):
            msg += f" (then: {lines[-1][:120]})"  # e.g. a sanitizer's report after the error
        paths = [a for a in args[1:] if os.path.isfile(a)]
        if paths:  # paths relative to the export folder (the first file argument's grandparent)
            for root in (os.path.dirname(os.path.dirname(os.path.abspath(paths[0]))), os.path.dirname(os.path.dirname(paths[0]))):
                if root:
                    msg = msg.replace(root + "/", "")
        for prefix in (f"tensorlens {args[0]}: ", "error: "):
            msg = msg[len(prefix):] if msg.startswith(prefix) else msg
        raise StageError(f"{gap_category(msg)}: tensorlens {args[0]}: {msg}")
    return p.stdout


def _flat(data):
    if isinstance(data, list):
        out = []
        for x in data:
            out.extend(_flat(x))
        return out
    return [data]


def _num(x):
    if isinstance(x, str):
        return float(x)  # "nan", "inf", "-inf"
    return float(x)


def compare(got, expected):
    """Raises StageError unless tensorlens's outputs are PyTensor's: same count, dtypes and shapes,
    integers and booleans equal, floats within RTOL[dtype] (or the output's own "rtol", where
    the program says PyTensor's reference is an approximation) relative to the element or to
    the output's largest magnitude, NaN where PyTensor has NaN."""
    if len(got) != len(expected):
        raise StageError(f"wrong values: {len(got)} outputs, PyTensor has {len(expected)}")
    for i, (g, e) in enumerate(zip(got, expected)):
        if g["dtype"] != e["dtype"] or list(g["shape"]) != list(e["shape"]):
            raise StageError(f"wrong values: output {i} ({e.get('name')}) is {g['dtype']}{g['shape']}, "
                             f"PyTensor's {e['dtype']}{e['shape']}")
        gv, ev = [_num(x) for x in _flat(g["data"])], [_num(x) for x in _flat(e["data"])]
        rtol = max(RTOL.get(e["dtype"], 0.0), e.get("rtol", 0.0))
        scale = max([abs(x) for x in ev if math.isfinite(x)] or [0.0])
        for k, (a, b) in enumerate(zip(gv, ev)):
            if math.isnan(b) and math.isnan(a):
                continue
            if a == b:
                continue
            if math.isfinite(a) and math.isfinite(b) and abs(a - b) <= rtol * max(abs(b), scale):
                continue
            raise StageError(f"wrong values: output {i} ({e.get('name')}) element {k}: {a!r}, PyTensor {b!r}")


def _run(app, args, inputs, expected):
    out = json.loads(_app(app, "run", *args, "--inputs", inputs, "--json"))
    compare(out["outputs"], expected)


def check_program(app, d):
    """{stage: ("pass" | "fail" | "skip", message)} for the program exported into folder d."""
    res = {}
    err = os.path.join(d, "error.txt")
    if os.path.exists(err):
        with open(err) as f:
            last = f.read().strip().splitlines()[-1]
        res["export"] = ("fail", f"error: export failed: {last}")
        return res
    res["export"] = ("pass", "")
    with open(os.path.join(d, "expected.json")) as f:
        expected = json.load(f)["outputs"]
    inputs = os.path.join(d, "inputs.json")
    work = os.path.join(d, "tensorlens")
    os.makedirs(work, exist_ok=True)

    def stage(name, fn, needs=None):
        if needs and res.get(needs, ("skip",))[0] != "pass":
            res[name] = ("skip", f"{needs} did not pass")
            return
        try:
            fn()
            res[name] = ("pass", "")
        except StageError as e:
            res[name] = ("fail", str(e))

    for which in ("graph", "compiled"):
        src = os.path.join(d, which + ".json")
        out = os.path.join(work, which + ".rewritten.json")
        stage(f"run_{which}", lambda: _run(app, [src], inputs, expected))

        def rewrite():
            _app(app, "rewrite", src, "-o", out, "--trace", os.path.join(work, which + ".trace.json"))
            _app(app, "print", out, "--type")  # the result loads again

        stage(f"rewrite_{which}", rewrite)
        stage(f"run_rewritten_{which}", lambda: _run(app, [out], inputs, expected), needs=f"rewrite_{which}")
    for stage_name, (listing, truth, typed) in DPRINT_LISTINGS.items():
        if not os.path.exists(os.path.join(d, listing)):
            res[stage_name] = ("skip", f"no {listing} (exported by an older export_corpus.py)")
            continue
        res[stage_name] = _dprint_stage(app, d, listing, truth, typed, inputs, expected, work)
    trace = os.path.join(d, "trace.json")
    steps = []

    def replay():
        listing = _app(app, "trace", trace)
        steps.append(int(listing.strip().splitlines()[-1].split()[0]))

    stage("trace_replay", replay)
    stage("run_trace", lambda: _run(app, ["--trace", trace, "--step", str(steps[0])], inputs, expected),
          needs="trace_replay")
    return res


def _scan_layouts(graph):
    """The ScanInfo of every Scan in a JSON graph and its inner graphs, sorted."""
    out, todo = [], [graph]
    while todo:
        g = todo.pop()
        for n in g["nodes"]:
            if n["op"] == "Scan":
                out.append(json.dumps(n["params"]["info"], sort_keys=True))
            if "inner" in n:
                todo.append(n["inner"])
    return sorted(out)


def _listing_explains(notes, error, imported, truth):
    """The import note that explains the run's failure by what the listing lacks, or None."""
    opaque = error.split("cannot execute opaque op ", 1)
    unvalued = error.split("no value for input '", 1)  # an input the values do not hold (a generator's)
    named = len(opaque) == 2 or len(unvalued) == 2
    name = opaque[1].strip() if len(opaque) == 2 else unvalued[1].split("'", 1)[0] if len(unvalued) == 2 else ""

    def names_node(note):
        return not named or name in note

    for note in notes:
        if any(k in note for k in LACKS_VALUES) and names_node(note):
            return note
    for note in notes:
        if any(k in note for k in GUESSED_TYPES) and (named and names_node(note) or "PyTensor's" in error):
            return note  # an opaque node typed by guesses, or an output of a guessed dtype
    taps = [note for note in notes if GUESSED_TAPS in note]
    if taps and not named:
        with open(imported) as f:
            ours = _scan_layouts(json.load(f)["graph"])
        with open(truth) as f:
            theirs = _scan_layouts(json.load(f)["graph"])
        if ours != theirs:
            return taps[0] + " (and the taps guessed are not PyTensor's)"
    return None


def _dprint_stage(app, d, listing, truth, typed, inputs, expected, work):
    """Imports the listing (with the input values' types when `typed`) and runs it on the
    inputs the imported graph has: pass, fail, or skip when the run fails because the
    listing lacks what it needs (_listing_explains: an elided or rounded constant, a type
    or tap dprint did not print and the importer guessed otherwise than PyTensor had)."""
    out = os.path.join(work, listing.replace(".txt", ".json"))
    args = ["import-dprint", os.path.join(d, listing), "-o", out] + (["--inputs", inputs] if typed else [])
    try:
        p = subprocess.run([app, *args], capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return ("fail", f"error: tensorlens import-dprint took over {TIMEOUT} s")
    if p.returncode != 0:
        lines = p.stderr.strip().splitlines() or [f"exit code {p.returncode}"]
        msg = lines[-1].replace(d + "/", "")
        return ("fail", f"{gap_category(msg)}: tensorlens import-dprint: {msg}")
    notes = [ln[len("note: "):] for ln in p.stderr.splitlines() if ln.startswith("note: ")]
    with open(out) as f:
        names = {v.get("name") for v in json.load(f)["graph"]["inputs"]}
    with open(inputs) as f:
        values = json.load(f)
    # A shared variable (pm.Data) prints as a named input; its value is PyTensor's, as a
    # user running the listing would hold it: the exported graph has it.
    with open(os.path.join(d, truth)) as f:
        for v in json.load(f)["graph"]["inputs"]:
            if "value" in v and v.get("name") and v["name"] not in values:
                values[v["name"]] = v["value"]
    used = os.path.join(work, listing.replace(".txt", ".inputs.json"))
    with open(used, "w") as f:  # a compiled function's listing leaves unused inputs out
        json.dump({k: v for k, v in values.items() if k in names}, f)
    try:
        _run(app, [out], used, expected)
    except StageError as e:
        why = _listing_explains(notes, str(e), out, os.path.join(d, truth))
        if why:
            return ("skip", f"the listing lacks what the run needs ({why[:200]}); run: {str(e)[:200]}")
        return ("fail", str(e))
    return ("pass", "")
