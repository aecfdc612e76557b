#!/usr/bin/env python3
"""A Markdown inventory of an exported corpus: per program, the op classes of the graph as
built and compiled (with counts), the scalar ops, and which stages fail in tensorlens and
why; then every op class and scalar op with the number of programs using it.

    python3 tests/pytensor/inventory_report.py DIR > inventory.md

DIR is export_corpus.py's --out; test_corpus.py leaves its results there (test_results.json).
"""

import json
import os
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_checks import STAGES  # noqa: E402


def load(path, default=None):
    if not os.path.exists(path):
        return default
    with open(path) as f:
        return json.load(f)


def counts(d):
    return ", ".join(f"{k} ×{v}" if v > 1 else k for k, v in sorted(d.items())) or "-"


def main(argv):
    root = argv[0]
    results = load(os.path.join(root, "test_results.json"), {})
    summary = load(os.path.join(root, "export_summary.json"), {})
    names = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
    op_use, scalar_use, variant_use, missing_use = Counter(), Counter(), Counter(), Counter()
    out = ["# PyTensor corpus inventory", "",
           "Made by tests/pytensor/inventory_report.py from an export of tests/pytensor/programs/ "
           "(export_corpus.py) and the results of test_corpus.py. Op classes are counted in the graph as "
           "built and in the FAST_RUN compiled graph, inner graphs (Scan bodies, OpFromGraph) included; "
           "`Blockwise[X]` counts Blockwise nodes by core op. \"tensorlens lacks\" lists every op kind and "
           "scalar op key of the exported files that engine/ops/OpKinds.def and ScalarOps.def do not name "
           "(tensorlens stops loading at the first one, so the failure messages show only that one).", ""]
    if summary:
        out.append(f"PyTensor {summary.get('pytensor')}; {len(names)} programs; export took "
                   f"{summary.get('seconds', 0):.0f} s in one process.")
        out.append("")
    body = []
    for n in names:
        ops = load(os.path.join(root, n, "ops.json"))
        body.append(f"## {n}")
        body.append("")
        if ops is None:
            body.append("export failed: " + open(os.path.join(root, n, "error.txt")).read().strip().splitlines()[-1])
            body.append("")
            continue
        used_ops, used_scalars, used_variants = set(), set(), set()
        for which in ("graph", "compiled"):
            g = ops[which]
            used_ops |= set(g["ops"])
            used_scalars |= set(g["scalar_ops"])
            used_variants |= set(g["variants"])
            body.append(f"- **{which}** ops: {counts(g['ops'])}")
            body.append(f"  - scalar ops: {counts(g['scalar_ops'])}")
            rare = {k: v for k, v in g["variants"].items() if not k.startswith(("Elemwise:", "DimShuffle:"))}
            body.append(f"  - as printed: {counts(rare)}")
        for o in used_ops:
            op_use[o] += 1
        for s in used_scalars:
            scalar_use[s] += 1
        for v in used_variants:
            variant_use[v] += 1
        res = results.get(n)
        if res:
            fails = [(s, m) for s, (st, m) in res.items() if st == "fail"]
            ok = [s for s, (st, _) in res.items() if st == "pass"]
            body.append(f"- passes: {', '.join(ok) or '-'}")
            for s, m in fails:
                body.append(f"- fails **{s}**: `{m}`")
        notes = os.path.join(root, n, "notes.txt")
        lines = [ln for ln in open(notes).read().splitlines() if ln] if os.path.exists(notes) else []
        lacks = set()
        for ln in lines:
            if ln.endswith("which this tensorlens lacks"):
                lacks |= set(ln.rsplit(": written as ", 1)[1][:-len(", which this tensorlens lacks")].split(", "))
        for x in lacks:
            missing_use[x] += 1
        if lacks:
            body.append(f"- tensorlens lacks: {', '.join(sorted(lacks))}")
        other = [ln for ln in lines if not ln.endswith("which this tensorlens lacks")]
        if other:
            body.append(f"- exporter notes: {'; '.join(other)}")
        body.append("")
    if results:
        stages = list(STAGES)
        out.append("## Stages in tensorlens today (ok / fail / - not run)")
        out.append("")
        out.append("| program | " + " | ".join(stages) + " |")
        out.append("|---|" + "---|" * len(stages))
        for n in sorted(results):
            cells = [{"pass": "ok", "fail": "fail"}.get(results[n].get(st, ["skip"])[0], "-") for st in stages]
            out.append(f"| {n} | " + " | ".join(cells) + " |")
        out.append("")
    out.append("## What tensorlens lacks (op kinds and scalar op keys as exported; programs needing each)")
    out.append("")
    out.append("| missing | programs |")
    out.append("|---|---|")
    out += [f"| {k} | {v} |" for k, v in sorted(missing_use.items(), key=lambda kv: (-kv[1], kv[0]))]
    out.append("")
    out.append("## Op classes across the corpus (programs using each, graph as built or compiled)")
    out.append("")
    out.append("| op class | programs |")
    out.append("|---|---|")
    out += [f"| {k} | {v} |" for k, v in sorted(op_use.items(), key=lambda kv: (-kv[1], kv[0]))]
    out.append("")
    out.append("## Scalar ops across the corpus (in Elemwise, Composite, CAReduce)")
    out.append("")
    out.append("| scalar op class | programs |")
    out.append("|---|---|")
    out += [f"| {k} | {v} |" for k, v in sorted(scalar_use.items(), key=lambda kv: (-kv[1], kv[0]))]
    out.append("")
    out.append("## Non-elementwise ops as printed, with their props (programs using each)")
    out.append("")
    out += [f"- `{k}`: {v}" for k, v in sorted(variant_use.items())
            if not k.startswith(("Elemwise:", "DimShuffle:"))]
    out.append("")
    print("\n".join(out + ["# Programs", ""] + body))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
