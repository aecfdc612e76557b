"""The op classes of a PyTensor graph (with inner graphs) and the scalar ops of its
Elemwise/CAReduce nodes, counted: what tests/pytensor/export_corpus.py writes to ops.json."""

from collections import Counter

from pytensor.compile.function.types import Function
from pytensor.graph.basic import Variable
from pytensor.graph.fg import FunctionGraph

try:
    from pytensor.graph.traversal import io_toposort
except ImportError:  # pragma: no cover
    from pytensor.graph.basic import io_toposort




def _walk(order, ops, variants, scalars, depth=0):
    for node in order:
        op = node.op
        cls = type(op).__name__
        ops[cls] += 1
        label = str(op)
        variants[f"{cls}: {label}"] += 1
        sop = getattr(op, "scalar_op", None)
        if sop is not None:
            _scalar(sop, scalars)
        core = getattr(op, "core_op", None)
        if core is not None:
            ops[f"{cls}[{type(core).__name__}]"] += 1
            csop = getattr(core, "scalar_op", None)
            if csop is not None:
                _scalar(csop, scalars)
        inner = getattr(op, "fgraph", None)
        if inner is not None and depth < 8 and cls != "Elemwise":
            _walk(inner.toposort(), ops, variants, scalars, depth + 1)


def _scalar(sop, scalars):
    scalars[type(sop).__name__] += 1
    inner = getattr(sop, "fgraph", None)
    if inner is not None:
        for n in inner.toposort():
            _scalar(n.op, scalars)


def graph_ops(obj):
    """{"ops": {class: count}, "variants": {"class: str(op)": count}, "scalar_ops": {class: count}}."""
    if isinstance(obj, Function):
        obj = obj.maker.fgraph
    if isinstance(obj, FunctionGraph):
        order = obj.toposort()
    else:
        order = io_toposort([], [obj] if isinstance(obj, Variable) else list(obj))
    ops, variants, scalars = Counter(), Counter(), Counter()
    _walk(order, ops, variants, scalars)
    return {"ops": dict(sorted(ops.items())), "variants": dict(sorted(variants.items())),
            "scalar_ops": dict(sorted(scalars.items()))}
