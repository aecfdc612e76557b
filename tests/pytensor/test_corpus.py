#!/usr/bin/env python3
"""The PyTensor corpus in tensorlens: every program of tests/pytensor/programs/, exported by
a real PyTensor (export_corpus.py), is run, rewritten and replayed with the built binary.

    python3 tests/pytensor/test_corpus.py --app path/to/tensorlens --shared ../shared --out DIR
                                          [--only NAME...] [--no-export] [--update-gaps]
                                          [--programs FOLDER | --random SEED COUNT]

Stages per program (each compared with PyTensor's outputs where it runs a graph):
  run_graph, run_compiled               `tensorlens run` of graph.json / compiled.json
  rewrite_graph, rewrite_compiled       `tensorlens rewrite` of each: the result loads and prints
  run_rewritten_graph, run_rewritten_compiled   the rewritten graphs, run
  trace_replay                          `tensorlens trace` of PyTensor's own rewrites (trace.json)
  run_trace                             the graph after the trace's last step, run
  dprint_graph, dprint_compiled         `tensorlens import-dprint` of pytensor.dprint's listing of the
                                        graph (with types) and of the compiled function (with types,
                                        destroy maps and op info), run
  dprint_plain                          the compiled function's listing with dprint's defaults (no
                                        types), imported with --inputs, run
  A dprint run that fails where the import notes say the listing lacks what it needs (an elided
  or rounded constant, a type or tap dprint did not print) is skipped, with that note.

What does not work yet is listed in known_gaps.json, {program: {stage: "category: reason"}}
with the categories of gap_category(). The test fails on a failure the list does not
name, on a listed stage that passes (remove it), and on a listed failure whose
category changed (a missing op that now gives wrong values). --update-gaps rewrites
the list: it drops stages that pass and refreshes reasons, and adds nothing new unless
--add-gaps is given too. Skipped (exit 0, "skipped: ...") without ../shared/pytensor.
"""

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GAPS = os.path.join(HERE, "known_gaps.json")
PROGRAMS = os.path.join(HERE, "programs")
sys.path.insert(0, HERE)

from corpus_checks import STAGES, check_program, gap_category  # noqa: E402
import random_programs  # noqa: E402


def load_gaps():
    with open(GAPS) as f:
        return json.load(f)


def export(shared, out, only, programs):
    cmd = [os.path.join(shared, "pytensor", "python.sh"), os.path.join(HERE, "export_corpus.py"), "--out", out,
           "--programs", programs]
    if only:
        cmd += ["--only", *only]
    p = subprocess.run(cmd, capture_output=True, text=True)
    for line in p.stderr.splitlines():
        if not line.startswith("note:"):
            print(line)
    return p.returncode


def table(results, gaps):
    names = sorted(results)
    short = {s: s.replace("rewritten_", "rw_").replace("compiled", "comp") for s in STAGES}
    width = max(len(n) for n in names) + 2
    lines = ["program".ljust(width) + " ".join(short[s].ljust(max(len(short[s]), 6)) for s in STAGES)]
    for n in names:
        cells = []
        for s in STAGES:
            status, _ = results[n].get(s, ("skip", ""))
            known = s in gaps.get(n, {})
            mark = {"pass": "ok" if not known else "PASS!", "fail": "gap" if known else "FAIL",
                    "skip": "-"}[status]
            cells.append(mark.ljust(max(len(short[s]), 6)))
        lines.append(n.ljust(width) + " ".join(cells))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--app", required=True, help="the tensorlens executable")
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    ap.add_argument("--out", required=True, help="where the corpus is exported (a build folder)")
    ap.add_argument("--only", nargs="+", metavar="NAME")
    ap.add_argument("--programs", default=PROGRAMS,
                    help="the folder of programs; known_gaps.json applies to the default only")
    ap.add_argument("--random", nargs=2, type=int, metavar=("SEED", "COUNT"),
                    help="check COUNT programs of random_programs.py's SEED instead (written to OUT/programs)")
    ap.add_argument("--no-export", action="store_true", help="check what --out already holds")
    ap.add_argument("--update-gaps", action="store_true")
    ap.add_argument("--add-gaps", action="store_true")
    a = ap.parse_args()
    if not os.path.isfile(os.path.join(a.shared, "pytensor", "python.sh")):
        print(f"skipped: no PyTensor at {os.path.join(a.shared, 'pytensor')} (../shared/pytensor is absent)")
        return 0
    if a.random:
        a.programs = os.path.join(a.out, "programs")
        random_programs.write(a.programs, *a.random)
    if not a.no_export:
        export(a.shared, a.out, a.only, a.programs)
    own = os.path.samefile(a.programs, PROGRAMS)
    gaps = load_gaps() if own else {}
    names = sorted(d for d in os.listdir(a.out) if os.path.isdir(os.path.join(a.out, d)))
    if a.only:
        names = [n for n in names if n in a.only]
    programs = sorted(f[:-3] for f in os.listdir(a.programs) if f.endswith(".py") and not f.startswith("_"))
    results, problems, checked = {}, [], 0
    for n in sorted(set(gaps) - set(programs)):
        problems.append(f"{n}: listed in known_gaps.json but there is no such program")
    todo = [n for n in programs if not a.only or n in a.only]
    # Each check runs the (sanitized, in CI) binary one stage at a time and waits on it:
    # one worker per core keeps both cores busy; the results do not depend on the order.
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        checks = {n: pool.submit(check_program, a.app, os.path.join(a.out, n)) for n in todo if n in names}
        for n in todo:
            results[n] = checks[n].result() if n in checks else {"export": ("fail", "error: not exported")}
    for n in todo:
        known = gaps.get(n, {})
        for stage, (status, msg) in results[n].items():
            checked += status != "skip"
            if status == "fail" and stage not in known:
                problems.append(f"{n} {stage}: fails and is not in known_gaps.json: {msg}")
            elif status == "fail" and gap_category(known[stage]) != gap_category(msg):
                problems.append(f"{n} {stage}: listed as '{known[stage]}' but now fails with '{msg}'")
            elif status == "pass" and stage in known:
                problems.append(f"{n} {stage}: passes; remove it from known_gaps.json ({known[stage]})")
    with open(os.path.join(a.out, "test_results.json"), "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    print(table(results, gaps))
    print("\nok: passes; gap: fails as known_gaps.json says; FAIL: fails unlisted; PASS!: passes but listed; -: not run")
    if a.update_gaps and own:
        new = {}
        for n in sorted(results):
            for stage, (status, msg) in results[n].items():
                if status == "fail" and (stage in gaps.get(n, {}) or a.add_gaps):
                    new.setdefault(n, {})[stage] = msg[:300]
        for n in gaps:  # programs not checked this time keep their entries
            if n not in results:
                new[n] = gaps[n]
        with open(GAPS, "w") as f:
            json.dump(dict(sorted(new.items())), f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"wrote {GAPS}")
    for p in problems:
        print("PROBLEM", p)
    print(f"{checked - len(problems)} passed, {len(problems)} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
