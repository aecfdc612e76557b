"""A scan with sequence taps [-2, 0, 1], a mit_sot with taps [-3, -1], a sit_sot, a nit_sot and
matrix non-sequences, and the gradient of its loss in every input."""
import numpy as np
import pytensor
import pytensor.tensor as pt

u = pt.matrix("u", shape=(12, 2))
y0 = pt.matrix("y0", shape=(3, 2))
s0 = pt.scalar("s0")
A = pt.matrix("A", shape=(2, 2))
c = pt.vector("c", shape=(2,))
gamma = pt.scalar("gamma")


def step(u_m2, u_0, u_p1, y_m3, y_m1, s_m1, A, c, gamma):
    y = pt.tanh(A @ y_m1 + 0.3 * y_m3 + u_0 - 0.5 * u_m2 + gamma * u_p1 + c)
    s = gamma * s_m1 + (y ** 2).sum()
    out = y.sum() * s_m1
    return y, s, out


(ys, ss, outs), _ = pytensor.scan(step, sequences=[dict(input=u, taps=[-2, 0, 1])],
                                  outputs_info=[dict(initial=y0, taps=[-3, -1]), s0, None],
                                  non_sequences=[A, c, gamma])
loss = (ys ** 2).sum() + ss[-1] + outs.sum() + ys[-2:, 0].sum()
grads = pytensor.grad(loss, [u, y0, s0, A, c, gamma])

inputs = [u, y0, s0, A, c, gamma]
outputs = [ys, ss, outs, loss, *grads]

rng = np.random.default_rng(113)
values = {"u": rng.normal(size=(12, 2)) * 0.5, "y0": rng.normal(size=(3, 2)) * 0.3, "s0": np.array(0.2),
          "A": rng.normal(size=(2, 2)) * 0.5, "c": np.array([0.1, -0.2]), "gamma": np.array(0.7)}
