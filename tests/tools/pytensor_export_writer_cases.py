"""The exporter's writer checks for tests/tools/test_pytensor_export.py: one path writes an op
wherever it appears, scalar ops tensorlens lacks keep the Elemwise form, dtypes it lacks
fail. Imported once PyTensor is known to be importable."""

import json
import os
import re

import pytensor
import pytensor.tensor as pt

import pytensor_export


def writer_cases(app, tmp, run_app):
    """(name, check) pairs: one path writes an op wherever it appears (top level, a Blockwise's
    core op, a trace's created nodes), scalar ops tensorlens lacks keep the Elemwise form,
    dtypes it lacks fail. `run_app(app, *args)` runs tensorlens."""
    import pytensor.scalar as ps
    from pytensor.gradient import jacobian
    from pytensor.tensor.elemwise import Elemwise
    from pytensor.tensor.xlogx import scalar_xlogx, xlogx, xlogy0
    from pytensor_export_ops import tensorlens_names
    from pytensor_export_trace import record_rewrites

    x = pt.vector("x", shape=(4,))

    def ops_of(graph):
        return [n for n in graph["nodes"]] + [m for n in graph["nodes"] if "inner" in n for m in ops_of(n["inner"])]

    def core_op_as_top_level():
        # jacobian(vectorize=True) vmaps the gradient of x[:3]: Blockwise{IncSubtensor{:stop}}
        doc = pytensor_export.export_graph([jacobian(pt.exp(x[:3]), x, vectorize=True)])
        cores = [n["params"]["core_op"] for n in ops_of(doc["graph"]) if n["op"] == "Blockwise"]
        top = [n for n in ops_of(pytensor_export.export_graph([pt.inc_subtensor(x[:3], 1.0)])["graph"])
               if n["op"] == "IncSubtensor"][0]
        assert {"kind": "IncSubtensor", "params": top["params"]} in cores, cores
        assert top["params"]["idx_list"] == [":stop"], top["params"]

    def scalar_op_at_top_level():
        s = ps.int64("s")
        doc = pytensor_export.export_graph([pt.tensor_from_scalar(ps.neg(s) * 2)])
        scalars = [n["params"] for n in doc["graph"]["nodes"] if n["op"] == "Scalar"]
        assert scalars == [{"scalar_op": "neg"}, {"scalar_op": "mul"}], [n["op"] for n in doc["graph"]["nodes"]]
        path = os.path.join(tmp, "scalar_top_level.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        with open(path + ".in.json", "w") as f:
            json.dump({"s": {"dtype": "int64", "shape": [], "data": [3]}}, f)
        got = json.loads(run_app(app, "run", path, "--inputs", path + ".in.json", "--json"))["outputs"]
        assert got[0]["data"] in (-6, [-6]), got

    def scalar_op_in_trace():
        # local_fill_to_alloc builds a shape through broadcast_shape, which applies ps.neg(1) on its own
        M = pt.matrix("M", shape=(3, 2))
        mask = pt.matrix("mask", shape=(3, 2), dtype="bool")
        trace = record_rewrites([M, mask], [pytensor.grad(M[mask.nonzero()].sum(), M)])
        created = [e["node"] for st in trace["steps"] for e in st["edits"] if e["kind"] == "create_node"]
        assert not [n["op"] for n in created if n["op"] in ("Neg", "Mul", "Add")], [n["op"] for n in created]
        assert any(n["op"] == "Scalar" and n["params"] == {"scalar_op": "neg"} for n in created), \
            sorted(set(n["op"] for n in created))

    def unknown_scalar_op():
        notes = []
        a = ps.float64("a")
        fused = Elemwise(ps.Composite([a], [scalar_xlogx(ps.exp(a))]))(x)
        doc = pytensor_export.export_graph([xlogx(x), xlogy0(x, x), fused], notes)
        keys = [n["params"] for n in ops_of(doc["graph"]) if n["op"] in ("Elemwise", "Scalar")]
        for key in ("xlogx", "xlogy0"):
            assert {"scalar_op": key} in keys, keys  # the Elemwise form: no stray props (inplace_pattern)
        scalars = tensorlens_names()[1]
        lacking = sorted(k for k in ("xlogx", "xlogy0") if k not in scalars)
        assert sorted(set(re.findall(r"scalar op '(\w+)'", " ".join(notes)))) == lacking, notes

    def dtypes_tensorlens_lacks():
        for dtype, graph in (("float16", lambda: [x + pt.vector("u", dtype="float16", shape=(4,))]),
                             ("complex128", lambda: [pt.cast(x, "complex128") * 2])):
            try:
                pytensor_export.export_graph(graph())
            except pytensor_export.ExportError as e:
                msg = str(e)
                assert f"has dtype {dtype}" in msg and ("'u'" in msg or "Cast{complex128}" in msg), msg
                continue
            raise AssertionError(f"a graph with a {dtype} variable exported")

    def shared_variable_values():
        # pm.Data is a shared variable: an input of the graph that holds its value, which
        # tensorlens uses when a run gives none, and a run's value replaces.
        import numpy as np
        data = pytensor.shared(np.array([1.0, 2.0, 3.0, 4.0]), name="data")
        doc = pytensor_export.export_graph([x * data])
        shared = [i for i in doc["graph"]["inputs"] if i.get("name") == "data"]
        assert shared and shared[0]["value"]["data"] == [1.0, 2.0, 3.0, 4.0], doc["graph"]["inputs"]
        assert all("value" not in i for i in doc["graph"]["inputs"] if i.get("name") == "x"), doc["graph"]["inputs"]
        path = os.path.join(tmp, "shared_value.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        for given, want in (({"x": [1, 1, 1, 2]}, [1.0, 2.0, 3.0, 8.0]),
                            ({"x": [1, 1, 1, 2], "data": [0, 0, 1, 1]}, [0.0, 0.0, 1.0, 2.0])):
            with open(path + ".in.json", "w") as f:
                json.dump(given, f)
            got = json.loads(run_app(app, "run", path, "--inputs", path + ".in.json", "--json"))["outputs"]
            assert got[0]["data"] == want, (given, got)

    return [("a Blockwise's core op as at top level", core_op_as_top_level),
            ("a shared variable's value goes with its input", shared_variable_values),
            ("a scalar op outside a Composite (graph)", scalar_op_at_top_level),
            ("a scalar op outside a Composite (trace)", scalar_op_in_trace),
            ("scalar ops tensorlens lacks in the Elemwise form", unknown_scalar_op),
            ("float16 / complex128 fail naming the variable", dtypes_tensorlens_lacks)]
