"""A loop of elementwise work over sequences read through symbolic slices, whose outputs are all
nit_sots: PyTensor pushes the whole loop out of the scan."""
import numpy as np
import pytensor
import pytensor.tensor as pt

xs = pt.matrix("xs", shape=(None, 3))
ys = pt.matrix("ys", shape=(None, 3))
k = pt.iscalar("k")

outs, _ = pytensor.scan(lambda x, y: [pt.exp(x) * y, x - 2 * y], sequences=[xs[k:], ys[:-k]])

inputs = [xs, ys, k]
outputs = [outs[0], outs[1]]

values = {"xs": np.linspace(-1, 1, 24).reshape(8, 3), "ys": np.linspace(0, 2, 24).reshape(8, 3),
          "k": np.array(2, dtype="int32")}
