"""A reusable layer as an OpFromGraph called inside a scan step (a residual MLP block applied at
every step of a neural ODE with Euler steps), an ifelse with two outputs choosing a step size, and the
gradient of the final loss in the block's weights through the scan and the OpFromGraph."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.compile.builders import OpFromGraph
from pytensor.ifelse import ifelse

D, Hd, T = 3, 5, 8
x0 = pt.vector("x0", shape=(D,))
W1 = pt.matrix("W1", shape=(D, Hd))
W2 = pt.matrix("W2", shape=(Hd, D))
flag = pt.scalar("flag", dtype="int8")

_x = pt.vector("x", shape=(D,))
_a = pt.matrix("a", shape=(D, Hd))
_b = pt.matrix("b", shape=(Hd, D))
block = OpFromGraph([_x, _a, _b], [pt.tanh(_x @ _a) @ _b], name="mlp_block")

dt, n_sub = ifelse(pt.eq(flag, 1), (pt.constant(0.1), pt.constant(1.0)), (pt.constant(0.05), pt.constant(2.0)))


def euler(x, W1, W2, dt):
    return x + dt * block(x, W1, W2)


xs, _ = pytensor.scan(euler, outputs_info=x0, non_sequences=[W1, W2, dt], n_steps=T)
loss = pt.sum((xs[-1] - 1.0) ** 2) * n_sub + pt.sum(xs ** 2) * 0.01
gW1, gW2, gx0 = pytensor.grad(loss, [W1, W2, x0])

inputs = [x0, W1, W2, flag]
outputs = [xs, loss, gW1, gW2, gx0]

rng = np.random.default_rng(103)
values = {"x0": rng.normal(size=D), "W1": rng.normal(size=(D, Hd)) * 0.5, "W2": rng.normal(size=(Hd, D)) * 0.5,
          "flag": np.int8(1)}
