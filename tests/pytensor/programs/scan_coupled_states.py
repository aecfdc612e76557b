"""Two coupled sit_sots reading each other (a rotation with decay), only the last of
one returned and the whole trace of the other, and a sit_sot whose oldest value is read
by another state (the reuse hazard a 1-row buffer must not hit)."""
import numpy as np
import pytensor
import pytensor.tensor as pt

u0 = pt.vector("u0", shape=(2,))
v0 = pt.vector("v0", shape=(2,))
th = pt.scalar("th")

(us, vs), _ = pytensor.scan(lambda u, v, th: [0.99 * (pt.cos(th) * u - pt.sin(th) * v), 0.99 * (pt.sin(th) * u + pt.cos(th) * v)],
                            outputs_info=[u0, v0], non_sequences=[th], n_steps=12)
(ps, qs), _ = pytensor.scan(lambda p, q: [p + 1.0, q + p * p], outputs_info=[u0, v0], n_steps=5)

inputs = [u0, v0, th]
outputs = [us[-1], vs, qs[-1]]
values = {"u0": np.array([1.0, 0.0]), "v0": np.array([0.0, 1.0]), "th": np.array(0.3)}
