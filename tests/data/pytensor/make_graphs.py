#!/usr/bin/env python3
"""Real PyTensor 2.34 graphs the engine tests load (tests/engine/tst_pytensor_graphs.cpp):
advanced indexing, scatter updates, ifelse and OpFromGraph, and a mit_sot whose taps are
not ascending. They use no other op tensorlens may lack (no gradients, which bring
Second; no products, which FAST_RUN turns into BLAS calls; no reduction of an
elementwise result, which it fuses into a CAReduce), so they load as they are. Regenerate with ../shared/pytensor/python.sh tests/data/pytensor/make_graphs.py;
a changed file is reviewed like code.

Each case writes <case>/graph.json (as built), compiled.json (FAST_RUN), inputs.json,
expected.json (the compiled function's outputs, as `tensorlens run --json` writes them),
graph.txt and compiled.txt (pytensor.dprint with print_type; the compiled one also with
print_destroy_map, print_view_map and the topological indices).
"""

import io
import json
import os
import sys
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import numpy as np  # noqa: E402
import pytensor  # noqa: E402
import pytensor.tensor as pt  # noqa: E402
from pytensor.compile.builders import OpFromGraph  # noqa: E402
from pytensor.ifelse import ifelse  # noqa: E402

import pytensor_export as pe  # noqa: E402


def value_json(a):
    a = np.asarray(a)
    return pe._value_json(a, str(a.dtype))


