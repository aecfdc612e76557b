"""The seed report's second program: the same recurrence twice from one initial value, both
traces returned."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x_init = pt.vector("x_init", shape=(7,))

[sx, sy], _ = pytensor.scan(lambda x, y: (pt.exp(x) - 5, pt.exp(y) - 5), outputs_info=[x_init, x_init], n_steps=10)

inputs = [x_init]
outputs = [sx, sy]

values = {"x_init": np.linspace(-1, 1, 7) * 0.1}
