#!/usr/bin/env python3
"""How close tensorlens's rewritten graphs come to PyTensor's compiled ones, op by op: each
program of an exported corpus is rewritten by `tensorlens rewrite`, and the nodes of each
op kind (outer graph) are counted in that result and in PyTensor's compiled graph.

    python3 tests/pytensor/op_parity.py DIR --app build/app/tensorlens [--programs] [OP ...]

DIR is export_corpus.py's --out. Without OP names it lists the BLAS and product ops;
--programs adds, for each op, the programs whose counts differ.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter

PRODUCT_OPS = ["Dot", "Dot22", "Dot22Scalar", "Gemm", "CGemv", "CGer", "BatchedDot", "Blockwise"]


def op_counts(path):
    with open(path) as f:
        return Counter(node["op"] for node in json.load(f)["graph"]["nodes"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--app", required=True)
    ap.add_argument("--programs", action="store_true")
    ap.add_argument("ops", nargs="*")
    args = ap.parse_intermixed_args()
    ops = args.ops or PRODUCT_OPS
    per_program = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(os.listdir(args.dir)):
            d = os.path.join(args.dir, name)
            compiled, graph = os.path.join(d, "compiled.json"), os.path.join(d, "graph.json")
            if not (os.path.exists(compiled) and os.path.exists(graph)):
                continue
            out = os.path.join(tmp, name + ".json")
            p = subprocess.run([args.app, "rewrite", graph, "-o", out], capture_output=True, text=True)
            if p.returncode != 0:
                print(f"{name}: tensorlens rewrite failed: {p.stderr.strip()[:200]}", file=sys.stderr)
                continue
            per_program[name] = (op_counts(out), op_counts(compiled))
    print(f"{len(per_program)} programs")
    print(f"{'op':<14}{'tensorlens':>12}{'PyTensor':>10}")
    for op in ops:
        ours = sum(c[0][op] for c in per_program.values())
        theirs = sum(c[1][op] for c in per_program.values())
        print(f"{op:<14}{ours:>12}{theirs:>10}")
        if args.programs:
            for name, (a, b) in per_program.items():
                if a[op] != b[op]:
                    print(f"    {name}: {a[op]} vs {b[op]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
