"""Expressions that are only finite after the stabilize rewrites, at arguments where the naive
formula overflows or cancels: log(sigmoid), log(1 - sigmoid), log(1 + exp), log(1 - exp), log(erfc),
log(softmax), log(sum(exp)), exp(x) - 1, log(1 + x), 1 - erf, and the gradient of the first five.
The graph as written gives -inf and NaN there (run_graph, a known gap by design); rewritten, it
gives PyTensor's numbers."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x = pt.vector("x", shape=(6,))
s = pt.vector("s", shape=(4,))

terms = [
    pt.log(pt.sigmoid(x)), pt.log(1 - pt.sigmoid(x)), pt.log(1 + pt.exp(x)), pt.log(1 - pt.exp(-pt.abs(x) - 1e-3)),
    pt.log(pt.erfc(pt.abs(x) / 10)), pt.log(pt.special.softmax(s * 100)), pt.log(pt.sum(pt.exp(s * 400))),
    pt.exp(x * 1e-9) - 1, pt.log(1 + x * 1e-17), 1 - pt.erf(x / 20),
]
g = pytensor.grad(sum(t.sum() for t in terms[:5]), x)
inputs = [x, s]
outputs = [*terms, g]
values = {"x": np.array([-800.0, -50.0, -1.0, 3.0, 60.0, 700.0]), "s": np.array([1.0, -3.0, 8.0, 2.5])}
