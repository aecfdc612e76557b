"""Writes the listings tst_dprint_import_listings reads: for each small PyTensor program
below, pytensor.dprint of its graph (print_type=True), of its compiled function (types,
destroy maps, op info) and of the compiled function with dprint's defaults, beside the
input values and the function's outputs (<case>.json). Each program shows one thing a
real listing holds that the importer must read: a constant shared by two loop bodies,
gradient loops (mit_mot states), a state reading taps -3 and -1, Composites nested in
Composites, inplace Elemwise names, OpFromGraph subclasses, Blockwise of any op, Print.

    ../shared/pytensor/python.sh tests/data/dprint_import/make_listings.py
"""
import io
import json
import os
import sys

import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.compile.mode import get_mode

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tools"))
from pytensor_export_types import _value_json  # noqa: E402

rng = np.random.default_rng(20261205)
cases = {}


def case(name, description, inputs, outputs, values):
    cases[name] = (description, inputs, outputs, values)


def rop_of_scan():
    x = pt.vector("x_init", shape=(7,))
    seq = pytensor.scan(lambda s: pt.exp(s) - 5, outputs_info=[x], n_steps=10)[0]
    v = pt.vector("v", shape=(7,))
    last = seq[-1]
    return [x, v], [last, pytensor.gradient.Rop(last, x, v)], {"x_init": rng.normal(size=7) * 0.1, "v": rng.normal(size=7)}


def grad_of_states():
    # A sit_sot and a mit_sot reading taps -2 and -1, and their gradient loop.
    x0 = pt.vector("x0", shape=(3,))
    w = pt.vector("w", shape=(3,))
    ys = pytensor.scan(lambda y2, y1, w: pt.tanh(y1 * w + y2 * 0.5), outputs_info=[dict(initial=pt.stack([x0, x0 * 2]), taps=[-2, -1])],
                       non_sequences=[w], n_steps=6)[0]
    zs = pytensor.scan(lambda z, w: pt.sin(z) * w, outputs_info=[x0], non_sequences=[w], n_steps=5)[0]
    cost = ys[-1] @ w + zs[-1] @ zs[-2]  # no gradient of a sum, whose ones PyTensor folds into an elided constant
    return [x0, w], [ys, cost, *pytensor.grad(cost, [x0, w])], {"x0": rng.normal(size=3) * 0.5, "w": rng.normal(size=3)}


def gapped_taps():
    # A mit_sot reading taps -3 and -1: its initial rows say the oldest tap.
    x0 = pt.vector("x0", shape=(3,))
    w = pt.vector("w", shape=(3,))
    ys = pytensor.scan(lambda y3, y1, w: y1 * 0.5 + y3 * w, outputs_info=[dict(initial=pt.stack([x0, x0 * 2, x0 * 3]), taps=[-3, -1])],
                       non_sequences=[w], n_steps=7)[0]
    return [x0, w], [ys, ys[-1]], {"x0": rng.normal(size=3), "w": rng.normal(size=3)}


def nested_loops():
    # A Scan inside a Scan: an inner input that feeds the nested loop prints two op-info tags.
    # The outer loop's sequence element c is the nested loop's non-sequence as it is.
    xs = pt.matrix("xs", shape=(4, 3))
    cs = pt.vector("cs", shape=(4,))
    a = pt.scalar("a")

    def outer(x, c, acc, a):
        inner = pytensor.scan(lambda s, c: s * c + 1.0, outputs_info=[pt.zeros(())], non_sequences=[c], n_steps=3)[0]
        return acc + inner[-1] * x * a

    out = pytensor.scan(outer, sequences=[xs, cs], outputs_info=[pt.zeros(3)], non_sequences=[a])[0]
    return [xs, cs, a], [out[-1], pytensor.grad(out[-1].sum(), a)], {"xs": rng.normal(size=(4, 3)), "cs": rng.uniform(0.5, 0.9, size=4),
                                                                     "a": np.array(0.7)}


def map_over_slices():
    # A map whose nit_sot lengths are n_steps itself: only that layout reads them right.
    xs = pt.matrix("xs", shape=(None, 3))
    ys = pt.matrix("ys", shape=(None, 3))
    k = pt.iscalar("k")
    outs = pytensor.scan(lambda x, y: [pt.exp(x) * y, x - 2 * y], sequences=[xs[k:], ys[:-k]])[0]
    return [xs, ys, k], list(outs), {"xs": np.linspace(-1, 1, 24).reshape(8, 3), "ys": np.linspace(0, 2, 24).reshape(8, 3),
                                     "k": np.array(2, dtype="int32")}


