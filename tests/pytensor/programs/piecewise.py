"""Piecewise functions: Huber loss, a clipped linear response, ReLU variants via switch, clip and where."""
import numpy as np
import pytensor
import pytensor.tensor as pt

r = pt.vector("r", shape=(21,))
delta = pt.scalar("delta")
lo = pt.scalar("lo")
hi = pt.scalar("hi")

huber = pt.switch(pt.abs(r) <= delta, 0.5 * r**2, delta * (pt.abs(r) - 0.5 * delta))
clipped = pt.clip(2 * r + 1, lo, hi)
leaky = pt.where(r > 0, r, 0.1 * r)
relu = pt.maximum(r, 0)
elu = pt.switch(r > 0, r, pt.expm1(r))
step = pt.sign(r) * pt.minimum(pt.abs(r), 1)
loss = huber.sum() + (clipped**2).mean()
g = pytensor.grad(loss, r)

inputs = [r, delta, lo, hi]
outputs = [huber, clipped, leaky, relu, elu, step, loss, g]

values = {
    "r": np.linspace(-3.0, 3.0, 21),
    "delta": np.array(1.2),
    "lo": np.array(-1.5),
    "hi": np.array(2.5),
}
