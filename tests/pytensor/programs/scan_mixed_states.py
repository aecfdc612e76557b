"""A scan with an integer counter state (int64 sit_sot), a float state with taps [-2, -1] read
backwards over a sequence with taps [-1, 0], an ifelse inside the step, a bool nit_sot, a matrix
state updated by an outer product, and the gradient in the float inputs."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.ifelse import ifelse

u = pt.vector("u", shape=(10,))
y0 = pt.vector("y0", shape=(2,))
c0 = pt.scalar("c0", dtype="int64")
P0 = pt.matrix("P0", shape=(2, 2))
a = pt.scalar("a")


def step(u_m1, u_0, y_m2, y_m1, c, P, a):
    y = a * y_m1 - 0.2 * y_m2 + ifelse(u_0 > 0, u_0, 0.5 * u_m1)
    c_new = c + pt.cast(y > 0, "int64")
    v = pt.stack([y, y_m1])
    P_new = 0.9 * P + pt.outer(v, v)
    return y, c_new, P_new, y > u_0


(ys, cs, Ps, flags), _ = pytensor.scan(step, sequences=[dict(input=u, taps=[-1, 0])],
                                       outputs_info=[dict(initial=y0, taps=[-2, -1]), c0, P0, None],
                                       non_sequences=[a], go_backwards=True)
loss = (ys ** 2).sum() + pt.linalg.trace(Ps[-1]) + pt.cast(cs[-1], "float64")
g = pytensor.grad(loss, [u, y0, P0, a])
inputs = [u, y0, c0, P0, a]
outputs = [ys, cs, Ps[-1], flags, loss, *g]
rng = np.random.default_rng(315)
values = {"u": rng.normal(size=10), "y0": np.array([0.1, -0.3]), "c0": np.array(2), "P0": np.eye(2), "a": np.array(0.6)}