def fused_arithmetic():
    # x**4 fuses into a Composite holding Composite{sqr(sqr(i0))}; x / y runs inplace
    # as "Truediv"; a float32 sum of float64 prints its dtype only in its type.
    x = pt.vector("x", shape=(5,))
    y = pt.vector("y", shape=(5,))
    A = pt.matrix("A", shape=(5, 5))
    M = pt.tensor3("M", shape=(2, 3, 4))
    return [x, y, A, M], [x ** 4 * y + pt.exp(y), pt.dot(A, x) / y, pt.maximum(pt.dot(A, y), x), M.sum(axis=(0, 1), dtype="float32")], {
        "x": rng.normal(size=5), "y": rng.uniform(1, 2, size=5), "A": rng.normal(size=(5, 5)), "M": rng.normal(size=(2, 3, 4))}


def graph_ops():
    # OpFromGraph subclasses (Einsum, AllocDiag), Blockwise of Tri and Print.
    A = pt.tensor3("A", shape=(2, 3, 3))
    v = pt.matrix("v", shape=(2, 3))
    d = pt.vector("d", shape=(3,))
    b = pt.vector("b", shape=(2,))
    printed = pytensor.printing.Print("resid", attrs=("shape",))(d * 2.0)
    tri = pt.linalg.cholesky(A @ A.transpose(0, 2, 1) + pt.diag(d ** 2 + 1.0))
    return [A, v, d, b], [pt.einsum("bij,bj->bi", A, v), pt.diag(printed), pt.vectorize(lambda n: pt.tri(3, 3, n))(pt.cast(b, "int64")),
                          tri], {"A": rng.normal(size=(2, 3, 3)), "v": rng.normal(size=(2, 3)), "d": rng.normal(size=3),
                                 "b": np.array([0.0, 1.0])}


def scan_layouts(variables):
    """The layout of every Scan in the graph of `variables`, nested ones too, sorted: what
    the importer must read back from listings that never print taps."""
    from pytensor.graph.traversal import graph_inputs, io_toposort

    out, todo = [], [list(variables)]
    while todo:
        outs = todo.pop()
        for node in io_toposort(list(graph_inputs(outs)), outs):
            if type(node.op).__name__ != "Scan":
                continue
            i = node.op.info
            out.append({"n_seqs": i.n_seqs, "mit_mot_in_taps": [list(t) for t in i.mit_mot_in_slices],
                        "mit_mot_out_taps": [list(t) for t in i.mit_mot_out_slices],
                        "mit_sot_taps": [list(t) for t in i.mit_sot_in_slices], "n_sit_sot": len(i.sit_sot_in_slices),
                        "n_untraced": i.n_shared_outs, "n_nit_sot": i.n_nit_sot, "n_non_seqs": i.n_non_seqs,
                        "as_while": bool(i.as_while)})
            todo.append(list(node.op.inner_outputs))
    return sorted(out, key=json.dumps)


for name, (build, description) in {
    "rop_of_scan": (rop_of_scan, "the seed's loop and its Rop: the constant 5 is one object in both loop bodies"),
    "grad_of_states": (grad_of_states, "a sit_sot and a taps [-2, -1] mit_sot with their gradient loop's mit_mots"),
    "gapped_taps": (gapped_taps, "a mit_sot reading taps -3 and -1"),
    "nested_loops": (nested_loops, "a loop in a loop and its gradient"),
    "map_over_slices": (map_over_slices, "a map over sliced sequences, lengths passed as n_steps"),
    "fused_arithmetic": (fused_arithmetic, "nested Composites, inplace true_div and maximum, a float32 sum"),
    "graph_ops": (graph_ops, "Einsum, AllocDiag, Blockwise{Tri}, Print"),
}.items():
    inputs, outputs, values = build()
    f = pytensor.function(inputs, outputs, mode=get_mode("FAST_RUN"))
    args = [np.asarray(values[v.name], dtype=v.type.dtype) for v in inputs]
    got = f(*[a.copy() for a in args])
    listings = {"graph": (outputs, dict(print_type=True)),
                "compiled": (f, dict(print_type=True, print_destroy_map=True, print_op_info=True)), "plain": (f, {})}
    for kind, (target, options) in listings.items():
        text = io.StringIO()
        pytensor.dprint(target, file=text, **options)
        with open(os.path.join(HERE, f"{name}.{kind}.txt"), "w") as fh:
            fh.write(text.getvalue())
    doc = {"description": description, "generated_by": "tests/data/dprint_import/make_listings.py", "pytensor": pytensor.__version__,
           "inputs": {v.name: _value_json(a, str(a.dtype)) for v, a in zip(inputs, args)},
           "outputs": [_value_json(o, str(np.asarray(o).dtype)) for o in got],
           "scans": {"graph": scan_layouts(outputs), "compiled": scan_layouts(f.maker.fgraph.outputs)}}
    with open(os.path.join(HERE, f"{name}.json"), "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")
    print("wrote", name, file=sys.stderr)