def write_json(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


def dprint_text(obj, **kw):
    buf = io.StringIO()
    with redirect_stdout(buf):
        pytensor.dprint(obj, print_type=True, **kw)
    return buf.getvalue()


def export(name, inputs, outputs, values):
    out = os.path.join(HERE, name)
    os.makedirs(out, exist_ok=True)
    f = pytensor.function(inputs, outputs)
    args = [values[v.name] for v in inputs]
    results = f(*args)
    pe.save_graph(outputs, os.path.join(out, "graph.json"))
    pe.save_graph(f, os.path.join(out, "compiled.json"))
    write_json(os.path.join(out, "inputs.json"), {v.name: value_json(values[v.name]) for v in inputs})
    expected = []
    for k, r in enumerate(results):
        j = value_json(r)
        j["name"] = f"output{k}"
        expected.append(j)
    write_json(os.path.join(out, "expected.json"), {"outputs": expected})
    with open(os.path.join(out, "graph.txt"), "w") as fh:
        fh.write(dprint_text(outputs))
    with open(os.path.join(out, "compiled.txt"), "w") as fh:
        fh.write(dprint_text(f, print_destroy_map=True, print_view_map=True))


def advanced_indexing():
    M = pt.matrix("M", shape=(6, 5))
    idx = pt.vector("idx", shape=(4,), dtype="int64")
    cols = pt.vector("cols", shape=(4,), dtype="int64")
    mask = pt.vector("mask", shape=(6,), dtype="bool")
    mask2 = pt.matrix("mask2", shape=(4, 3), dtype="bool")
    T = pt.tensor3("T", shape=(4, 3, 5))
    n = pt.scalar("n", dtype="int64")
    outputs = [
        M[idx], M[idx, cols], M[:, cols], M[mask], M[M > 0.5],
        T[idx[:2], :, cols[1:3]],          # advanced - slice - advanced: advanced dims first
        T[:, idx[:2], cols[1:3]],          # consecutive advanced indices stay in place
        T[idx[:2]][:, ::-1, -2],
        M[None, idx], M[1:3, idx], M[1:n, idx], M[np.array([0, 1, 2]), -2],
        M[idx[:, None], cols[None, :3]],   # broadcasting index arrays
        T[mask2], T[mask2, 1:4], T[idx[-1], :, -1],
        M[-idx], T[:, -1, idx],
    ]
    inputs = [M, idx, cols, mask, mask2, T, n]
    rng = np.random.default_rng(7)
    values = {"M": rng.normal(size=(6, 5)), "idx": np.array([0, 2, 2, -1]), "cols": np.array([4, 0, 2, 1]),
              "mask": np.array([True, False, True, True, False, True]),
              "mask2": rng.normal(size=(4, 3)) > 0, "T": rng.normal(size=(4, 3, 5)), "n": np.array(5)}
    export("advanced_indexing", inputs, outputs, values)


def scatter_updates():
    x = pt.vector("x", shape=(8,))
    M = pt.matrix("M", shape=(5, 4))
    idx = pt.vector("idx", shape=(6,), dtype="int64")
    vals = pt.vector("vals", shape=(6,))
    ix = pt.vector("ix", shape=(6,), dtype="int32")
    outputs = [
        pt.inc_subtensor(x[idx], vals),                        # repeated indices accumulate (np.add.at)
        pt.set_subtensor(x[idx], vals),                        # the last write wins
        pt.inc_subtensor(x[idx], vals, ignore_duplicates=True),  # x[idx] += vals
        pt.inc_subtensor(M[idx[:3], 1:], 1.0),
        pt.set_subtensor(M[:, idx[:2]], M[:, :2] * 2),
        pt.set_subtensor(x[x < 0], 0.0),
        pt.inc_subtensor(M[idx[:4], idx[2:]], vals[:4]),
        pt.inc_subtensor(M[ix[:3]], vals[:4]),                 # int32 indices, a broadcast row
        pt.set_subtensor(M[idx[1:3]], M[idx[:2]] - 1.0),
    ]
    inputs = [x, M, idx, vals, ix]
    rng = np.random.default_rng(36)
    values = {"x": rng.normal(size=8), "M": rng.normal(size=(5, 4)), "idx": np.array([1, 3, 1, 0, 3, 2]),
              "vals": np.arange(1.0, 7.0), "ix": np.array([4, 0, 4, 1, 2, 3], dtype="int32")}
    export("scatter_updates", inputs, outputs, values)


def ifelse_opfromgraph():
    x = pt.vector("x", shape=(6,))
    W = pt.matrix("W", shape=(6, 6))
    threshold = pt.scalar("threshold")
    k = pt.scalar("k", dtype="int64")
    a, b = pt.vector("a", shape=(6,)), pt.matrix("b", shape=(6, 6))
    layer = OpFromGraph([a, b], [pt.tanh(b.sum(0) * a) + a], name="residual_layer")
    inlined = OpFromGraph([a, b], [pt.exp(a) * b.sum(0)], name="scaled", inline=True)
    two = OpFromGraph([a], [a * 2, a.sum()])
    h = layer(layer(x, W), W)
    norm = h.sum()
    out = ifelse(pt.gt(norm, threshold), h / norm, h)
    d, s = two(x)
    lazy = ifelse(pt.lt(k, 6), x[k], x[0] * 0.0)   # the untaken branch would index out of range
    pair = ifelse(pt.gt(threshold, 0.0), [x, W.sum()], [x * 3, threshold], name="pair")
    outputs = [h, out, ifelse(pt.lt(threshold, 0.0), x, -x), inlined(x, W), d, s, lazy, *pair]
    inputs = [x, W, threshold, k]
    rng = np.random.default_rng(50)
    values = {"x": rng.normal(size=6), "W": rng.normal(size=(6, 6)) * 0.4, "threshold": np.array(1.0),
              "k": np.array(9)}
    export("ifelse_opfromgraph", inputs, outputs, values)


def mitsot_taps_order():
    x0 = pt.vector("x0", shape=(3,))
    c = pt.scalar("c")
    # taps=[-1, -3]: the first inner input is t-1, the second t-3 (ScanInfo keeps this order).
    seq, _ = pytensor.scan(lambda xm1, xm3, c: 0.5 * xm1 - c * xm3 + 1.0,
                           outputs_info=[dict(initial=x0, taps=[-1, -3])], non_sequences=[c], n_steps=7)
    seq2, _ = pytensor.scan(lambda xm2, xm1: xm1 - 0.25 * xm2,
                            outputs_info=[dict(initial=x0[:2], taps=[-2, -1])], n_steps=5)
    outputs = [seq, seq[-1], seq2]
    inputs = [x0, c]
    values = {"x0": np.array([1.0, -2.0, 0.5]), "c": np.array(0.3)}
    export("mitsot_taps_order", inputs, outputs, values)


if __name__ == "__main__":
    advanced_indexing()
    scatter_updates()
    ifelse_opfromgraph()
    mitsot_taps_order()
