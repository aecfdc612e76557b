"""Lazy branching with ifelse and a reusable OpFromGraph block applied twice, with its gradient."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.compile.builders import OpFromGraph
from pytensor.ifelse import ifelse

x = pt.vector("x", shape=(6,))
W = pt.matrix("W", shape=(6, 6))
threshold = pt.scalar("threshold")

a, b = pt.vector("a", shape=(6,)), pt.matrix("b", shape=(6, 6))
layer = OpFromGraph([a, b], [pt.tanh(b @ a) + a], name="residual_layer")
h = layer(layer(x, W), W)
norm = pt.sqrt(pt.sum(h**2))
out = ifelse(pt.gt(norm, threshold), h / norm, h)
g = pytensor.grad(out.sum(), x)

inputs = [x, W, threshold]
outputs = [h, out, g, ifelse(pt.lt(threshold, 0.0), x, -x)]

rng = np.random.default_rng(50)
values = {"x": rng.normal(size=6), "W": rng.normal(size=(6, 6)) * 0.4, "threshold": np.array(1.0)}
