"""Several readers of one loop's states: the last three rows and the last row of a sit_sot, and a
mit_sot whose output nobody reads but which another state reads at every step."""
import numpy as np
import pytensor
import pytensor.tensor as pt

a0 = pt.vector("a0", shape=(2,))
b0 = pt.scalar("b0")
c = pt.scalar("c")


def step(a_tm2, a_tm1, b_tm1, c):
    a = 0.6 * a_tm1 - 0.3 * a_tm2 + c
    b = 0.9 * b_tm1 + pt.sin(a_tm1)
    return a, b


(aa, bb), _ = pytensor.scan(step, outputs_info=[dict(initial=a0, taps=[-2, -1]), b0], non_sequences=[c], n_steps=12)

inputs = [a0, b0, c]
outputs = [bb[-3:], bb[-1] * 2.0]

values = {"a0": np.array([0.5, -0.25]), "b0": np.array(0.1), "c": np.array(0.2)}
