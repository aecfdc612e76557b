"""Scaled Bessel functions at large arguments, as a von Mises-Fisher or Rice likelihood with a huge
concentration meets them: kve, ive, kv for x from 10 to 1e6, beyond the exponent range of I_v and K_v."""
import numpy as np
import pytensor.tensor as pt

x = pt.vector("x", shape=(8,))
inputs = [x]
outputs = [pt.kve(0, x), pt.kve(1.5, x), pt.kv(0.5, x), pt.ive(0, x), pt.ive(2.5, x)]
values = {"x": np.array([10.0, 2000.0, 10000.0, 14000.0, 15000.0, 20000.0, 40000.0, 1e6])}
