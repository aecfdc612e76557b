"""The gradient of a loop's last value: PyTensor's backward loop has a mit_mot state beside
sit_sot states of which only the last row is read."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x0 = pt.vector("x0", shape=(2,))
a = pt.scalar("a")
b = pt.scalar("b")

ys, _ = pytensor.scan(lambda y_tm2, y_tm1, a, b: pt.tanh(a * y_tm1 + b * y_tm2),
                      outputs_info=[dict(initial=x0, taps=[-2, -1])], non_sequences=[a, b], n_steps=9)
last = ys[-1]
ga, gb = pytensor.grad(last, [a, b])

inputs = [x0, a, b]
outputs = [last, ga, gb]

values = {"x0": np.array([0.3, -0.2]), "a": np.array(0.8), "b": np.array(0.4)}
