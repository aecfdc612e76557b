"""Three independent loops of 5 steps over the same sequence and one of 7 steps:
PyTensor's scan_merge fuses the three (states kept in loop order) and leaves the
fourth, whose length differs; their outputs read whole and at their last rows."""
import numpy as np
import pytensor
import pytensor.tensor as pt

xs = pt.matrix("xs", shape=(5, 2))
a = pt.vector("a", shape=(2,))
c = pt.scalar("c")

s1 = pytensor.scan(lambda x, s: s + x, sequences=[xs], outputs_info=[a])[0]
s2 = pytensor.scan(lambda x, s: s * 0.5 + pt.exp(x), sequences=[xs], outputs_info=[a])[0]
s3 = pytensor.scan(lambda x, s, c: s - x * c, sequences=[xs], outputs_info=[a * 2.0], non_sequences=[c])[0]
s4 = pytensor.scan(lambda s, c: s * c, outputs_info=[a], non_sequences=[c], n_steps=7)[0]

inputs = [xs, a, c]
outputs = [s1, s2[-1], s3[-2:], s4[-1]]
values = {"xs": np.linspace(-0.5, 0.5, 10).reshape(5, 2), "a": np.array([1.0, -1.0]), "c": np.array(0.9)}
