import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.scan.utils import until
x0 = pt.vector("x0", shape=(2,))
n = pt.iscalar("n")
limit = pt.scalar("limit")
def step(y_tm2, y_tm1, limit):
    y = 0.5 * y_tm1 + 0.75 * y_tm2 + 0.1
    return y, until(y > limit)
ys, _ = pytensor.scan(step, outputs_info=[dict(initial=x0, taps=[-2, -1])], non_sequences=[limit], n_steps=n)
inputs = [x0, n, limit]
outputs = [ys[-1]]
values = {"x0": np.array([0.2, 0.3]), "n": np.array(40, dtype="int32"), "limit": np.array(2.5)}
