"""The gradient of log(erfc(x)) far in the upper tail, where exp(-x^2) and erfc(x) both underflow
and their quotient is 0/0: PyTensor's local_grad_log_erfc_neg switches to the asymptote past
x = 26.64 (float64) and 9.3 (float32). Also weighted (a factor y beside the exp), and log(erfc(x))
itself (local_log_erfc). The graph as written gives NaN there (run_graph, a known gap by design);
rewritten, it gives PyTensor's numbers."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x = pt.vector("x", shape=(6,))
w = pt.vector("w", shape=(6,))
x32 = pt.vector("x32", shape=(5,), dtype="float32")

cost = pt.log(pt.erfc(x)).sum()
weighted = (w * pt.log(pt.erfc(x))).sum()
cost32 = pt.log(pt.erfc(x32)).sum()
inputs = [x, w, x32]
outputs = [pt.log(pt.erfc(x)), pytensor.grad(cost, x), *pytensor.grad(weighted, [x, w]), pytensor.grad(cost32, x32)]
values = {"x": np.array([-3.0, 0.0, 1.0, 20.0, 30.0, 80.0]), "w": np.array([0.5, 1.0, -2.0, 3.0, 0.25, 1.5]),
          "x32": np.array([1.0, 5.0, 9.0, 9.5, 12.0], dtype=np.float32)}
